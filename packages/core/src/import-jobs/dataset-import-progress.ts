import type { Dataset, Job } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { ImportCancelledError } from './dataset-import-errors.ts';
import type { ImportInput, SourceUnchanged } from './dataset-import-job.ts';

// How far a long download of an import job is, in words ("Reading bill 120 of 800"): the running
// job's message, which the jobs screen and the dataset's row show, until reading the records
// begins and their counts take over. A download that asks is also ended there once the job is
// cancelled, instead of sending every request it planned first.

/** Reads the dataset's files (or downloads its URL), outside every transaction; a long download
 *  says how far it is through `progress`. */
export type LoadInput = (
  dataset: Dataset,
  progress: (message: string) => Promise<void>,
) => Promise<ImportInput | SourceUnchanged>;

/** A running job as the import shares it: its newest row, told to `report`. */
interface RunningJob {
  job: Job;
  report: (job: Job) => void;
  checkCancelled: () => void;
}

/** Sets the running job's message; throws ImportCancelledError once the job is cancelled. */
export async function downloadProgress(
  store: LocalStore,
  jobId: string,
  run: RunningJob,
  message: string,
): Promise<void> {
  run.checkCancelled();
  const job = await store.write(['jobs'], async (tx) => {
    const current = await tx.get('jobs', jobId);
    if (current?.status !== 'running') return null;
    const next: Job = { ...current, message };
    await tx.put('jobs', next);
    return next;
  });
  if (job === null) throw new ImportCancelledError();
  run.job = job;
  run.report(job);
}
