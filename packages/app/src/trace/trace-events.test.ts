import type { Job } from '@docket/core/local-records';
import { createMemoryLocalStore } from '@docket/core/memory-local-store';
import { describe, expect, it } from 'vitest';
import { createAppStore, initialAppState } from '../state/app-store.ts';
import { authTraceInputs, jobTraceInput, startTraceWatchers, traceJobEnd } from './trace-events.ts';

const job: Job = {
  id: 'job-1',
  kind: 'import',
  subjectId: 'dataset-1',
  status: 'failed',
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  finishedAt: '2026-01-01T00:00:03.500Z',
  progress: { recordsRead: 10, written: 8, skipped: 2, total: 10 },
  result: null,
  errors: [{ record: 'row 4', reason: 'missing title' }],
  message: 'Some records were skipped',
};

const user = { id: 'u1', email: 'a@example.org', name: 'A' };

describe('trace entries of the app', () => {
  it('records a job that ended, with its counts and first error', async () => {
    expect(jobTraceInput({ ...job, status: 'running' })).toBeNull();
    expect(jobTraceInput(job)).toEqual({
      kind: 'job',
      durationMs: 2500,
      details: {
        job: 'import',
        status: 'failed',
        jobId: 'job-1',
        subject: 'dataset-1',
        read: 10,
        written: 8,
        skipped: 2,
        message: 'Some records were skipped',
        errors: 2,
        firstError: 'row 4: missing title',
      },
    });
    const store = createMemoryLocalStore();
    expect(await traceJobEnd(store, job)).toBe(job);
    const rows = await store.read(['trace'], (tx) => tx.all('trace'));
    expect(rows.map((row) => row.kind)).toEqual(['job']);
  });

  it('tells sign-in and sign-out from a session restored at startup', () => {
    const ready = { ...initialAppState, ready: true };
    expect(authTraceInputs(initialAppState, { ...ready, user })).toEqual([]);
    expect(authTraceInputs(ready, { ...ready, user })).toEqual([
      { kind: 'sign-in', durationMs: null, details: { email: 'a@example.org' } },
    ]);
    expect(authTraceInputs({ ...ready, user }, ready)).toEqual([
      { kind: 'sign-out', durationMs: null, details: { email: 'a@example.org' } },
    ]);
    expect(authTraceInputs({ ...ready, user }, { ...ready, user, online: false })).toEqual([]);
  });

  it('writes connectivity changes and sign-ins while it watches', async () => {
    const store = createMemoryLocalStore();
    const appStore = createAppStore({ ready: true });
    const target = new EventTarget();
    const stop = startTraceWatchers(appStore, target, () => Promise.resolve(store));
    target.dispatchEvent(new Event('offline'));
    target.dispatchEvent(new Event('online'));
    appStore.update({ user });
    stop();
    target.dispatchEvent(new Event('offline'));
    const kinds = async () =>
      (await store.read(['trace'], (tx) => tx.all('trace'))).map(
        (row) => `${row.kind} ${JSON.stringify(row.details)}`,
      );
    await expect.poll(kinds).toHaveLength(3);
    expect((await kinds()).sort()).toEqual(
      [
        'connectivity {"online":false}',
        'connectivity {"online":true}',
        'sign-in {"email":"a@example.org"}',
      ].sort(),
    );
  });
});
