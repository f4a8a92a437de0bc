// The public face of full-backups/ for the other packages (README.md); inside core, files import each other directly.
export { checkPassphrase } from './full-backup-crypto.ts';
export {
  FullBackupError,
  fullBackupFileName,
  type FullBackupLockedAccount,
  type FullBackupManifest,
} from './full-backup-format.ts';
export {
  checkFullBackupRequest,
  type FullBackupJobContext,
  type FullBackupRequest,
  queueFullBackupJob,
  runFullBackupJob,
  runRestoreJob,
} from './full-backup-jobs.ts';
export { inspectFullBackup, openFullBackup } from './full-backup-reader.ts';
export { deleteFullBackup } from './full-backup-restore.ts';
export {
  type FullBackupMergeSummary,
  type FullBackupReplaceLoss,
  mergeFullBackup,
  type MergeKindCount,
  planFullBackupMerge,
  planFullBackupReplaceLoss,
} from './full-backup-merge.ts';
