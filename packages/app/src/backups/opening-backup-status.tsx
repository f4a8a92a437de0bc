import type { OpenedBackupState } from './use-opened-backup.ts';

/** What a screen shows while its backup is downloaded and decrypted, or why it could not be. */
export function OpeningBackupStatus({
  opened,
}: {
  readonly opened: Exclude<OpenedBackupState, { status: 'open' }>;
}) {
  return opened.status === 'loading' ? (
    <p role="status">Opening the backup…</p>
  ) : (
    <p className="backup-error" role="alert">
      {opened.message}
    </p>
  );
}
