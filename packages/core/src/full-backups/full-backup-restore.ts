import { DEVICE_SETTING_PREFIX, fullBackupTables } from './full-backup-format.ts';
import type { OpenedFullBackup } from './full-backup-reader.ts';
import { syncedTables, type Dataset, type Job, type SyncedTable } from '../store/local-records.ts';
import type {
  LocalRows,
  LocalStore,
  LocalWriteTransaction,
  TableName,
} from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { OutboxWriter, outboxTables, type OutboxPut } from '../merge/outbox-changes.ts';

// Restores an opened full backup (full-backup-reader.ts): the local data becomes the backup's,
// in one write transaction, so a failure half-way leaves everything as it was.
//
// - Tables the backup holds are replaced: rows it does not have are deleted, its rows put.
//   A version 1 file holds only the user-made tables; the others are left alone.
// - The synced tables go through OutboxWriter, like any command: a row that differs from this
//   device's is put with a fresh clock, a row the backup lacks is deleted, each with its outbox
//   entry and sync state. When signed in, the restore then syncs to the other devices like any
//   other change; a row that is already the same is not touched, so it costs nothing to sync.
// - The outbox and the sync state are this device's record of what it told the server and
//   what the server told it; they stay, and the restore's own changes join them. The backup's
//   pending changes are in its rows already.
// - Settings under `device:` (this device's id, its clock, its sync cursor and keys) stay as
//   they are on this device, whatever the backup had.
// - The trace keeps this device's entries; the backup's entries join them (same id: this
//   device's stays).
// - Jobs from the backup that were queued or running when it was made are interrupted (their
//   worker is gone). This device's full-backup and restore jobs stay, like its full backups
//   (which are never in a backup), and so do the jobs in `keepJobIds`.

export interface RestoreOptions {
  readonly deviceId: string;
  readonly nowMs: number;
  /** This device's jobs to keep: the restore job and the automatic backup's job. */
  readonly keepJobIds: readonly string[];
}

export interface RestoreSummary {
  /** Rows put (added or changed), per table. */
  readonly written: number;
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
  readonly tables: readonly TableName[];
}

const CUT_OFF = 'Cut off: this job was still going when the full backup was made.';

/** Tables a restore never writes directly (see above). */
const bookkeeping: readonly TableName[] = ['outbox', 'syncState', 'fullBackups'];

function isSynced(table: TableName): table is SyncedTable {
  return (syncedTables as readonly string[]).includes(table);
}

function keyOf(table: TableName, row: unknown): string {
  return String((row as Record<string, unknown>)[localTables[table].key]);
}

/** Same rows compare equal whatever the order of their fields. */
function sameRow(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((byte, index) => byte === b[index]);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  const otherKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  if (keys.length !== otherKeys.length) return false;
  return keys.every((key) => sameRow(left[key], right[key]));
}

/** Whether a current row stays whatever the backup says. */
function kept(table: TableName, row: unknown, keepJobs: ReadonlySet<string>): boolean {
  const key = keyOf(table, row);
  if (table === 'settings') return key.startsWith(DEVICE_SETTING_PREFIX);
  // The trace is this device's record of what happened on it, the restore included: its
  // entries stay, and the backup's are added beside them (entries are never rewritten).
  if (table === 'trace') return true;
  if (table === 'jobs') {
    // This device's full backups stay (they are not in a backup), and so does their history.
    const kind = (row as Partial<Job>).kind;
    return keepJobs.has(key) || kind === 'full-backup' || kind === 'full-backup-restore';
  }
  return false;
}

/** A backup's row as it is restored here, or null when it is not restored. */
function adapt(table: TableName, row: unknown, keptKeys: ReadonlySet<string>): unknown {
  const key = keyOf(table, row);
  if (keptKeys.has(key) || (table === 'settings' && key.startsWith(DEVICE_SETTING_PREFIX))) {
    return null;
  }
  if (table === 'jobs') {
    const job = row as Job;
    if (job.status === 'queued' || job.status === 'running') {
      return { ...job, status: 'interrupted', message: CUT_OFF } satisfies Job;
    }
  }
  if (table === 'datasets') {
    // Where the files were on the server is the backed-up account's: the file may be restored
    // under another account, whose server has none of them. Without `blobs` the next sync uploads
    // the files again (the backup holds them) under the account this device syncs with.
    const dataset: Dataset = { ...(row as Dataset) };
    delete dataset.blobs;
    if (dataset.state === 'importing') {
      return {
        ...dataset,
        state: dataset.lastImportAt === null ? 'new' : 'ready',
      } satisfies Dataset;
    }
    return dataset;
  }
  return row;
}

export async function restoreFullBackup(
  store: LocalStore,
  backup: OpenedFullBackup,
  options: RestoreOptions,
): Promise<RestoreSummary> {
  const keepJobs = new Set(options.keepJobIds);
  const present = backup.tables
    .map(({ table }) => table)
    .filter((table) => !bookkeeping.includes(table));
  const scope = [
    ...new Set<TableName>([
      ...fullBackupTables.filter((t) => t !== 'fullBackups'),
      ...outboxTables,
    ]),
  ];
  return store.write(scope, async (tx) => {
    const out = await OutboxWriter.open(tx, options.deviceId, options.nowMs);
    const counts: RestoreCounts = { written: 0, added: 0, updated: 0, unchanged: 0, removed: 0 };
    // Per table being restored: the current rows (synced tables, to compare) or keys.
    let current: CurrentTable | null = null;
    for (const chunk of backup.chunks()) {
      if (!present.includes(chunk.table)) continue;
      if (current?.table !== chunk.table) {
        if (current !== null) await removeUnseen(tx, out, current, counts);
        current = await readCurrent(tx, chunk.table, keepJobs);
      }
      await putRestored(tx, out, current, chunk.rows, counts);
    }
    if (current !== null) await removeUnseen(tx, out, current, counts);
    // Tables the backup holds with no rows: emptied all the same.
    const restored = new Set<TableName>();
    for (const chunk of backup.tables) if (chunk.rows > 0) restored.add(chunk.table);
    for (const table of present) {
      if (restored.has(table)) continue;
      await removeUnseen(tx, out, await readCurrent(tx, table, keepJobs), counts);
    }
    await out.close();
    return { ...counts, tables: present };
  });
}

/** A restore's counts as it goes (RestoreSummary's, but for the tables). */
interface RestoreCounts {
  written: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
}

/** A table being restored: what it held before, and the backup's keys put so far. */
interface CurrentTable {
  readonly table: TableName;
  readonly rows: Map<string, unknown>;
  readonly keptKeys: Set<string>;
  readonly seen: Set<string>;
}

/** The table's current rows (synced tables and jobs, to compare or look at) or keys. */
async function readCurrent(
  tx: LocalWriteTransaction,
  table: TableName,
  keepJobs: ReadonlySet<string>,
): Promise<CurrentTable> {
  const rows = new Map<string, unknown>();
  const keptKeys = new Set<string>();
  // Whole rows where they are compared or looked at (synced tables, jobs); keys elsewhere,
  // so that bills and dataset files are not read only to be replaced.
  if (isSynced(table) || table === 'jobs') {
    for (const row of await tx.all(table)) {
      const key = keyOf(table, row);
      rows.set(key, row);
      if (kept(table, row, keepJobs)) keptKeys.add(key);
    }
  } else {
    for (const key of await tx.keys(table)) {
      rows.set(key, undefined);
      if (kept(table, { [localTables[table].key]: key }, keepJobs)) keptKeys.add(key);
    }
  }
  return { table, rows, keptKeys, seen: new Set() };
}

/** Deletes the table's rows the backup did not have, but for those that stay here. */
async function removeUnseen(
  tx: LocalWriteTransaction,
  out: OutboxWriter,
  current: CurrentTable,
  counts: RestoreCounts,
): Promise<void> {
  const { table, rows, keptKeys, seen } = current;
  const gone = [...rows.keys()].filter((key) => !seen.has(key) && !keptKeys.has(key));
  counts.removed += gone.length;
  if (isSynced(table)) await out.deleteMany(table, gone);
  else await tx.deleteMany(table, gone);
}

/** Puts a chunk of the backup's rows, as restored here, but for a synced row that is the same. */
async function putRestored(
  tx: LocalWriteTransaction,
  out: OutboxWriter,
  state: CurrentTable,
  given: readonly unknown[],
  counts: RestoreCounts,
): Promise<void> {
  const table = state.table;
  const rows: unknown[] = [];
  for (const original of given) {
    const row = adapt(table, original, state.keptKeys);
    if (row === null) continue;
    const key = keyOf(table, row);
    if (state.seen.has(key)) continue;
    state.seen.add(key);
    const existing = state.rows.get(key);
    const known = state.rows.has(key);
    if (isSynced(table) && known && sameRow(existing, row)) {
      counts.unchanged++;
      continue;
    }
    if (known) counts.updated++;
    else counts.added++;
    rows.push(row);
  }
  counts.written += rows.length;
  if (rows.length === 0) return;
  if (isSynced(table)) {
    await out.putMany(
      table,
      rows.map((row) => ({ row }) as OutboxPut<typeof table>),
    );
  } else {
    await tx.putMany(table, rows as LocalRows[typeof table][]);
  }
}

/** Jobs that keep a restore from starting: something else is writing the store. */
export async function busyJobs(store: LocalStore, ownJobIds: readonly string[]): Promise<Job[]> {
  return store.read(['jobs'], async (tx) =>
    [
      ...(await tx.where('jobs', 'status', 'running')),
      ...(await tx.where('jobs', 'status', 'queued')),
    ].filter((job) => !ownJobIds.includes(job.id)),
  );
}

/** Deletes a stored full backup. */
export async function deleteFullBackup(store: LocalStore, id: string): Promise<void> {
  await store.write(['fullBackups'], async (tx: LocalWriteTransaction) => {
    await tx.delete('fullBackups', id);
  });
}
