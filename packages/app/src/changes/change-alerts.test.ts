import type { Job } from '@docket/core/store';
import { describe, expect, it } from 'vitest';
import { jobsToHandle } from './change-alerts.ts';

function job(id: string, finishedAt: string | null, status: Job['status'] = 'done'): Job {
  return {
    id,
    kind: 'import',
    subjectId: 'dataset-1',
    status,
    createdAt: '2026-11-29T09:00:00.000Z',
    startedAt: '2026-11-29T09:00:00.000Z',
    finishedAt,
    progress: { recordsRead: 3, written: 3, skipped: 0, total: 3 },
    result: null,
    error: null,
  } as unknown as Job;
}

describe('jobsToHandle', () => {
  const since = '2026-11-29T10:00:00.000Z';

  it('takes imports that finished since the session began, even in its first read of the jobs', () => {
    const jobs = [
      job('before', '2026-11-29T09:59:59.999Z'),
      job('during', '2026-11-29T10:00:01.000Z'),
      job('running', null, 'running'),
    ];
    expect(jobsToHandle(jobs, since, new Set()).map((one) => one.id)).toEqual(['during']);
  });

  it('takes each job once', () => {
    const jobs = [job('during', '2026-11-29T10:00:01.000Z')];
    expect(jobsToHandle(jobs, since, new Set(['during']))).toEqual([]);
  });
});
