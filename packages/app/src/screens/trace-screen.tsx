import { IonButton } from '@ionic/react';
import type { TraceEntry } from '@docket/core/store';
import {
  matchesTraceFilter,
  traceDetailLines,
  traceExportJson,
  traceWindows,
  type TraceFilter,
  type TraceWindow,
} from '@docket/core/device';
import { Fragment, useId, useState } from 'react';
import { useAppServices } from '../services/app-services.ts';
import '../ui/forms.css';
import { formatDuration, plural } from '../ui/formatting.ts';
import '../ui/user-data-forms.css';
import { readTraceEntries, useTrace } from '../local-store/live-trace.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useStatusToast } from '../toasts/status-toast.ts';
import { FormError } from '../ui/form-error.tsx';

// The device's diagnostic log, newest first, filtered by kind and time. The log holds up to
// 5,000 entries (trace-log.ts); they are shown a page at a time, so the screen opens at once.

const PAGE = 100;

const windowWords: Readonly<Record<TraceWindow, string>> = {
  hour: 'Last hour',
  day: 'Last day',
  week: 'Last week',
  all: 'All time',
};

/** To the second: entries of one sync run are seconds apart. */
function formatTraceTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function TraceScreen() {
  const id = useId();
  const { platform } = useAppServices();
  const [filter, setFilter] = useState<TraceFilter>({ kind: null, window: 'all' });
  const [limit, setLimit] = useState(PAGE);
  const toast = useStatusToast();
  const [failure, setFailure] = useState<string | null>(null);
  const trace = useTrace(filter, limit);

  const change = (next: Partial<TraceFilter>) => {
    setFilter((current) => ({ ...current, ...next }));
    setLimit(PAGE);
  };

  const exportTrace = () => {
    setFailure(null);
    const now = Date.now();
    readTraceEntries(filter, now)
      .then(async (entries) => {
        // The live query's window moved on since; the file holds what the filter holds now.
        const kept = entries.filter((entry) => matchesTraceFilter(entry, filter, now));
        const at = new Date(now).toISOString();
        const name = `docket-trace-${at.slice(0, 19).replace(/:/g, '-')}.json`;
        const json = traceExportJson(kept, filter, at);
        await platform.saveFile(name, new Blob([json]), 'application/json');
        toast.done(`Exported ${plural(kept.length, 'entry', 'entries')} to ${name}.`);
      })
      .catch((error: unknown) => {
        setFailure(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
      });
  };

  const kinds = [...(trace?.kinds ?? [])];
  if (filter.kind !== null && !kinds.includes(filter.kind)) kinds.push(filter.kind);

  return (
    <>
      <PageHeader title="Trace" backHref="/tabs/more" />
      <PageBody>
        <h1>Trace</h1>
        <p>
          This device’s own diagnostic log: syncs, jobs, imports and exports, sign-ins and
          connectivity. It stays on this device and keeps the newest 5,000 entries.
        </p>
        <div className="trace-filters">
          <div className="form-field">
            <label htmlFor={`${id}-kind`}>Kind</label>
            <select
              id={`${id}-kind`}
              value={filter.kind ?? ''}
              onChange={(event) => {
                change({ kind: event.target.value === '' ? null : event.target.value });
              }}
            >
              <option value="">All kinds</option>
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-window`}>Time</label>
            <select
              id={`${id}-window`}
              value={filter.window}
              onChange={(event) => {
                const window = traceWindows.find((value) => value === event.target.value);
                if (window !== undefined) change({ window });
              }}
            >
              {traceWindows.map((window) => (
                <option key={window} value={window}>
                  {windowWords[window]}
                </option>
              ))}
            </select>
          </div>
          <IonButton fill="outline" disabled={trace === undefined} onClick={exportTrace}>
            Export trace
          </IonButton>
        </div>
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
