import type { TraceEntry } from '@docket/core/store';
import { traceIdFloor, traceWindowStart, type TraceFilter } from '@docket/core/device';
import { distinctIndexKeys } from './distinct-index-keys.ts';
import { openStoredRows } from './indexeddb-local-store.ts';
import { liveDatabase, useLiveRead } from './live-database.ts';

// Live reads of the trace (the device's diagnostic log, up to 5,000 entries): a page of the
// newest entries that match a filter, through Dexie's key ranges and index walks, so the screen
// does not read the whole log to show a hundred entries.

function traceTable() {
  return liveDatabase().table<TraceEntry, string>('trace');
}

/** The filter as a Dexie collection, newest first: the window is a key range on the id. */
function filtered(filter: TraceFilter, nowMs: number) {
  const start = traceWindowStart(filter.window, nowMs);
  const base =
    start === null
      ? traceTable().orderBy(':id')
      : traceTable().where(':id').aboveOrEqual(traceIdFloor(start));
  const collection = base.reverse();
  const kind = filter.kind;
  return kind === null ? collection : collection.filter((entry) => entry.kind === kind);
}

/** A page of the matching entries, newest first, their total and every kind in the log. */
export function useTrace(filter: TraceFilter, limit: number) {
  return useLiveRead(async () => {
    const now = Date.now();
    const [entries, total, kinds] = await Promise.all([
      filtered(filter, now)
        .limit(limit)
        .toArray()
        .then((rows) => openStoredRows(liveDatabase(), 'trace', rows)),
      filtered(filter, now).count(),
      distinctIndexKeys(traceTable(), 'kind'),
    ]);
    return { entries, total, kinds };
  }, [filter.kind, filter.window, limit]);
}

/** Every entry the filter holds now, newest first, read once (for the trace's export). */
export async function readTraceEntries(filter: TraceFilter, nowMs: number): Promise<TraceEntry[]> {
  return openStoredRows(liveDatabase(), 'trace', await filtered(filter, nowMs).toArray());
}
