import type { Job } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// The job rows of backups and restores ('backup' and 'restore' kinds): they run in the app's
// user-data worker (the work is reading, sealing and one upload, or one transaction), and the
// jobs screen shows them with their label and progress like any other job. Progress counts
// steps: a backup reads, seals and uploads; a restore downloads, opens and applies.

export type BackupJobKind = 'backup' | 'restore';

export const BACKUP_JOB_STEPS = 3;

export async function startBackupJob(
  store: LocalStore,
  input: { id: string; kind: BackupJobKind; subjectId: string; label: string; at: string },
): Promise<Job> {
  const job: Job = {
    id: input.id,
    kind: input.kind,
    subjectId: input.subjectId,
    label: input.label.slice(0, 300),
    status: 'running',
    createdAt: input.at,
    startedAt: input.at,
    finishedAt: null,
    progress: { recordsRead: 0, written: 0, skipped: 0, total: BACKUP_JOB_STEPS },
    result: null,
    errors: [],
    message: null,
  };
  await store.write(['jobs'], (tx) => tx.put('jobs', job));
  return job;
}

/** Records that `step` of the job's steps is done. */
export async function advanceBackupJob(
  store: LocalStore,
  jobId: string,
  step: number,
): Promise<void> {
  await store.write(['jobs'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job?.status !== 'running') return;
    await tx.put('jobs', {
      ...job,
      progress: { ...job.progress, recordsRead: step, written: step },
    });
  });
}

export async function finishBackupJob(
  store: LocalStore,
  jobId: string,
  outcome:
    | { status: 'done'; at: string; message: string; result?: Job['result'] }
    | { status: 'failed'; at: string; message: string },
): Promise<void> {
  await store.write(['jobs'], async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (job === undefined) return;
    await tx.put('jobs', {
      ...job,
      status: outcome.status,
      finishedAt: outcome.at,
      message: outcome.message,
      progress:
        outcome.status === 'done'
          ? { ...job.progress, recordsRead: BACKUP_JOB_STEPS, written: BACKUP_JOB_STEPS }
          : job.progress,
      result: outcome.status === 'done' ? (outcome.result ?? null) : null,
      errors:
        outcome.status === 'failed' ? [{ record: null, reason: outcome.message }] : job.errors,
    });
  });
}
