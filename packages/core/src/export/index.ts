// The public face of export/ for the other packages (see README.md); inside core, files import each other directly.
export * from './bill-exporter-docket-csv.ts';
export * from './user-data-export.ts';
export * from './user-data-import.ts';
