// The public face of backups/ for the other packages (README.md); inside core, files import each other directly.
export {
  type BackupContents,
  type BackupCounts,
  backupKinds,
  buildBackupContents,
  countBackup,
} from './backup-contents.ts';
export {
  backupErrorMessage,
  type BackupMetadata,
  BackupOpenError,
  type BackupOpenErrorCode,
  openBackupContents,
  openBackupMetadata,
  sealBackup,
  sealBackupMetadata,
} from './backup-crypto.ts';
export { advanceBackupJob, finishBackupJob, startBackupJob } from './backup-job.ts';
export {
  applyRestore,
  planRestore,
  type RestoreMode,
  type RestorePlanSummary,
  type RestoreResult,
} from './backup-restore.ts';
export {
  countLink,
  defaultLinkChoices,
  describeLink,
  describeLinkCounts,
  type LinkChoices,
  linkChoicesSchema,
  type LinkCounts,
  linkCountsSchema,
  makeLinkPayload,
  makeListLinkPayload,
  selectLinkContents,
  type SharedLink,
} from './link-contents.ts';
export {
  fragmentKeyOf,
  type LinkKeyProblem,
  openLinkContents,
  PublicLinkKeyError,
  publicLinkUrl,
  sealLinkContents,
} from './public-link-crypto.ts';
