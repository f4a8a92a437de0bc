// The public face of import-jobs/ for the other packages (README.md); inside core, files import each other directly.
export { type ImportInput, runImportJob, type SourceUnchanged } from './dataset-import-job.ts';
export type { LoadInput } from './dataset-import-progress.ts';
export type { DatasetRemoval } from './dataset-removal.ts';
