import type { OpenedFullBackup } from './full-backup-reader.ts';
import { decodeHlc, encodeHlc, tick } from '../merge/hybrid-logical-clock.ts';
import { readDeviceClock, saveDeviceClock } from '../merge/outbox-changes.ts';
import {
  initialSyncState,
  isSyncedField,
  MERGE_TABLES,
  mergeChange,
  mergeChanges,
  rowOfState,
  syncStateId,
  ZERO_CLOCK,
  type RowChange,
} from '../merge/sync-merge.ts';
import {
  syncedTables,
  type DatasetFile,
  type OutboxEntry,
  type StoredBill,
  type SyncedTable,
  type SyncState,
} from '../store/local-records.ts';
import type {
  LocalReadTransaction,
  LocalRows,
  LocalStore,
  TableName,
} from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { canonicalJson } from '../bills/canonical-hash.ts';

// Merging a full backup into the device (issue 37's "Merge" and "Bring back my changes"):
// nothing the device holds is removed, and of two values of one field the one with the newer
// clock stays, whichever side it is on.
//
// The backup's synced rows become changes, each field at the clock its sync state saved, and go
// through the same join sync merges pulled changes with (sync-merge.ts). So merging is
// commutative and idempotent: a merge after the device has pulled everything gives what a merge
// before the pull would have, merging twice changes nothing the second time, and a row deleted
// on the device after the backup was made stays deleted (its delete clock is newer). A field
// whose clock the backup does not know (a row from before sync) never wins against a row the
// device holds; a row the device neither holds nor deleted is added whole.
//
// What moved is queued in the outbox at the clocks it had (one entry a row, only the fields that
// won), so the other devices merge it by the same rule: a value newer than theirs wins there
// too, an older one changes nothing. Deletes in the backup are never carried over.
//
// Datasets the merge adds come with the backup's files when it holds them (a version 2 backup of
// a device), without their old blob addresses (the next sync uploads the files under this
// device's account and epoch); without files (a version 1 copy of the user's work) they keep
// their addresses, and the files this device still holds or sync brings make them whole. Bills
// the backup holds and the device lacks are added, with the dataset ids that exist after.

export interface MergeKindCount {
  readonly added: number;
  readonly changed: number;
}

export interface FullBackupMergeSummary {
  readonly kinds: { readonly [T in SyncedTable]: MergeKindCount };
  readonly billsAdded: number;
  readonly filesAdded: number;
  /** True when nothing at all would change. */
  readonly empty: boolean;
}

/** What Replace would take away: rows the backup lacks, and of those, made elsewhere since. */
export interface FullBackupReplaceLoss {
  readonly removed: number;
  /** Removed rows whose newest change came from another device after the backup was made. */
  readonly madeElsewhereSince: number;
}

/** The parts of a backup a merge reads, gathered from its chunks. */
interface BackupParts {
  readonly rows: { [T in SyncedTable]: LocalRows[T][] };
  readonly states: ReadonlyMap<string, SyncState>;
  readonly files: readonly DatasetFile[];
  readonly bills: readonly StoredBill[];
  /** Whether the backup holds dataset files at all (a copy of a whole device). */
  readonly holdsFiles: boolean;
}

const isSynced = (table: TableName): table is SyncedTable =>
  (syncedTables as readonly string[]).includes(table);

function gather(backup: OpenedFullBackup): BackupParts {
  const rows = Object.fromEntries(syncedTables.map((table) => [table, []])) as unknown as {
    [T in SyncedTable]: LocalRows[T][];
  };
  const states = new Map<string, SyncState>();
  const files: DatasetFile[] = [];
  const bills: StoredBill[] = [];
  for (const chunk of backup.chunks()) {
    if (isSynced(chunk.table)) {
      (rows[chunk.table] as unknown[]).push(...chunk.rows);
    } else if (chunk.table === 'syncState') {
      for (const state of chunk.rows as SyncState[]) states.set(state.id, state);
    } else if (chunk.table === 'datasetFiles') {
      files.push(...(chunk.rows as DatasetFile[]));
    } else if (chunk.table === 'bills') {
      bills.push(...(chunk.rows as StoredBill[]));
    }
  }
  const holdsFiles = backup.tables.some(({ table }) => table === 'datasetFiles');
  return { rows, states, files, bills, holdsFiles };
}

const keyOf = (table: SyncedTable, row: unknown): string =>
  String((row as Record<string, unknown>)[localTables[table].key]);

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));

/** One table's merge: the changes that move a state, and what they do to the rows. */
interface TablePlan {
  readonly table: SyncedTable;
  /** Changes carrying only the fields that win. */
  readonly changes: RowChange[];
  added: number;
  changed: number;
  /** Rows the merge adds (ids), for their files and bills. */
  readonly addedIds: string[];
}

async function planTable(
  tx: LocalReadTransaction,
  table: SyncedTable,
  parts: BackupParts,
  freshClock: () => string,
): Promise<TablePlan> {
  const plan: TablePlan = { table, changes: [], added: 0, changed: 0, addedIds: [] };
  const backupRows = parts.rows[table];
  if (backupRows.length === 0) return plan;
  const ids = backupRows.map((row) => keyOf(table, row));
  const [localRows, localStates] = await Promise.all([
    tx.getMany(table, ids),
    tx.getMany(
      'syncState',
      ids.map((id) => syncStateId(table, id)),
    ),
  ]);
  const seen = new Set<string>();
  backupRows.forEach((backupRow, index) => {
    const rowId = ids[index] ?? '';
    if (seen.has(rowId)) return;
    seen.add(rowId);
    const local = localRows[index];
    const state = localStates[index] ?? initialSyncState(table, rowId, local);
    const known = localStates[index] !== undefined || local !== undefined;
    const saved = parts.states.get(syncStateId(table, rowId));
    // A row the device never saw: fields of unknown clock take one clock now, so it is added
    // whole; on a row it knows they are older than anything (the device's values stay).
    const unknownClock = known ? ZERO_CLOCK : freshClock();
    const fields: Record<string, { value: unknown; hlc: string }> = {};
    for (const [name, value] of Object.entries(backupRow as Record<string, unknown>)) {
      if (name === localTables[table].key || !isSyncedField(table, name)) continue;
      if (table === 'datasets' && name === 'blobs' && parts.holdsFiles) continue;
      const hlc = saved?.fields[name]?.hlc;
      fields[name] = { value, hlc: hlc !== undefined && hlc !== '' ? hlc : unknownClock };
    }
    const change: RowChange = { id: freshClock(), table, rowId, op: 'put', fields };
    const next = mergeChange(state, change);
    if (next === null) return;
    const after = rowOfState(table, next, local);
    if (after === undefined || (local !== undefined && sameValue(after, local))) return;
    // Only what won travels: the fields whose state moved.
    const won: Record<string, { value: unknown; hlc: string }> = {};
    for (const [name, field] of Object.entries(fields)) {
      if (next.fields[name] !== state.fields[name] && field.hlc !== ZERO_CLOCK) won[name] = field;
    }
    if (Object.keys(won).length === 0) return;
    plan.changes.push({ ...change, fields: won });
    if (local === undefined) {
      plan.added++;
      plan.addedIds.push(rowId);
    } else plan.changed++;
  });
  return plan;
}

interface MergePlan {
  readonly tables: readonly TablePlan[];
  readonly files: readonly DatasetFile[];
  readonly bills: readonly StoredBill[];
  readonly summary: FullBackupMergeSummary;
}

async function makePlan(
  tx: LocalReadTransaction,
  parts: BackupParts,
  freshClock: () => string,
): Promise<MergePlan> {
  const tables: TablePlan[] = [];
  for (const table of syncedTables) tables.push(await planTable(tx, table, parts, freshClock));
  const addedDatasets = new Set(tables.find((plan) => plan.table === 'datasets')?.addedIds ?? []);
  const candidateFiles = parts.files.filter((file) => addedDatasets.has(file.datasetId));
  const presentFiles = await tx.getMany(
    'datasetFiles',
    candidateFiles.map((file) => file.id),
  );
  const files = candidateFiles.filter((_, index) => presentFiles[index] === undefined);
  const datasetsAfter = new Set([...(await tx.keys('datasets')), ...addedDatasets]);
  const presentBills = await tx.getMany(
    'bills',
    parts.bills.map((bill) => bill.id),
  );
  const bills = parts.bills
    .filter((_, index) => presentBills[index] === undefined)
    .map((bill) => ({
      ...bill,
      datasetIds: bill.datasetIds.filter((id) => datasetsAfter.has(id)),
    }));
  const kinds = Object.fromEntries(
    tables.map((plan) => [plan.table, { added: plan.added, changed: plan.changed }]),
  ) as { [T in SyncedTable]: MergeKindCount };
  const empty = bills.length === 0 && tables.every((plan) => plan.changes.length === 0);
  return {
    tables,
    files,
    bills,
    summary: { kinds, billsAdded: bills.length, filesAdded: files.length, empty },
  };
}

/** The tables a merge reads and writes. */
export const mergeTables = [
  ...MERGE_TABLES,
  'outbox',
  'settings',
  'bills',
  'datasetFiles',
] as const satisfies readonly TableName[];

/** What a merge would add and change, without changing anything. */
export async function planFullBackupMerge(
  store: LocalStore,
  backup: OpenedFullBackup,
): Promise<FullBackupMergeSummary> {
  const parts = gather(backup);
  // The clock of rows the device never saw does not change what is counted.
  const placeholder = encodeHlc({ millis: 0, counter: 0, deviceId: 'plan' });
  const plan = await store.read(mergeTables, (tx) => makePlan(tx, parts, () => placeholder));
  return plan.summary;
}

/**
 * Merges the backup into the device in one write transaction (planned again inside it, so what
 * it writes is what the store holds then), queueing what moved for the other devices.
 */
export async function mergeFullBackup(
  store: LocalStore,
  backup: OpenedFullBackup,
  options: { readonly deviceId: string; readonly nowMs: number },
): Promise<FullBackupMergeSummary> {
  const parts = gather(backup);
  return store.write(mergeTables, async (tx) => {
    let clock = await readDeviceClock(tx, options.deviceId);
    const freshClock = () => {
      clock = tick(clock, options.nowMs);
      return encodeHlc(clock);
    };
    const plan = await makePlan(tx, parts, freshClock);
    const changes = plan.tables.flatMap((table) => table.changes);
    if (changes.length > 0) {
      await mergeChanges(tx, changes);
      const createdAt = new Date(options.nowMs).toISOString();
      const entries: OutboxEntry[] = changes.map((change) => ({
        id: change.id,
        table: change.table,
        rowId: change.rowId,
        op: 'put',
        fields: change.fields,
        createdAt,
      }));
      await tx.putMany('outbox', entries);
    }
    if (plan.files.length > 0) await tx.putMany('datasetFiles', [...plan.files]);
    if (plan.bills.length > 0) await tx.putMany('bills', [...plan.bills]);
    await saveDeviceClock(tx, clock);
    return plan.summary;
  });
}

/** What Replace would remove: the device's synced rows the backup lacks. */
export async function planFullBackupReplaceLoss(
  store: LocalStore,
  backup: OpenedFullBackup,
  options: { readonly deviceId: string },
): Promise<FullBackupReplaceLoss> {
  const parts = gather(backup);
  const since = backup.createdAt === null ? null : Date.parse(backup.createdAt);
  return store.read(['syncState', ...syncedTables], async (tx) => {
    let removed = 0;
    let madeElsewhereSince = 0;
    for (const table of syncedTables) {
      const inBackup = new Set(parts.rows[table].map((row) => keyOf(table, row)));
      const gone = (await tx.keys(table)).filter((id) => !inBackup.has(id));
      removed += gone.length;
      const states = await tx.getMany(
        'syncState',
        gone.map((id) => syncStateId(table, id)),
      );
      for (const state of states) {
        if (state === undefined) continue;
        const newest = Object.values(state.fields)
          .map((field) => field.hlc)
          .filter((hlc) => hlc !== ZERO_CLOCK)
          .sort()
          .at(-1);
        if (newest === undefined) continue;
        const made = decodeHlc(newest);
        if (made.deviceId === options.deviceId) continue;
        if (since === null || Number.isNaN(since) || made.millis > since) madeElsewhereSince++;
      }
    }
    return { removed, madeElsewhereSince };
  });
}
