import type { LocalReadTransaction, LocalStore, LocalWriteTransaction } from '@docket/core/store';

// Instruments the import from outside core: a LocalStore wrapper that records when each
// transaction runs and how long each call inside it takes, and a heap sampler. The gaps between
// transactions are the import's own CPU work (unzipping, parsing, normalizing), because
// runImportJob does nothing else between its store calls.

/** Chromium's non-standard performance.memory (exact with --enable-precise-memory-info). */
interface ChromiumMemory {
  usedJSHeapSize: number;
  jsHeapSizeLimit: number;
}

function chromiumMemory(): ChromiumMemory | undefined {
  return (performance as Performance & { memory?: ChromiumMemory }).memory;
}

export function usedHeapBytes(): number | null {
  return chromiumMemory()?.usedJSHeapSize ?? null;
}

/** The most JS heap this page may use before V8 gives up with an out-of-memory crash. */
export function heapLimitBytes(): number | null {
  return chromiumMemory()?.jsHeapSizeLimit ?? null;
}

/** Collects garbage when the page was started with --js-flags=--expose-gc. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * The highest used JS heap seen. Sampled on a timer and at every store call, because long
 * synchronous stretches (unzipping, parsing a chunk) give the timer no chance to run.
 */
export class HeapSampler {
  peak = 0;
  samples = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  readonly sample = (): void => {
    const used = usedHeapBytes();
    if (used === null) return;
    this.samples++;
    if (used > this.peak) this.peak = used;
  };

  start(intervalMs = 20): void {
    this.sample();
    this.timer = setInterval(this.sample, intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

/** One store transaction: which kind ('write importStaging+jobs'), when, and its calls. */
export interface TransactionSpan {
  kind: string;
  start: number;
  end: number;
  /** The used JS heap when the transaction began. */
  heapAtStart: number | null;
  /** Milliseconds spent awaiting each call, by call ('putMany importStaging'). */
  calls: Map<string, { count: number; ms: number; rows: number }>;
}

/** Everything the timed store saw, in order. */
export class StoreTimeline {
  readonly spans: TransactionSpan[] = [];
  constructor(private readonly onCall: () => void = () => undefined) {}

  /** Wraps a store so every transaction and call on it is recorded here. */
  wrap(store: LocalStore): LocalStore {
    const run = async <T>(kind: string, open: (record: CallRecorder) => Promise<T>): Promise<T> => {
      const span: TransactionSpan = {
        kind,
        start: performance.now(),
        end: 0,
        heapAtStart: usedHeapBytes(),
        calls: new Map(),
      };
      const record: CallRecorder = (call, started, rows) => {
        const ms = performance.now() - started;
        const entry = span.calls.get(call) ?? { count: 0, ms: 0, rows: 0 };
        entry.count++;
        entry.ms += ms;
        entry.rows += rows;
        span.calls.set(call, entry);
        this.onCall();
      };
      try {
        return await open(record);
      } finally {
        span.end = performance.now();
        this.spans.push(span);
        this.onCall();
      }
    };
    return {
      read: (tables, body) =>
        run(`read ${tables.join('+')}`, (record) =>
          store.read(tables, (tx) => body(timedRead(tx, record))),
        ),
      write: (tables, body) =>
        run(`write ${tables.join('+')}`, (record) =>
          store.write(tables, (tx) => body(timedWrite(tx, record))),
        ),
      close: () => {
        store.close();
      },
    };
  }
}

type CallRecorder = (call: string, started: number, rows: number) => void;

/** Awaits a call and records how long it took; awaiting only the call keeps the transaction. */
async function timed<R>(
  record: CallRecorder,
  call: string,
  rows: number,
  body: () => Promise<R>,
): Promise<R> {
  const started = performance.now();
  try {
    return await body();
  } finally {
    record(call, started, rows);
  }
}

function timedRead(tx: LocalReadTransaction, record: CallRecorder): LocalReadTransaction {
  return {
    get: (table, key) => timed(record, `get ${table}`, 1, () => tx.get(table, key)),
    getMany: (table, keys) =>
      timed(record, `getMany ${table}`, keys.length, () => tx.getMany(table, keys)),
    where: (table, index, value) =>
      timed(record, `where ${table}.${index}`, 0, () => tx.where(table, index, value)),
    all: (table, options) => timed(record, `all ${table}`, 0, () => tx.all(table, options)),
    keys: (table) => timed(record, `keys ${table}`, 0, () => tx.keys(table)),
    keysBetween: (table, lower, upper, limit) =>
      timed(record, `keysBetween ${table}`, 0, () => tx.keysBetween(table, lower, upper, limit)),
    count: (table) => timed(record, `count ${table}`, 0, () => tx.count(table)),
  };
}

function timedWrite(tx: LocalWriteTransaction, record: CallRecorder): LocalWriteTransaction {
  return {
    ...timedRead(tx, record),
    put: (table, row) => timed(record, `put ${table}`, 1, () => tx.put(table, row)),
    putMany: (table, rows) =>
      timed(record, `putMany ${table}`, rows.length, () => tx.putMany(table, rows)),
    delete: (table, key) => timed(record, `delete ${table}`, 1, () => tx.delete(table, key)),
    deleteMany: (table, keys) =>
      timed(record, `deleteMany ${table}`, keys.length, () => tx.deleteMany(table, keys)),
    deletePrefix: (table, prefix) =>
      timed(record, `deletePrefix ${table}`, 0, () => tx.deletePrefix(table, prefix)),
  };
}
