import { expect } from 'vitest';
import type { Job } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  allRows,
  crashingStore,
  csvFile,
  numberedBills,
  queueFilesImport,
  runStoredImport,
  testClock,
} from './dataset-import-harness.ts';

// Shared by the import job's tests (import-jobs/dataset-import-job.test.ts and
// dataset-import-undo.test.ts): a store with one import done, snapshots, and a tab that dies.

/** Every table an import may write, as one comparable snapshot. */
export async function snapshot(store: LocalStore) {
  return {
    bills: await allRows(store, 'bills'),
    datasets: await allRows(store, 'datasets'),
    importStaging: await allRows(store, 'importStaging'),
  };
}

export async function jobOf(store: LocalStore, id: string): Promise<Job> {
  const job = await store.read(['jobs'], (tx) => tx.get('jobs', id));
  if (!job) throw new Error(`no job ${id}`);
  return job;
}

/** A store holding dataset d1 imported once from `count` numbered bills. */
/** The import of these files into a fresh device with chunks of 100, run without mishap: what
 *  a run that was cut off and resumed must end as. */
export async function referenceImport(files: Parameters<typeof queueFilesImport>[1]['files']) {
  const store = createMemoryLocalStore();
  const clock = testClock();
  await queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files, now: clock() });
  const job = await runStoredImport(store, 'j1', clock, { chunkSize: 100 });
  return { store, job };
}

/** The device as a tab that dies on its second write of bills (the first chunk is saved). */
export function crashingOnSecondBillWrite(store: LocalStore) {
  let billWrites = 0;
  return crashingStore(
    store,
    (call) => call.table === 'bills' && call.method === 'putMany' && ++billWrites === 2,
  );
}

export async function importedStore(count: number) {
  const store = createMemoryLocalStore();
  const now = testClock();
  const jobId = await queueFilesImport(store, {
    datasetId: 'd1',
    jobId: 'j1',
    files: [csvFile('bills.csv', numberedBills(count))],
    now: now(),
  });
  const job = await runStoredImport(store, jobId, now, { chunkSize: 100 });
  expect(job.status).toBe('done');
  return { store, now };
}
