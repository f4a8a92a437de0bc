import { fullBackupFileName } from '@docket/core/full-backup-format';
import { pageLocalStore } from '../bills/bill-command-services.ts';

/** Saves a stored full backup as a file (docket-full-backup-YYYY-MM-DD.docket-backup). */
export async function downloadFullBackup(id: string): Promise<void> {
  const store = await pageLocalStore();
  const row = await store.read(['fullBackups'], (tx) => tx.get('fullBackups', id));
  if (row === undefined) throw new Error('This full backup is no longer on this device.');
  const url = URL.createObjectURL(
    new Blob([new Uint8Array(row.bytes)], { type: 'application/octet-stream' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fullBackupFileName(row.createdAt);
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the URL is only needed until then.
  window.setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 60_000);
}
