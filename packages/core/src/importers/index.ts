// The public face of importers/ for the other packages (README.md); inside core, files import each other directly.
export type { ImportError, ImportFile } from './bill-import-record.ts';
export {
  combineSliceReports,
  importBills,
  type ImportBillsOptions,
  type ImportBillsResult,
  type ImportSlice,
  readImportSlice,
} from './bill-import.ts';
export { isBillStatusFile } from './bill-importer-billstatus.ts';
export {
  congressJsonDraft,
  isCongressJson,
  readCongressJsonRecords,
} from './bill-importer-congress-json.ts';
