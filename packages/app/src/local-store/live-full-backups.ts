import { SEALED_BYTES_FIELD, type FullBackup } from '@docket/core/store';
import { openStoredRows } from './indexeddb-local-store.ts';
import { liveDatabase, useLiveRead } from './live-database.ts';

// Live reads of the device's full backups, without their bytes: a backup can be hundreds of
// megabytes, so the list reads them one row at a time through Dexie's cursor (core's store
// interface reads a table whole) and keeps only what it shows.

export type FullBackupEntry = Omit<FullBackup, 'bytes'>;

/** The row as stored, less its file, in clear or sealed. */
function withoutBytes(row: FullBackup): FullBackup {
  return Object.fromEntries(
    Object.entries(row).filter(([field]) => field !== 'bytes' && field !== SEALED_BYTES_FIELD),
  ) as FullBackup;
}

function entryOf(row: FullBackup): FullBackupEntry {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt,
    encrypted: row.encrypted,
    size: row.size,
  };
}

/** Every full backup, newest first; undefined while loading. */
export function useFullBackupList(): FullBackupEntry[] | undefined {
  return useLiveRead(async () => {
    const rows: FullBackup[] = [];
    await liveDatabase()
      .table<FullBackup, string>('fullBackups')
      .orderBy('createdAt')
      .reverse()
      .each((row) => {
        rows.push(withoutBytes(row));
      });
    // Their names are sealed on an account's device (core's sealed-rows.ts); opened after the walk.
    return (await openStoredRows(liveDatabase(), 'fullBackups', rows, { bytes: false })).map(
      entryOf,
    );
  }, []);
}

/** One full backup: undefined while loading, null when there is none with that id. */
export function useFullBackupEntry(id: string | undefined): FullBackupEntry | null | undefined {
  return useLiveRead(
    async (store) => {
      if (id === undefined) return null;
      const row = await store.read(['fullBackups'], (tx) => tx.get('fullBackups', id));
      return row === undefined ? null : entryOf(row);
    },
    [id],
  );
}
