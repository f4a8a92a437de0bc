import type { FullBackup, Job } from '@docket/core/store';
import { useLiveQuery } from 'dexie-react-hooks';
import { liveDatabase } from '../jobs/live-tables.ts';

// Live reads of the device's full backups, without their bytes: a backup can be hundreds of
// megabytes, so the list reads them one row at a time and keeps only what it shows.

export type FullBackupEntry = Omit<FullBackup, 'bytes'>;

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
  return useLiveQuery(async () => {
    const entries: FullBackupEntry[] = [];
    await liveDatabase()
      .table<FullBackup, string>('fullBackups')
      .orderBy('createdAt')
      .reverse()
      .each((row) => {
        entries.push(entryOf(row));
      });
    return entries;
  }, []);
}

/** One full backup: undefined while loading, null when there is none with that id. */
export function useFullBackupEntry(id: string | undefined): FullBackupEntry | null | undefined {
  return useLiveQuery(async () => {
    if (id === undefined) return null;
    const row = await liveDatabase().table<FullBackup, string>('fullBackups').get(id);
    return row === undefined ? null : entryOf(row);
  }, [id]);
}

/** One job, as it moves along: undefined while loading or when there is none. */
export function useJob(jobId: string | null): Job | undefined {
  return useLiveQuery(
    async () =>
      jobId === null ? undefined : await liveDatabase().table<Job, string>('jobs').get(jobId),
    [jobId],
  );
}
