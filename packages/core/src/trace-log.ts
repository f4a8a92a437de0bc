import type { TraceEntry } from './local-records.ts';
import { traceEntrySchema } from './local-records.ts';
import type { LocalStore } from './local-store.ts';

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
