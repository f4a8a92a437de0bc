// The public face of import-jobs/ for the other packages (README.md); inside core, files import each other directly.
export * from './dataset-import-errors.ts';
export * from './dataset-import-finish.ts';
export * from './dataset-import-job.ts';
export * from './dataset-import-journal.ts';
export * from './dataset-import-progress.ts';
export * from './dataset-import-records.ts';
export * from './dataset-removal.ts';
