import {
  localTables,
  type IndexOf,
  type IndexValue,
  type LocalRows,
  type LocalStore,
  type LocalWriteTransaction,
  type TableName,
} from './local-store.ts';
import { derivingWrites, writeScope } from './derived-writes.ts';

// The local store in memory: for core's tests and for anything that runs where IndexedDB does
// not. It is meant to fail where IndexedDB fails, so code tested against it does not break on a
// device: rows are structured clones (what IndexedDB stores), a transaction may only touch the
// tables it named, a body that throws leaves nothing written, write transactions never
// interleave, and a body that awaits something other than its transaction (a timer, a fetch,
// crypto.subtle) loses the transaction the way IndexedDB's auto-commit makes it lose it.

// Core is compiled without DOM or Node types; every runtime it runs on has these two.
const host = globalThis as unknown as {
  structuredClone<T>(value: T): T;
  setTimeout(callback: () => void, ms: number): unknown;
};
const clone = <T>(value: T): T => host.structuredClone(value);
// Taken once at load, so a test that installs fake timers does not stop the auto-commit check.
const nextTask = host.setTimeout.bind(globalThis);

type AnyRow = LocalRows[TableName];
type Rows = Map<string, AnyRow>;

/** Errors carry the names IndexedDB and Dexie use, so callers can handle both stores alike. */
function storeError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

function keyOf(table: TableName, row: AnyRow): string {
  const key = (row as unknown as Record<string, unknown>)[localTables[table].key];
  if (typeof key !== 'string') {
    throw storeError(
      'DataError',
      `${table}: the row's key '${localTables[table].key}' is not a string`,
    );
  }
  return key;
}

// Sorted keys of a table version. A committed version never changes, so its keys are sorted
// once for every transaction that reads it; a write's own copy drops its entry on each change.
const sortedKeyCache = new WeakMap<Rows, string[]>();

/** IndexedDB orders string keys by UTF-16 code unit, which is what a plain sort does. */
function sortedKeys(rows: Rows): string[] {
  let keys = sortedKeyCache.get(rows);
  if (keys === undefined) {
    keys = [...rows.keys()].sort();
    sortedKeyCache.set(rows, keys);
  }
  return keys;
}

function matchesIndex(row: AnyRow, field: string, multiEntry: boolean, value: IndexValue): boolean {
  const indexed = (row as unknown as Record<string, unknown>)[field];
  // A multiEntry index holds each item of a list; a list in a plain index never equals a
  // string or number, and a missing or null field is not in the index at all.
  if (multiEntry && Array.isArray(indexed)) return indexed.includes(value);
  return indexed === value;
}

function indexSpec(table: TableName, index: string): { multiEntry: boolean } {
  const specs: readonly string[] = localTables[table].indexes;
  if (specs.includes(index)) return { multiEntry: false };
  if (specs.includes(`*${index}`)) return { multiEntry: true };
  throw storeError('SchemaError', `${table} has no index '${index}'`);
}

/** Runs a synchronous step as a promise, so its errors reject rather than throw. */
function settle<T>(step: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(step());
  });
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new RangeError(`limit must be a non-negative integer, not ${limit}`);
  }
  return limit;
}

export function createMemoryLocalStore(): LocalStore {
  // Committed tables are never changed in place: a write works on copies of the tables it
  // changes and swaps them in at commit, so a reader keeps the snapshot it started with.
  let committed = new Map<TableName, Rows>();
  for (const table of Object.keys(localTables) as TableName[]) committed.set(table, new Map());
  let writeQueue: Promise<void> = Promise.resolve();
  let closed = false;

  async function run<T>(
    mode: 'read' | 'write',
    tables: readonly TableName[],
    body: (tx: LocalWriteTransaction) => Promise<T>,
  ): Promise<T> {
    if (closed) throw storeError('DatabaseClosedError', 'the local store is closed');
    if (tables.length === 0) throw storeError('InvalidAccessError', 'a transaction needs a table');
    for (const table of tables) {
      if (!Object.hasOwn(localTables, table)) {
        throw storeError('NotFoundError', `there is no table '${table}'`);
      }
    }

    let release = (): void => undefined;
    if (mode === 'write') {
      const previous = writeQueue;
      writeQueue = new Promise<void>((resolve) => {
        release = resolve;
      });
      await previous;
    }

    const base = committed;
    const copies = new Map<TableName, Rows>();
    // Widened on purpose: the callbacks below change it behind the compiler's back.
    let state = 'active' as 'active' | 'auto-committed' | 'finished';
    const commit = (): void => {
      if (copies.size === 0) return;
      const next = new Map(committed);
      for (const [table, rows] of copies) next.set(table, rows);
      committed = next;
    };

    const rowsOf = (table: TableName): Rows => {
      if (state !== 'active') {
        throw storeError(
          'TransactionInactiveError',
          'the transaction is no longer active: it finished, or its body awaited something other than the transaction',
        );
      }
      if (!tables.includes(table)) {
        throw storeError('NotFoundError', `table '${table}' is not part of this transaction`);
      }
      const rows = copies.get(table) ?? base.get(table);
      if (rows === undefined) throw storeError('NotFoundError', `there is no table '${table}'`);
      return rows;
    };
    const keysOf = (table: TableName): string[] => sortedKeys(rowsOf(table));
    const writable = (table: TableName): Rows => {
      const rows = rowsOf(table);
      if (mode === 'read') {
        throw storeError('ReadOnlyError', `table '${table}' is read-only in a read transaction`);
      }
      if (copies.has(table)) {
        sortedKeyCache.delete(rows);
        return rows;
      }
      const copy = new Map(rows);
      copies.set(table, copy);
      return copy;
    };

    const tx: LocalWriteTransaction = {
      get: <N extends TableName>(table: N, key: string) =>
        settle(() => {
          const row = rowsOf(table).get(key);
          return row === undefined ? undefined : (clone(row) as LocalRows[N]);
        }),
      getMany: <N extends TableName>(table: N, keys: readonly string[]) =>
        settle(() => {
          const rows = rowsOf(table);
          return keys.map((key) => {
            const row = rows.get(key);
            return row === undefined ? undefined : (clone(row) as LocalRows[N]);
          });
        }),
      where: <N extends TableName>(table: N, index: IndexOf<N>, value: IndexValue) =>
        settle(() => {
          const { multiEntry } = indexSpec(table, index);
          const rows = rowsOf(table);
          const found: LocalRows[N][] = [];
          for (const key of keysOf(table)) {
            const row = rows.get(key);
            if (row !== undefined && matchesIndex(row, index, multiEntry, value)) {
              found.push(clone(row) as LocalRows[N]);
            }
          }
          return found;
        }),
      all: <N extends TableName>(table: N, options?: { limit?: number }) =>
        settle(() => {
          const limit = checkLimit(options?.limit);
          const rows = rowsOf(table);
          return keysOf(table)
            .slice(0, limit)
            .map((key) => clone(rows.get(key)) as LocalRows[N]);
        }),
      keys: (table) => settle(() => [...keysOf(table)]),
      keysBetween: (table, lower, upper, limit) =>
        settle(() => {
          const max = checkLimit(limit);
          const found: string[] = [];
          for (const key of keysOf(table)) {
            if (found.length >= max || key > upper) break;
            if (key >= lower) found.push(key);
          }
          return found;
        }),
      count: (table) => settle(() => rowsOf(table).size),
      put: (table, row) =>
        settle(() => {
          const key = keyOf(table, row);
          const stored = clone(row);
          writable(table).set(key, stored);
        }),
      putMany: (table, rows) =>
        settle(() => {
          // Clone everything first: a row that cannot be stored refuses the whole batch.
          const entries = rows.map((row) => [keyOf(table, row), clone(row)] as const);
          const target = writable(table);
          for (const [key, row] of entries) target.set(key, row);
        }),
      delete: (table, key) =>
        settle(() => {
          writable(table).delete(key);
        }),
      deleteMany: (table, keys) =>
        settle(() => {
          const target = writable(table);
          for (const key of keys) target.delete(key);
        }),
      deletePrefix: (table, prefix) =>
        settle(() => {
          const target = writable(table);
          for (const key of [...target.keys()]) if (key.startsWith(prefix)) target.delete(key);
        }),
    };

    // Every call above settles within microtasks, so once a task boundary passes with the body
    // still pending, the body is waiting on something else. IndexedDB would have committed by
    // then; do the same, so the mistake shows up here rather than on a device.
    nextTask(() => {
      if (state !== 'active') return;
      state = 'auto-committed';
      commit();
      release();
    }, 0);

    try {
      // A write's derived fields (a bill's deck keys) are kept true by derivingWrites, as in
      // the IndexedDB store.
      const result = await body(mode === 'write' ? derivingWrites(tx) : tx);
      if (state === 'auto-committed') {
        throw storeError(
          'PrematureCommitError',
          'the transaction committed before its body finished: the body awaited something other than the transaction',
        );
      }
      state = 'finished';
      commit();
      return result;
    } finally {
      // On a throw the copies are simply dropped: nothing the body wrote was ever visible.
      if (state === 'active') state = 'finished';
      release();
    }
  }

  return {
    read: (tables, body) => run('read', tables, body),
    write: (tables, body) => run('write', writeScope(tables), body),
    close: () => {
      closed = true;
    },
  };
}
