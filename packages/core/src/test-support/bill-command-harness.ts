import { expect } from 'vitest';
import type { BillCommandContext } from '../commands/bill-command-context.ts';
import type { BillDraft } from '../bills/bill.ts';
import { finalizeBill } from '../bills/bill.ts';
import { decodeHlc } from '../merge/hybrid-logical-clock.ts';
import { outboxFields } from '../merge/outbox-changes.ts';
import type { OutboxEntry, StoredBill } from '../store/local-records.ts';
import { outboxEntrySchema } from '../store/local-records.ts';
import type { LocalRows, LocalStore, TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { idMaker } from './dataset-import-harness.ts';

// Shared by the tests of the commands on the user's bills: a store with a few bills in it, a
// context with a clock the test moves, and checks of the outbox every command must satisfy.

export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
export const DEVICE = 'device-a';

/** A Congress bill as the importers would store it; `number` makes the id `us/119/hr-<n>`. */
export function storedBill(number: number, extra: Partial<BillDraft> = {}): StoredBill {
  const result = finalizeBill({
    source: 'congress-json',
    sourceId: null,
    jurisdiction: 'us',
    session: '119',
    identifier: `H.R. ${number}`,
    title: `A bill to do thing number ${number}.`,
    summary: null,
    introducedDate: '2025-01-03',
    status: 'introduced',
    rawStatus: null,
    statusDate: '2025-01-03',
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
    ...extra,
  });
  if (!result.ok) throw new Error(result.reason);
  return { ...result.bill, datasetIds: ['dataset-1'] };
}

export const billIdOf = (number: number): string => `us/119/hr-${number}`;

export interface TestContext extends BillCommandContext {
  /** Moves the wall clock; it may go backwards, as real ones do. */
  setNow(ms: number): void;
}

export function testContext(store: LocalStore, deviceId = DEVICE): TestContext {
  let now = T0;
  return {
    store,
    deviceId,
    now: () => now,
    newId: idMaker(deviceId),
    setNow: (ms) => {
      now = ms;
    },
  };
}

/** A memory store holding bills 1…count, and a context on it. */
export async function storeWithBills(
  count: number,
  extra: (number: number) => Partial<BillDraft> = () => ({}),
): Promise<{ store: LocalStore; context: TestContext }> {
  const store = createMemoryLocalStore();
  const bills = Array.from({ length: count }, (_, index) =>
    storedBill(index + 1, extra(index + 1)),
  );
  await store.write(['bills'], (tx) => tx.putMany('bills', bills));
  return { store, context: testContext(store) };
}

export async function rowsOf<N extends TableName>(
  store: LocalStore,
  table: N,
): Promise<LocalRows[N][]> {
  return store.read([table], (tx) => tx.all(table));
}

/** The outbox in key order, each entry checked against its schema and the format's rules. */
export async function outboxOf(store: LocalStore): Promise<OutboxEntry[]> {
  const entries = (await rowsOf(store, 'outbox')).map((entry) => outboxEntrySchema.parse(entry));
  for (const entry of entries) {
    const clock = decodeHlc(entry.id);
    const fields = outboxFields(entry);
    for (const field of Object.values(fields ?? {})) expect(field.hlc).toBe(entry.id);
    expect(new Date(entry.createdAt).getTime()).toBeGreaterThan(0);
    expect(clock.deviceId.length).toBeGreaterThan(0);
  }
  return entries;
}

/** The value a put entry sets for a field. */
export function fieldValue(entry: OutboxEntry | undefined, name: string): unknown {
  if (entry === undefined) return undefined;
  return outboxFields(entry)?.[name]?.value;
}

/** Entries written after the first `seen` ones (keys sort in the order they were made). */
export async function newOutbox(store: LocalStore, seen: number): Promise<OutboxEntry[]> {
  return (await outboxOf(store)).slice(seen);
}

/** Every table, to compare a store before and after a command that must change nothing. */
export async function everything(store: LocalStore): Promise<Record<TableName, unknown[]>> {
  const tables = Object.keys(localTables) as TableName[];
  return store.read(tables, async (tx) => {
    const snapshot = {} as Record<TableName, unknown[]>;
    for (const table of tables) snapshot[table] = await tx.all(table);
    return snapshot;
  });
}

export interface WriteCallLog {
  /** 1 for the first write transaction through the store, and so on. */
  transaction: number;
  tables: readonly TableName[];
  table: TableName;
  method: string;
  /** Rows put or keys deleted. */
  count: number;
}

/** The store, with a log of every write call made through it (to prove `bills` is never one). */
export function loggingStore(inner: LocalStore): LocalStore & { calls: WriteCallLog[] } {
  const calls: WriteCallLog[] = [];
  let transactions = 0;
  return {
    calls,
    read: (tables, body) => inner.read(tables, body),
    write: (tables, body) => {
      const transaction = ++transactions;
      return inner.write(tables, (tx) =>
        body({
          ...tx,
          put: (table, row) => {
            calls.push({ transaction, tables, table, method: 'put', count: 1 });
            return tx.put(table, row);
          },
          putMany: (table, rows) => {
            calls.push({ transaction, tables, table, method: 'putMany', count: rows.length });
            return tx.putMany(table, rows);
          },
          delete: (table, key) => {
            calls.push({ transaction, tables, table, method: 'delete', count: 1 });
            return tx.delete(table, key);
          },
          deleteMany: (table, keys) => {
            calls.push({ transaction, tables, table, method: 'deleteMany', count: keys.length });
            return tx.deleteMany(table, keys);
          },
        }),
      );
    },
    close: () => {
      inner.close();
    },
  };
}

/** The number and title the user's rows keep of bill `number` (`billLabel`). */
export const billLabelOf = (number: number): { identifier: string; title: string } => ({
  identifier: `H.R. ${number}`,
  title: `A bill to do thing number ${number}.`,
});
