import { createMemoryLocalStore, type Job } from '@docket/core/store';
import { describe, expect, it } from 'vitest';
import { createAppStore, initialAppState } from '../state/app-store.ts';
import {
  authTraceInputs,
  errorTraceLimiter,
  jobTraceInput,
  startTraceWatchers,
  traceJobEnd,
} from './trace-events.ts';

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

  it('writes uncaught errors and unhandled rejections, a few a second at most', async () => {
    const store = createMemoryLocalStore();
    const target = new EventTarget();
    let now = 1_000_000;
    const stop = startTraceWatchers(
      createAppStore({ ready: true }),
      target,
      () => Promise.resolve(store),
      { now: () => now },
    );
    const thrown = new TypeError('x is not a function');
    target.dispatchEvent(
      new ErrorEvent('error', {
        message: 'Uncaught TypeError: x is not a function',
        filename: 'https://docket.example/assets/index.js',
        lineno: 12,
        colno: 34,
        error: thrown,
      }),
    );
    // jsdom has no PromiseRejectionEvent; the watcher reads only `reason`.
    const rejection = (reason: unknown) =>
      Object.assign(new Event('unhandledrejection'), { reason, promise: Promise.resolve() });
    target.dispatchEvent(rejection(new RangeError('<b>too far</b>')));
    target.dispatchEvent(rejection({ code: 42 }));
    // A loop of errors: only five in the same second get through; the rest are counted.
    for (let index = 0; index < 20; index++) target.dispatchEvent(rejection(`loop ${index}`));
    now += 1000;
    target.dispatchEvent(rejection('a second later'));
    stop();
    target.dispatchEvent(rejection('after stop'));

    const errors = async () =>
      (await store.read(['trace'], (tx) => tx.all('trace'))).filter((row) => row.kind === 'error');
    await expect.poll(async () => (await errors()).length).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const rows = await errors();
    expect(rows).toHaveLength(6);
    const details = rows.map((row) => row.details);
    expect(details).toContainEqual(
      expect.objectContaining({
        event: 'error',
        message: 'Uncaught TypeError: x is not a function',
        source: 'https://docket.example/assets/index.js:12:34',
        stack: expect.stringContaining('TypeError: x is not a function') as unknown,
      }),
    );
    expect(details).toContainEqual(
      expect.objectContaining({
        event: 'unhandledrejection',
        message: 'RangeError: <b>too far</b>',
        source: expect.stringContaining('trace-events.test.ts') as unknown,
      }),
    );
    expect(details).toContainEqual(
      expect.objectContaining({ event: 'unhandledrejection', message: '{"code":42}' }),
    );
    const messages = details.map((detail) => detail.message);
    expect(messages.filter((message) => String(message).startsWith('loop '))).toHaveLength(2);
    expect(details).toContainEqual(
      expect.objectContaining({ message: 'a second later', source: 'unknown', droppedBefore: 18 }),
    );
    expect(messages).not.toContain('after stop');
  });

  it('lets a few errors through per window and counts the rest', () => {
    const letThrough = errorTraceLimiter({ perWindow: 2, windowMs: 1000 });
    expect(letThrough(0)).toEqual({ dropped: 0 });
    expect(letThrough(10)).toEqual({ dropped: 0 });
    expect(letThrough(20)).toBeNull();
    expect(letThrough(999)).toBeNull();
    expect(letThrough(1000)).toEqual({ dropped: 2 });
    expect(letThrough(1001)).toEqual({ dropped: 0 });
    expect(letThrough(5000)).toEqual({ dropped: 0 });
  });
});
