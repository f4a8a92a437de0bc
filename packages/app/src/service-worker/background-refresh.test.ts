import { fnv1a64Hex } from '@docket/core/bills';
import { trackBill } from '@docket/core/commands';
import {
  AUTO_REFRESH_AT_SETTING,
  DEVICE_PREFERENCES_SETTING,
  type DevicePreferences,
} from '@docket/core/device';
import { createMemoryLocalStore, type Job, type LocalStore } from '@docket/core/store';
import { testContext } from '@docket/core/test-support/bill-command-harness';
import { describe, expect, it } from 'vitest';
import { createImportRunner } from '../import-worker/import-runner.ts';
import {
  IMPORTS_LOCK,
  jobLockName,
  type JobLocks,
  localJobLocks,
} from '../import-worker/job-locks.ts';
import type { ChangeAlert } from '../changes/change-alerts.ts';
import { type BackgroundRefreshDeps, runBackgroundRefresh } from './background-refresh.ts';

// The service worker's refresh, run against a memory store and the real import runner: what it
// refuses to do, what it refreshes, the alert it shows, and that it waits for a tab's import.

const csv = (title: string) =>
  new TextEncoder().encode(
    [
      'jurisdiction,session,identifier,title',
      `us-ca,2023,AB 1,${title}`,
      'us-ca,2023,AB 2,Air',
    ].join('\n'),
  );

const isFinished = (job: Job | undefined) =>
  job !== undefined && job.status !== 'queued' && job.status !== 'running';

async function jobEnded(store: LocalStore, jobId: string): Promise<Job> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const job = await store.read(['jobs'], (tx) => tx.get('jobs', jobId));
    if (job !== undefined && isFinished(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`job ${jobId} never ended`);
}

/** A device holding a dataset from a URL (whose file `source.title` names AB 1), AB 1 tracked. */
async function device(preferences: Partial<DevicePreferences>) {
  const store = createMemoryLocalStore();
  const locks = localJobLocks();
  const source = { title: 'Water', requests: 0 };
  let id = 0;
  let tick = 0;
  const runnerOn = (on: LocalStore, onLocks: JobLocks) =>
    createImportRunner({
      store: on,
      locks: onLocks,
      fetch: () => {
        source.requests++;
        return Promise.resolve(
          new Response(csv(source.title), { headers: { etag: `"${source.title}"` } }),
        );
      },
      sha256Hex: (bytes) => Promise.resolve(fnv1a64Hex(bytes)),
      newId: () => `id-${++id}`,
      now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, ++tick)).toISOString(),
      deviceId: () => Promise.resolve('device-a'),
    });
  const page = runnerOn(store, locks);
  const { jobId } = await page.saveAndImport({
    name: 'Remote',
    url: 'https://example.org/bills.csv',
    jurisdiction: '',
    session: '',
    files: [],
  });
  expect((await jobEnded(store, jobId)).status).toBe('done');
  const bills = await store.read(['bills'], (tx) => tx.all('bills'));
  const ab1 = bills.find((bill) => bill.identifier === 'AB 1');
  await trackBill(testContext(store), ab1?.id ?? '');
  await store.write(['settings'], (tx) =>
    tx.put('settings', {
      key: DEVICE_PREFERENCES_SETTING,
      value: { sourceRelay: false, autoRefreshHours: 6, changeAlerts: true, ...preferences },
    }),
  );

  const shown: (ChangeAlert & { tag: string })[] = [];
  let opened = 0;
  const deps: BackgroundRefreshDeps = {
    hasLocalData: () => Promise.resolve(true),
    openStore: () => {
      opened++;
      return Promise.resolve(store);
    },
    signedIn: () => Promise.resolve(true),
    createRunner: (on) => runnerOn(on, locks),
    jobEnded: (job) => locks.hold(jobLockName(job), () => Promise.resolve()),
    alertsAllowed: () => true,
    showAlert: (alert) => {
      shown.push(alert);
      return Promise.resolve();
    },
    now: () => '2025-01-02T00:00:00.000Z',
  };
  return { store, locks, source, deps, shown, opened: () => opened };
}

describe('the background refresh', () => {
  it('refreshes every dataset with a source and alerts, naming the tracked bill and its change', async () => {
    const { store, source, deps, shown } = await device({});
    source.title = 'Water and wells';
    const outcome = await runBackgroundRefresh(deps);
    expect(outcome).toMatchObject({ kind: 'refreshed', alerts: 1 });
    const jobId = outcome.kind === 'refreshed' ? (outcome.jobIds[0] ?? '') : '';
    // Done by the time it resolves: the service worker's waitUntil holds it that long.
    expect(await store.read(['jobs'], (tx) => tx.get('jobs', jobId))).toMatchObject({
      status: 'done',
      result: { changed: 1 },
    });
    expect(shown).toEqual([{ title: 'AB 1 changed', body: 'Title: Water and wells', tag: jobId }]);
    // An open tab's timer counts its hours from this refresh.
    expect(
      await store.read(['settings'], (tx) => tx.get('settings', AUTO_REFRESH_AT_SETTING)),
    ).toMatchObject({ value: '2025-01-02T00:00:00.000Z' });
  });

  it('refreshes without an alert when alerts are off, or not allowed by the browser', async () => {
    const off = await device({ changeAlerts: false });
    off.source.title = 'Water and wells';
    expect(await runBackgroundRefresh(off.deps)).toMatchObject({ kind: 'refreshed', alerts: 0 });
    expect(off.shown).toEqual([]);

    const refused = await device({});
    refused.source.title = 'Water and wells';
    expect(
      await runBackgroundRefresh({ ...refused.deps, alertsAllowed: () => false }),
    ).toMatchObject({ kind: 'refreshed', alerts: 0 });
    expect(refused.shown).toEqual([]);
  });

  it('does nothing on a device without data, with the setting off, or with nobody signed in', async () => {
    const fresh = await device({});
    expect(
      await runBackgroundRefresh({ ...fresh.deps, hasLocalData: () => Promise.resolve(false) }),
    ).toEqual({ kind: 'nothing', why: 'no local data' });
    expect(fresh.opened()).toBe(0);

    const off = await device({ autoRefreshHours: 0 });
    expect(await runBackgroundRefresh(off.deps)).toEqual({ kind: 'nothing', why: 'refresh off' });

    const signedOut = await device({});
    expect(
      await runBackgroundRefresh({ ...signedOut.deps, signedIn: () => Promise.resolve(false) }),
    ).toEqual({ kind: 'nothing', why: 'signed out' });

    for (const { source } of [off, signedOut]) expect(source.requests).toBe(1);
  });

  it('waits while a tab imports, and only then asks the source', async () => {
    const { locks, source, deps } = await device({});
    let release = (): void => undefined;
    const tabImport = locks.hold(
      IMPORTS_LOCK,
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    source.title = 'Water and wells';
    let settled = false;
    const refresh = runBackgroundRefresh(deps).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(source.requests).toBe(1);
    release();
    await tabImport;
    expect(await refresh).toMatchObject({ kind: 'refreshed', alerts: 1 });
    expect(source.requests).toBe(2);
  });
});
