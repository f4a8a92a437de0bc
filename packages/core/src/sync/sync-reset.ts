import { encodeHlc, tick } from '../merge/hybrid-logical-clock.ts';
import {
  syncedTables,
  type OutboxEntry,
  type Setting,
  type StoredBill,
} from '../store/local-records.ts';
import type { LocalWriteTransaction, TableName } from '../store/local-store.ts';
import type { LocalStore } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { readDeviceClock, saveDeviceClock } from '../merge/outbox-changes.ts';
import { syncCursorSetting } from './sync-cursor.ts';
import { isSyncedField } from '../merge/sync-merge.ts';
import type { FullBackupSummary } from '../full-backups/full-backup-format.ts';
import { saveUserDataCopy, userDataCopyTables } from '../full-backups/user-data-copy.ts';

// A cloud password reset (PRODUCT.md, Sync), the two halves that touch the device's data:
//
// - On the device that resets: its data becomes the truth of the new key epoch. Every row it
//   holds goes into the outbox afresh (the old outbox is folded in: its changes are in the
//   rows already), and the cursor moves to the start of the new epoch; the next sync pushes it.
// - On every other device, once it has the new password: its own state is first saved as a
//   local full backup (the user-made tables, the sync state and the unsynced outbox), then
//   those tables are emptied and the cursor moved to the start of the new epoch; the next sync
//   pulls the reset device's data. Nothing is lost that the user cannot get back: the backup is
//   in the full-backups list, and the revert says which one.
//
// A device reverts only if it synced under an older epoch. A device that never synced keeps
// its work and pushes it like any other change.

const resetTables = [
  ...syncedTables,
  'syncState',
  'outbox',
  'settings',
] as const satisfies readonly TableName[];

/** Makes this device's data the truth of `epoch`: call after the settings took the new key. */
export async function prepareResetUpload(
  store: LocalStore,
  options: {
    userId: string;
    deviceId: string;
    epoch: number;
    epochStartSeqno: number;
    nowMs: number;
  },
): Promise<{ rows: number }> {
  const createdAt = new Date(options.nowMs).toISOString();
  return store.write(resetTables, async (tx) => {
    let clock = await readDeviceClock(tx, options.deviceId);
    const entries: OutboxEntry[] = [];
    for (const table of syncedTables) {
      const rows = await tx.all(table);
      const states = await tx.getMany(
        'syncState',
        rows.map((row) => `${table}|${keyOf(table, row)}`),
      );
      rows.forEach((row, index) => {
        clock = tick(clock, options.nowMs);
        const hlc = encodeHlc(clock);
        const state = states[index];
        const rowId = keyOf(table, row);
        const fields: Record<string, { value: unknown; hlc: string }> = {};
        for (const [name, value] of Object.entries(row as Record<string, unknown>)) {
          if (name === keyName(table) || !isSyncedField(table, name)) continue;
          // The field's own clock where sync knows it, so merges on the way keep their meaning;
          // a row from before sync gets this reset's clock.
          const known = state?.fields[name]?.hlc;
          fields[name] = { value, hlc: known !== undefined && known !== '' ? known : hlc };
        }
        entries.push({ id: hlc, table, rowId, op: 'put', fields, createdAt });
      });
    }
    await tx.deleteMany('outbox', await tx.keys('outbox'));
    if (entries.length > 0) await tx.putMany('outbox', entries);
    await saveDeviceClock(tx, clock);
    await writeCursor(tx, options);
    await tx.put('settings', { key: resetMadeSetting(options.userId), value: options.epoch });
    return { rows: entries.length };
  });
}

function keyName(table: (typeof syncedTables)[number]): string {
  return localTables[table].key;
}

function keyOf(table: (typeof syncedTables)[number], row: object): string {
  const key = (row as Record<string, unknown>)[keyName(table)];
  if (typeof key !== 'string') throw new Error(`${table}: a row without its key`);
  return key;
}

/**
 * The settings row naming the key epoch this device made by a reset, per user (never synced).
 * Written in the transaction that makes its data the epoch's truth: the device whose data the
 * epoch is must never revert to it, whatever its cursor says.
 */
export function resetMadeSetting(userId: string): string {
  return `device:reset-made:${userId}`;
}

/** Why a device must (or need not) revert, as the trace records it. */
export interface RevertCheck {
  readonly revert: boolean;
  /** The epoch of this device's pull cursor, null when it never synced. */
  readonly cursorEpoch: number | null;
  /** The epoch this device made by a reset, null when it made none. */
  readonly madeEpoch: number | null;
}

/**
 * Whether this device must revert: it synced under an older epoch than its keys', and it is not
 * the device that made that epoch by a reset.
 */
export async function checkRevert(
  store: LocalStore,
  userId: string,
  keyEpoch: number,
): Promise<RevertCheck> {
  const [cursor, made] = await store.read(['settings'], (tx) =>
    tx.getMany('settings', [syncCursorSetting(userId), resetMadeSetting(userId)]),
  );
  const epoch = (cursor?.value as { epoch?: unknown } | undefined)?.epoch;
  const cursorEpoch = typeof epoch === 'number' ? epoch : null;
  const madeEpoch = typeof made?.value === 'number' ? made.value : null;
  const revert = cursorEpoch !== null && cursorEpoch < keyEpoch && madeEpoch !== keyEpoch;
  return { revert, cursorEpoch, madeEpoch };
}

/** Whether this device must revert (checkRevert's answer alone). */
export async function needsRevert(
  store: LocalStore,
  userId: string,
  keyEpoch: number,
): Promise<boolean> {
  return (await checkRevert(store, userId, keyEpoch)).revert;
}

/** Where a device starts again in a new epoch, and the id of the backup saved of its work. */
export interface NewEpochStart {
  userId: string;
  epoch: number;
  epochStartSeqno: number;
  nowMs: number;
  backupId: string;
}

/**
 * Saves this device's user-made data as a full backup, then empties it and points the cursor at
 * the start of the new epoch, all in one transaction. Returns the backup's index row.
 */
export async function revertToNewEpoch(
  store: LocalStore,
  options: NewEpochStart & {
    /** Why the device's data is saved and cleared; a cloud-password reset unless said. */
    reason?: { code: string; name: string };
    /** Settings written with the clearing, in its transaction (the device's new owner). */
    settings?: readonly Setting[];
  },
): Promise<FullBackupSummary> {
  const createdAt = new Date(options.nowMs).toISOString();
  const when = `${createdAt.slice(0, 16).replace('T', ' ')} UTC`;
  const reason = options.reason ?? {
    code: 'cloud-password-reset',
    name: 'Before the cloud password reset',
  };
  return store.write([...resetTables, 'fullBackups', 'bills'], async (tx) => {
    const { summary, tables: contents } = await saveUserDataCopy(tx, {
      id: options.backupId,
      name: `${reason.name}, ${when}`,
      createdAt,
      reason: reason.code,
    });
    for (const table of userDataCopyTables) await tx.deleteMany(table, await tx.keys(table));
    await letGoOfDatasetBills(
      tx,
      (contents.datasets ?? []).flatMap((row) => {
        const id = (row as { id?: unknown }).id;
        return typeof id === 'string' ? [id] : [];
      }),
    );
    await writeCursor(tx, options);
    if (options.settings !== undefined) await tx.putMany('settings', options.settings);
    return summary;
  });
}

/**
 * The cleared datasets let go of their bills, as a re-import that no longer lists a bill does: a
 * bill no remaining dataset provides goes, so the deck does not show bills of datasets that are
 * no longer here (another account's, or the ones the reset device dropped). They come back when
 * the new epoch's datasets are imported, and restoring the full backup brings the definitions
 * back to import again. Bills no dataset ever provided (brought by a backup or an import of the
 * user's data) are kept: the backup saved just now does not hold them.
 */
async function letGoOfDatasetBills(
  tx: LocalWriteTransaction,
  clearedDatasetIds: readonly string[],
): Promise<void> {
  const cleared = new Set(clearedDatasetIds);
  for (const datasetId of cleared) {
    const bills = await tx.where('bills', 'datasetIds', datasetId);
    const keep: StoredBill[] = [];
    const drop: string[] = [];
    for (const bill of bills) {
      const datasetIds = bill.datasetIds.filter((id) => !cleared.has(id));
      if (datasetIds.length === 0) drop.push(bill.id);
      else keep.push({ ...bill, datasetIds });
    }
    if (keep.length > 0) await tx.putMany('bills', keep);
    if (drop.length > 0) await tx.deleteMany('bills', drop);
  }
}

async function writeCursor(
  tx: LocalWriteTransaction,
  options: { userId: string; epoch: number; epochStartSeqno: number },
): Promise<void> {
  await tx.put('settings', {
    key: syncCursorSetting(options.userId),
    value: { epoch: options.epoch, seqno: options.epochStartSeqno },
  });
}
