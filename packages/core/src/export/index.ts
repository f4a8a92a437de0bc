// The public face of export/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-exporter-docket-csv.ts';
export * from './bill-report.ts';
export * from './report-csv.ts';
export * from './user-data-export.ts';
export * from './user-data-import-plan.ts';
export * from './user-data-import.ts';
