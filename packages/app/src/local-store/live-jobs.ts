import type { Job } from '@docket/core/store';
import { useLiveRead } from './live-database.ts';

// Live reads of the jobs table: imports, backups and full backups as they move along.

/** Every job, newest first; undefined while loading. */
export function useJobs(): Job[] | undefined {
  return useLiveRead(
    (store) =>
      store.read(['jobs'], async (tx) =>
        (await tx.all('jobs')).sort(
          (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
        ),
      ),
    [],
  );
}

/** One job, as it moves along: undefined while loading or when there is none. */
export function useJob(jobId: string | null): Job | undefined {
  return useLiveRead(
    (store) =>
      jobId === null
        ? Promise.resolve(undefined)
        : store.read(['jobs'], (tx) => tx.get('jobs', jobId)),
    [jobId],
  );
}

/** How many jobs are done; a change means a job just finished. Undefined while loading. */
export function useFinishedJobCount(): number | undefined {
  return useLiveRead(
    (store) =>
      store.read(['jobs'], async (tx) => (await tx.where('jobs', 'status', 'done')).length),
    [],
  );
}
