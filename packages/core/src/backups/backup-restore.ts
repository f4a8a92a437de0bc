import {
  backupKinds,
  keyOfRow,
  type BackupContents,
  type BackupKind,
  type BackupRows,
} from './backup-contents.ts';
import { canonicalJson } from '../bills/canonical-hash.ts';
import type { FullBackupSummary } from '../full-backups/full-backup-format.ts';
import { saveUserDataCopy } from '../full-backups/user-data-copy.ts';
import type { StoredBill } from '../store/local-records.ts';
import type {
  LocalReadTransaction,
  LocalRows,
  LocalStore,
  LocalWriteTransaction,
  TableName,
} from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { OutboxWriter, outboxTables, type OutboxPut } from '../merge/outbox-changes.ts';
import { isSyncedField, syncStateId, ZERO_CLOCK } from '../merge/sync-merge.ts';

// Restoring a backup into the device's store, in two modes, always after showing what will
// change (`planRestore` in a read transaction for the screen; `applyRestore` plans again inside
// its write transaction, so what it writes is what the store holds at that moment).
//
// - Replace: afterwards the user's work is the backup's. Rows the backup lacks are removed,
//   rows it has are written as it has them. Dataset definitions are the exception: a dataset
//   the backup lacks is kept (removing a source of bills, with its files and bills, is done on
//   the datasets screen, where the user sees what goes with it); the backup's datasets are
//   added or updated.
// - Merge: nothing is removed. A row only the backup has is added back — even one deleted on
//   this device after the backup was made: bringing back what was deleted is what a restore
//   is for. A row both have keeps, field by field, the value with the newer clock: the backup
//   carries the clocks sync knew when it was made, the device has its sync states
//   (sync-merge.ts). Where neither side knows a clock for a field (rows from before sync), the
//   device's value stays. A tag the backup adds under a name the device already uses for
//   another tag is not added twice: its bills are tagged with the device's tag of that name.
//
// Either way every change to a synced table goes through OutboxWriter in one transaction, so
// the restore syncs to the user's other devices like any edit; bills the backup holds and the
// device lacks are written to `bills`, keeping only the dataset ids that exist after the
// restore. Before anything changes, the same transaction saves the device's own work as a local
// full backup (the shape sync-reset.ts's revert uses), so a restore can be undone.

export type RestoreMode = 'replace' | 'merge';

export interface KindChange {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
}

export interface RestorePlanSummary {
  readonly mode: RestoreMode;
  readonly kinds: { readonly [K in BackupKind]: KindChange };
  /** Bills the backup holds that this device lacks. */
  readonly billsAdded: number;
  /** True when nothing at all would change. */
  readonly empty: boolean;
}

interface KindPlan<K extends BackupKind> {
  puts: OutboxPut<K>[];
  deletes: string[];
  added: number;
  changed: number;
}

type StoreRow<K extends BackupKind> = LocalRows[K];

interface RestorePlan {
  summary: RestorePlanSummary;
  kinds: { [K in BackupKind]: KindPlan<K> };
  bills: StoredBill[];
}

export const restoreTables = [
  'bills',
  ...backupKinds,
  ...outboxTables,
  'fullBackups',
  // Not in a backup, but in the safety copy of every synced table made before the restore.
  'seenMarks',
  'apiKeys',
  'billHistory',
] as const satisfies readonly TableName[];

const differs = (a: unknown, b: unknown): boolean =>
  a !== b && (a === undefined || b === undefined || canonicalJson(a) !== canonicalJson(b));

/** Name comparison as the tag commands make it. */
const tagNameKey = (name: string) => name.normalize('NFC').toLowerCase();

/** What a restore would change, without changing anything. */
export async function planRestore(
  store: LocalStore,
  contents: BackupContents,
  mode: RestoreMode,
): Promise<RestorePlanSummary> {
  const plan = await store.read(restoreTables, (tx) => makePlan(tx, contents, mode));
  return plan.summary;
}

async function makePlan(
  tx: LocalReadTransaction,
  contents: BackupContents,
  mode: RestoreMode,
): Promise<RestorePlan> {
  // Tags first: Merge may point the backup's bill tags at the device's tags of the same name.
  const tagIdFor = new Map<string, string>();
  if (mode === 'merge') {
    const localTags = await tx.all('tags');
    const localIds = new Set(localTags.map((tag) => tag.id));
    const byName = new Map(localTags.map((tag) => [tagNameKey(tag.name), tag.id]));
    for (const tag of contents.tags) {
      if (localIds.has(tag.id)) continue;
      const same = byName.get(tagNameKey(tag.name));
      if (same !== undefined) tagIdFor.set(tag.id, same);
    }
  }
  const backupTags = contents.tags.filter((tag) => !tagIdFor.has(tag.id));
  const backupBillTags = contents.billTags.map((row) => {
    const tagId = tagIdFor.get(row.tagId);
    return tagId === undefined ? row : { ...row, id: `${row.billId}|${tagId}`, tagId };
  });

  const datasetIdsAfter = new Set([
    ...(await tx.keys('datasets')),
    ...contents.datasets.map((dataset) => dataset.id),
  ]);

  const kinds = {
    datasets: await planKind(tx, 'datasets', contents.datasets, contents, mode, (row, old) =>
      old === undefined
        ? {
            ...row,
            format: null,
            billCount: 0,
            lastImportAt: null,
            lastJobId: null,
            state: 'new' as const,
            // This device imports the bills itself once it has the files (as sync does).
            needsImport: true,
          }
        : { ...old, ...row },
    ),
    tags: await planKind(tx, 'tags', backupTags, contents, mode, (row, old) => ({
      ...old,
      ...row,
    })),
    billTags: await planKind(tx, 'billTags', dedupe(backupBillTags), contents, mode, (row) => row),
    positions: await planKind(tx, 'positions', contents.positions, contents, mode, (row) => row),
    decisions: await planKind(tx, 'decisions', contents.decisions, contents, mode, (row) => row),
    annotations: await planKind(tx, 'annotations', contents.annotations, contents, mode, (row) => ({
      ...row,
    })),
  } satisfies { [K in BackupKind]: KindPlan<K> };

  const billIds = contents.bills.map((bill) => bill.id);
  const present = await tx.getMany('bills', billIds);
  const bills = contents.bills
    .filter((_, index) => present[index] === undefined)
    .map((bill) => ({
      ...bill,
      datasetIds: bill.datasetIds.filter((id) => datasetIdsAfter.has(id)),
    }));

  const summaryKinds = {} as { [K in BackupKind]: KindChange };
  let empty = bills.length === 0;
  for (const kind of backupKinds) {
    const plan = kinds[kind] as KindPlan<BackupKind>;
    summaryKinds[kind] = { added: plan.added, changed: plan.changed, removed: plan.deletes.length };
    if (plan.puts.length > 0 || plan.deletes.length > 0) empty = false;
  }
  return { summary: { mode, kinds: summaryKinds, billsAdded: bills.length, empty }, kinds, bills };
}

function dedupe<T extends { id: string }>(rows: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const row of rows) if (!seen.has(row.id)) seen.set(row.id, row);
  return [...seen.values()];
}

async function planKind<K extends BackupKind>(
  tx: LocalReadTransaction,
  kind: K,
  backupRows: readonly BackupRows[K][],
  contents: BackupContents,
  mode: RestoreMode,
  toStoreRow: (row: BackupRows[K], old: StoreRow<K> | undefined) => StoreRow<K>,
): Promise<KindPlan<K>> {
  const ids = backupRows.map((row) => keyOfRow(kind, row));
  const [localRows, states] = await Promise.all([
    tx.getMany(kind, ids),
    tx.getMany(
      'syncState',
      ids.map((id) => syncStateId(kind, id)),
    ),
  ]);
  const key = localTables[kind].key;
  const plan: KindPlan<K> = { puts: [], deletes: [], added: 0, changed: 0 };
  backupRows.forEach((row, index) => {
    const id = ids[index] ?? '';
    const old = localRows[index] as StoreRow<K> | undefined;
    if (old === undefined) {
      plan.puts.push({ row: toStoreRow(row, undefined) });
      plan.added++;
      return;
    }
    const backupClocks = contents.clocks[syncStateId(kind, id)] ?? {};
    const localFields = states[index]?.fields ?? {};
    const changed: string[] = [];
    const values = row as Record<string, unknown>;
    const oldValues = old as Record<string, unknown>;
    for (const name of Object.keys(values)) {
      if (name === key || !isSyncedField(kind, name)) continue;
      if (!differs(values[name], oldValues[name])) continue;
      if (mode === 'merge') {
        const theirs = backupClocks[name] ?? ZERO_CLOCK;
        const ours = localFields[name]?.hlc ?? ZERO_CLOCK;
        if (theirs <= ours) continue;
      }
      changed.push(name);
    }
    if (changed.length === 0) return;
    const merged: Record<string, unknown> = { ...oldValues };
    for (const name of changed) merged[name] = values[name];
    plan.puts.push({
      row: toStoreRow(merged as BackupRows[K], old),
      changed: changed as Extract<keyof StoreRow<K>, string>[],
    });
    plan.changed++;
  });
  if (mode === 'replace' && kind !== 'datasets') {
    const keep = new Set(ids);
    plan.deletes = (await tx.keys(kind)).filter((id) => !keep.has(id));
  }
  return plan;
}

export interface ApplyRestoreOptions {
  readonly deviceId: string;
  readonly nowMs: number;
  /** Id of the safety copy saved first (a full backup of this device's own work). */
  readonly safetyCopyId: string;
  /** What the backup is called, for the safety copy's name. */
  readonly backupName: string;
}

export interface RestoreResult {
  readonly summary: RestorePlanSummary;
  readonly safetyCopy: FullBackupSummary;
}

/**
 * Saves the safety copy, then applies the restore, in one write transaction: either all of it
 * happens or none. Contents must come from `parseBackupContents` (or the open functions).
 */
export async function applyRestore(
  store: LocalStore,
  contents: BackupContents,
  mode: RestoreMode,
  options: ApplyRestoreOptions,
): Promise<RestoreResult> {
  const createdAt = new Date(options.nowMs).toISOString();
  return store.write(restoreTables, async (tx) => {
    const safetyCopy = await saveSafetyCopy(tx, options, createdAt);
    const plan = await makePlan(tx, contents, mode);
    if (plan.bills.length > 0) await tx.putMany('bills', plan.bills);
    const out = await OutboxWriter.open(tx, options.deviceId, options.nowMs);
    // Removals of dependants before their parents; puts of parents before dependants.
    for (const kind of [...backupKinds].reverse()) {
      await out.deleteMany(kind, plan.kinds[kind].deletes);
    }
    await out.putMany('datasets', plan.kinds.datasets.puts);
    await out.putMany('tags', plan.kinds.tags.puts);
    await out.putMany('billTags', plan.kinds.billTags.puts);
    await out.putMany('positions', plan.kinds.positions.puts);
    await out.putMany('decisions', plan.kinds.decisions.puts);
    await out.putMany('annotations', plan.kinds.annotations.puts);
    await out.close();
    return { summary: plan.summary, safetyCopy };
  });
}

async function saveSafetyCopy(
  tx: LocalWriteTransaction,
  options: ApplyRestoreOptions,
  createdAt: string,
): Promise<FullBackupSummary> {
  const name = `Before restoring “${options.backupName.slice(0, 120)}”, ${createdAt
    .slice(0, 16)
    .replace('T', ' ')} UTC`;
  const { summary } = await saveUserDataCopy(tx, {
    id: options.safetyCopyId,
    name: name.slice(0, 200),
    createdAt,
    reason: 'before-restore',
  });
  return summary;
}
