import { gzipSync } from 'fflate';
import {
  FULL_BACKUP_FORMAT,
  fullBackupSummary,
  type FullBackupSummary,
} from './full-backup-format.ts';
import { syncedTables, type FullBackup } from '../store/local-records.ts';
import type { LocalWriteTransaction } from '../store/local-store.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

// The version 1 full backup (full-backup-format.ts) that a device saves of the user's own work
// before something replaces it: a cloud-password reset reverting the device (sync-reset.ts), an
// account switch (sync-owner.ts), a backup's restore (backup-restore.ts). It is made in the
// transaction that then changes the tables, so it holds exactly what was replaced.

/** What a version 1 full backup holds: the user-made tables, the sync state and the outbox. */
export const userDataCopyTables = [...syncedTables, 'syncState', 'outbox'] as const;

/**
 * Saves the copy as a full backup in `tx`. Answers the backup's list row, and the rows it holds
 * by table, for a caller that goes on to clear them.
 */
export async function saveUserDataCopy(
  tx: LocalWriteTransaction,
  copy: { id: string; name: string; createdAt: string; reason: string },
): Promise<{ summary: FullBackupSummary; tables: Record<string, unknown[]> }> {
  const tables: Record<string, unknown[]> = {};
  for (const table of userDataCopyTables) tables[table] = await tx.all(table);
  const bytes = gzipSync(
    encodeUtf8(
      JSON.stringify({
        format: FULL_BACKUP_FORMAT,
        version: 1,
        createdAt: copy.createdAt,
        reason: copy.reason,
        scope: 'user-data',
        tables,
      }),
    ),
  );
  const backup: FullBackup = {
    id: copy.id,
    name: copy.name,
    createdAt: copy.createdAt,
    encrypted: false,
    size: bytes.length,
    bytes,
  };
  await tx.put('fullBackups', backup);
  return { summary: fullBackupSummary(backup), tables };
}
