// The public face of import-jobs/ for the other packages (see README.md); inside core, files import each other directly.
export * from './dataset-import-job.ts';
export * from './dataset-import-journal.ts';
export * from './dataset-import-records.ts';
