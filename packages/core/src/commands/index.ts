// The public face of commands/ for the other packages (README.md); inside core, files import each other directly.
export {
  createAnnotation,
  deleteAnnotation,
  NOTE_MAX,
  QUOTE_MAX,
  updateAnnotation,
} from './annotation-commands.ts';
export {
  type BillCommandContext,
  BillCommandError,
  randomIdSource,
  TRIAGE_UNDO_SETTING,
} from './bill-command-context.ts';
export {
  cancelIdleJob,
  type DatasetFormErrors,
  datasetsNeedingImport,
  deleteDataset,
  loadStoredDatasetFiles,
  markInterruptedJobs,
  type PickedDatasetFile,
  previewDatasetDeletion,
  queueRefresh,
  queueSyncedImport,
  refreshable,
  requestResume,
  requestRetry,
  saveDatasetAndQueueImport,
  validateDatasetForm,
} from './dataset-commands.ts';
export { POSITION_REASON_MAX, setPosition, setPositionReason } from './position-commands.ts';
export { deleteRemovedBillNotes } from './removed-bill-commands.ts';
export { markChangesSeen } from './seen-mark-commands.ts';
export {
  createTag,
  deleteTag,
  mergeTags,
  type MergeTagsResult,
  recolourTag,
  renameTag,
  TAG_NAME_MAX,
  tagBills,
  tagUsage,
  untagBills,
} from './tag-commands.ts';
export {
  type DecisionKind,
  dismissBill,
  laterBill,
  trackBill,
  undoLastDecision,
} from './triage-commands.ts';
export { decideBills, type DecideBillsResult } from './triage-commands.ts';
