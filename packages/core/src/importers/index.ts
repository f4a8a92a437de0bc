// The public face of importers/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-format-detection.ts';
export * from './bill-import-record.ts';
export * from './bill-import.ts';
export * from './bill-importer-billstatus.ts';
export * from './bill-importer-congress-json.ts';
export * from './bill-importer-docket-csv.ts';
export * from './bill-importer-legiscan.ts';
export * from './bill-importer-openstates.ts';
export * from './congress-action-text.ts';
export * from './dataset-files-not-used.ts';
export * from './docket-csv-layout.ts';
export * from './openstates-csv-tables.ts';
export * from './openstates-voters.ts';
