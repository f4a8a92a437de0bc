// The public face of sync/ for the other packages (README.md); inside core, files import each other directly.
export { readDeviceAuthor, readFieldAuthor } from './change-authors.ts';
export {
  cursorSchema,
  skipUnreadableChange,
  skipUnsendableChange,
  syncCursorSetting,
} from './sync-cursor.ts';
export {
  runSync,
  type SyncProgress,
  type SyncRunReport,
  type SyncSession,
  type SyncTransport,
} from './sync-engine.ts';
export { workspaceSync } from './sync-envelopes.ts';
export { SyncEngineError } from './sync-errors.ts';
export { claimDeviceData, handOverDeviceData } from './sync-owner.ts';
export { checkRevert, prepareResetUpload, revertToNewEpoch } from './sync-reset.ts';
export { type SyncStatus, syncStatusMachine, syncStatusOf } from './sync-status-machine.ts';
export {
  markTeamActivitySeen,
  readTeamActivity,
  TEAM_ACTIVITY_TABLES,
  type TeamActivity,
  type TeamActivityEntry,
} from './team-activity.ts';
