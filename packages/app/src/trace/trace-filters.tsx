import { IonButton } from '@ionic/react';
import { traceWindows, type TraceFilter, type TraceWindow } from '@docket/core/device';
import { useId } from 'react';

// The trace screen's filters (kind and time) and its "Export trace" button.

const windowWords: Readonly<Record<TraceWindow, string>> = {
  hour: 'Last hour',
  day: 'Last day',
  week: 'Last week',
  all: 'All time',
};

/** Kind and time to filter the trace by, and "Export trace" (disabled while it loads). */
export function TraceFilters({
  filter,
  kindsInLog,
  loading,
  onChange,
  onExport,
}: {
  readonly filter: TraceFilter;
  /** Every kind in the log; undefined while loading. */
  readonly kindsInLog: readonly string[] | undefined;
  readonly loading: boolean;
  readonly onChange: (next: Partial<TraceFilter>) => void;
  readonly onExport: () => void;
}) {
  const id = useId();
  const kinds = [...(kindsInLog ?? [])];
  if (filter.kind !== null && !kinds.includes(filter.kind)) kinds.push(filter.kind);

  return (
    <div className="trace-filters">
      <div className="form-field">
        <label htmlFor={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          value={filter.kind ?? ''}
          onChange={(event) => {
            onChange({ kind: event.target.value === '' ? null : event.target.value });
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
            if (window !== undefined) onChange({ window });
          }}
        >
          {traceWindows.map((window) => (
            <option key={window} value={window}>
              {windowWords[window]}
            </option>
          ))}
        </select>
      </div>
      <IonButton fill="outline" disabled={loading} onClick={onExport}>
        Export trace
      </IonButton>
    </div>
  );
}
