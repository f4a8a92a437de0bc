// The public face of encoding/ for the other packages (README.md); inside core, files import each other directly.
export * from './base64.ts';
export * from './csv-table.ts';
export * from './import-file.ts';
export * from './loose-json.ts';
export * from './text-bytes.ts';
export * from './zip-archive.ts';
export * from './zip-entry-inflate.ts';
