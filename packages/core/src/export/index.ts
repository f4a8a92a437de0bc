// The public face of export/ for the other packages (README.md); inside core, files import each other directly.
export { type BillReportEntry, readBillReport } from './bill-report.ts';
export {
  type ExportedFile,
  type ExportFormat,
  type ExportSelection,
  exportUserData,
  readUserDataSnapshot,
} from './user-data-export.ts';
export {
  applyUserDataImport,
  describeCounts,
  previewUserDataImport,
  type UserDataImportPlan,
} from './user-data-import-plan.ts';
export {
  MAX_IMPORT_BYTES,
  readUserDataFile,
  userDataFileKindWords,
  UserDataImportError,
} from './user-data-import.ts';
