import { IonButton } from '@ionic/react';
import type { TraceEntry } from '@docket/core/store';
import { traceDetailLines, type TraceFilter } from '@docket/core/device';
import { Fragment, useState } from 'react';
import '../ui/forms.css';
import { formatDuration, plural } from '../ui/formatting.ts';
import '../ui/user-data-forms.css';
import { useTrace } from '../local-store/live-trace.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { TraceFilters } from '../trace/trace-filters.tsx';
import { useTraceExport } from '../trace/use-trace-export.ts';
import { FormError } from '../ui/form-error.tsx';

// The device's diagnostic log, newest first, filtered by kind and time. The log holds up to
// 5,000 entries (trace-log.ts); they are shown a page at a time, so the screen opens at once.

const PAGE = 100;

/** To the second: entries of one sync run are seconds apart. */
function formatTraceTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function TraceScreen() {
  const [filter, setFilter] = useState<TraceFilter>({ kind: null, window: 'all' });
  const [limit, setLimit] = useState(PAGE);
  const trace = useTrace(filter, limit);
  const { failure, exportTrace } = useTraceExport(filter);

  const change = (next: Partial<TraceFilter>) => {
    setFilter((current) => ({ ...current, ...next }));
    setLimit(PAGE);
  };

  return (
    <>
      <PageHeader title="Trace" backHref="/tabs/more" />
      <PageBody>
        <h1>Trace</h1>
        <p>
          This device’s own diagnostic log: syncs, jobs, imports and exports, sign-ins and
          connectivity. It stays on this device and keeps the newest 5,000 entries.
        </p>
        <TraceFilters
          filter={filter}
          kindsInLog={trace?.kinds}
          loading={trace === undefined}
          onChange={change}
          onExport={exportTrace}
        />
        <FormError message={failure} />
        {trace === undefined ? (
          <p>Loading the trace…</p>
        ) : trace.total === 0 ? (
          <p>No entries{filter.kind === null && filter.window === 'all' ? ' yet' : ' match'}.</p>
        ) : (
          <>
            <p aria-live="polite">
              {trace.entries.length < trace.total
                ? `Showing the newest ${trace.entries.length} of ${plural(trace.total, 'entry', 'entries')}.`
                : `${plural(trace.total, 'entry', 'entries')}.`}
            </p>
            <ul className="trace-list" aria-label="Trace entries, newest first">
              {trace.entries.map((entry) => (
                <TraceItem key={entry.id} entry={entry} />
              ))}
            </ul>
            {trace.entries.length < trace.total && (
              <div className="screen-actions">
                <IonButton
                  fill="outline"
                  onClick={() => {
                    setLimit((current) => current + PAGE);
                  }}
                >
                  Show {Math.min(PAGE, trace.total - trace.entries.length)} more
                </IonButton>
              </div>
            )}
          </>
        )}
      </PageBody>
    </>
  );
}

function TraceItem({ entry }: { readonly entry: TraceEntry }) {
  const details = traceDetailLines(entry.details);
  return (
    <li className="trace-entry">
      <h2>
        <span>{entry.kind}</span>
        <time dateTime={entry.at}>{formatTraceTime(entry.at)}</time>
        {entry.durationMs !== null && (
          <span className="trace-duration">
            took{' '}
            {entry.durationMs < 1000
              ? `${Math.round(entry.durationMs)} ms`
              : formatDuration(entry.durationMs)}
          </span>
        )}
      </h2>
      {details.length > 0 && (
        <dl className="trace-details">
          {details.map(([key, value]) => (
            <Fragment key={key}>
              <dt>{key}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </li>
  );
}
