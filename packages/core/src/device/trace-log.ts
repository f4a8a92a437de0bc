import type { TraceEntry } from '../store/local-records.ts';
import { traceEntrySchema } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// The device's diagnostic log (PRODUCT.md, trace): sync runs, jobs, sign-in, connectivity and
// errors, newest last. Ids sort by time, so the oldest entries are the first keys and the cap
// drops them first. Nothing in it syncs; it is for the person holding the device.

/** Entries kept; past this the oldest go. */
export const TRACE_CAP = 5000;

export interface TraceInput {
  readonly kind: string;
  readonly durationMs: number | null;
  readonly details: Record<string, unknown>;
}

let sequence = 0;

/** A time-ordered id: the time, then a counter and a random tail so two tabs never collide. */
function traceId(nowMs: number, random: () => number): string {
  sequence = (sequence + 1) % 1_000_000;
  const tail = Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${String(Math.max(0, Math.floor(nowMs))).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${tail}`;
}

/** Writes one entry and drops the oldest beyond the cap, in one transaction. */
export async function appendTrace(
  store: LocalStore,
  input: TraceInput,
  nowMs: number,
  options: { cap?: number; random?: () => number } = {},
): Promise<TraceEntry> {
  const cap = options.cap ?? TRACE_CAP;
  const entry = traceEntrySchema.parse({
    id: traceId(nowMs, options.random ?? Math.random),
    at: new Date(nowMs).toISOString(),
    kind: input.kind,
    durationMs: input.durationMs === null ? null : Math.max(0, input.durationMs),
    details: input.details,
  });
  await store.write(['trace'], async (tx) => {
    await tx.put('trace', entry);
    const excess = (await tx.count('trace')) - cap;
    if (excess > 0) {
      const oldest = await tx.all('trace', { limit: excess });
      await tx.deleteMany(
        'trace',
        oldest.map((row) => row.id),
      );
    }
  });
  return entry;
}

// ---- Reading the log (the trace screen) ----

/** The time windows the trace screen filters by. */
export const traceWindows = ['hour', 'day', 'week', 'all'] as const;
export type TraceWindow = (typeof traceWindows)[number];

const WINDOW_MS: Readonly<Record<Exclude<TraceWindow, 'all'>, number>> = {
  hour: 60 * 60 * 1000,
  day: 24 * 60 * 60 * 1000,
  week: 7 * 24 * 60 * 60 * 1000,
};

export interface TraceFilter {
  /** One kind, or null for every kind. */
  readonly kind: string | null;
  readonly window: TraceWindow;
}

export const allTrace: TraceFilter = { kind: null, window: 'all' };

/** The first id of entries at or after a time: ids start with the zero-padded time. */
export function traceIdFloor(sinceMs: number): string {
  return String(Math.max(0, Math.floor(sinceMs))).padStart(15, '0');
}

/** The earliest time a window lets through, or null for every entry. */
export function traceWindowStart(window: TraceWindow, nowMs: number): number | null {
  return window === 'all' ? null : nowMs - WINDOW_MS[window];
}

/** Whether an entry passes the filter at `nowMs`. */
export function matchesTraceFilter(entry: TraceEntry, filter: TraceFilter, nowMs: number): boolean {
  if (filter.kind !== null && entry.kind !== filter.kind) return false;
  const start = traceWindowStart(filter.window, nowMs);
  return start === null || entry.id >= traceIdFloor(start);
}

/** The entries passing the filter, newest first (the whole log is at most TRACE_CAP rows). */
export async function readTrace(
  store: LocalStore,
  filter: TraceFilter,
  nowMs: number,
): Promise<TraceEntry[]> {
  const rows = await store.read(['trace'], (tx) =>
    filter.kind === null ? tx.all('trace') : tx.where('trace', 'kind', filter.kind),
  );
  return rows.filter((entry) => matchesTraceFilter(entry, filter, nowMs)).reverse();
}

/** Every kind in the log, sorted, for the kind filter's choices. */
export function traceKinds(entries: readonly Pick<TraceEntry, 'kind'>[]): string[] {
  return [...new Set(entries.map((entry) => entry.kind))].sort();
}

const DETAIL_TEXT_MAX = 2000;

function detailText(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '—';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    text = String(value);
  } else {
    try {
      // JSON.stringify gives undefined for a function or symbol, whatever its type says.
      const json = JSON.stringify(value) as string | undefined;
      text = typeof json === 'string' ? json : '(unreadable)';
    } catch {
      text = '(unreadable)';
    }
  }
  return text.length > DETAIL_TEXT_MAX ? `${text.slice(0, DETAIL_TEXT_MAX)}…` : text;
}

/** An entry's details as key and value texts, in their order, for people to read. */
export function traceDetailLines(details: Readonly<Record<string, unknown>>): [string, string][] {
  return Object.entries(details).map(([key, value]) => [key, detailText(value)]);
}

/** The filtered log as a JSON file: what it is, when, which filter, and the entries. */
export function traceExportJson(
  entries: readonly TraceEntry[],
  filter: TraceFilter,
  exportedAt: string,
): string {
  return `${JSON.stringify(
    {
      format: 'docket-trace',
      version: 1,
      exportedAt,
      filter: { kind: filter.kind, window: filter.window },
      entries,
    },
    null,
    2,
  )}\n`;
}
