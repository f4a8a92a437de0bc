import { fnv1a64Hex } from '@docket/core/bills';
import { createMemoryLocalStore, type Job, type LocalStore } from '@docket/core/store';
import { describe, expect, it } from 'vitest';
import { createImportRunner } from './import-runner.ts';
import { localJobLocks } from './job-locks.ts';

// An import of a dataset runs while a sync run changes the dataset's definition.

const csv = (rows: string[]) =>
  new TextEncoder().encode(['jurisdiction,session,identifier,title', ...rows].join('\n'));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('never got there');
}

const jobsOf = (store: LocalStore): Promise<Job[]> => store.read(['jobs'], (tx) => tx.all('jobs'));

describe('synced imports and a running import', () => {
  it('imports again once the running import ends, when sync changed the dataset meanwhile', async () => {
    const store = createMemoryLocalStore();
    let release: (() => void) | null = null;
    let fetches = 0;
    let id = 0;
    let tick = 0;
    const runner = createImportRunner({
      store,
      locks: localJobLocks(),
      fetch: async () => {
        fetches++;
        if (fetches === 1) await new Promise<void>((resolve) => (release = resolve));
        return new Response(csv(['us-ca,2023,AB 1,Water']));
      },
      sha256Hex: (bytes) => Promise.resolve(fnv1a64Hex(bytes)),
      newId: () => `id-${++id}`,
      now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, ++tick)).toISOString(),
      deviceId: () => Promise.resolve('device-a'),
      onError: (error) => {
        throw error;
      },
    });
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'Remote',
      url: 'https://example.org/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    await until(
      () => jobsOf(store),
      (jobs) => jobs.some((job) => job.id === jobId && job.status === 'running'),
    );
    // A sync run merges a new override from another device (sync-merge's markForImport), and
    // asks for the import after the run: the running import makes queueSyncedImport wait.
    await store.write(['datasets'], async (tx) => {
      const dataset = await tx.get('datasets', datasetId);
      if (dataset === undefined) throw new Error('no dataset');
      await tx.put('datasets', { ...dataset, session: '2024', needsImport: true });
    });
    expect(await runner.importSynced()).toBe(0);
    (release as (() => void) | null)?.();

    // The running import read the old definition; the new one must still be imported, without
    // waiting for some later sync run.
    const dataset = await until(
      () => store.read(['datasets'], (tx) => tx.get('datasets', datasetId)),
      (row) => row?.needsImport === false && row.state === 'ready' && fetches === 2,
    );
    expect(dataset?.lastJobId).not.toBe(jobId);
  });
});
