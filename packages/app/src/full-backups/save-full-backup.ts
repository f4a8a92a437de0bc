import { fullBackupFileName } from '@docket/core/full-backups';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import type { Platform } from '../platform/platform.ts';

/**
 * Hands a stored full backup to the user as a file (docket-full-backup-YYYY-MM-DD.docket-backup):
 * a download on the web, the share sheet on native.
 */
export async function saveFullBackup(platform: Platform, id: string): Promise<void> {
  const store = await pageLocalStore();
  const row = await store.read(['fullBackups'], (tx) => tx.get('fullBackups', id));
  if (row === undefined) throw new Error('This full backup is no longer on this device.');
  await platform.saveFile(fullBackupFileName(row.createdAt), row.bytes, 'application/octet-stream');
}
