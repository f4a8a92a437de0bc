import type { ImportError } from '../importers/bill-import-record.ts';
import type { Job } from '../store/local-records.ts';

// How an import job's problems reach the job row, shared by its steps (dataset-import-job.ts)
// and its finish (dataset-import-finish.ts).

export class ImportCancelledError extends Error {
  constructor() {
    super('The import was cancelled.');
    this.name = 'ImportCancelledError';
  }
}

/** The error as the jobs screen shows it: the record (and its file), then why. */
export function jobErrorOf(error: ImportError): Job['errors'][number] {
  return {
    record: error.record === null ? error.file : `${error.record} in ${error.file}`,
    reason: error.reason,
  };
}
