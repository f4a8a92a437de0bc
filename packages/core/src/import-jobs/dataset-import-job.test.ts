import { describe, expect, it } from 'vitest';
import { importBills } from '../importers/bill-import.ts';
import {
  cancelIdleJob,
  markInterruptedJobs,
  requestResume,
  requestRetry,
  saveDatasetAndQueueImport,
} from '../commands/dataset-commands.ts';
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
} from '../test-support/dataset-import-harness.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
} from '../test-support/test-files.ts';

/** Every table an import may write, as one comparable snapshot. */
async function snapshot(store: LocalStore) {
  return {
    bills: await allRows(store, 'bills'),
    datasets: await allRows(store, 'datasets'),
    importStaging: await allRows(store, 'importStaging'),
  };
}

async function jobOf(store: LocalStore, id: string): Promise<Job> {
  const job = await store.read(['jobs'], (tx) => tx.get('jobs', id));
  if (!job) throw new Error(`no job ${id}`);
  return job;
}

/** A store holding dataset d1 imported once from `count` numbered bills. */
/** The import of these files into a fresh device with chunks of 100, run without mishap: what
 *  a run that was cut off and resumed must end as. */
async function referenceImport(files: Parameters<typeof queueFilesImport>[1]['files']) {
  const store = createMemoryLocalStore();
  const clock = testClock();
  await queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files, now: clock() });
  const job = await runStoredImport(store, 'j1', clock, { chunkSize: 100 });
  return { store, job };
}

/** The device as a tab that dies on its second write of bills (the first chunk is saved). */
function crashingOnSecondBillWrite(store: LocalStore) {
  let billWrites = 0;
  return crashingStore(
    store,
    (call) => call.table === 'bills' && call.method === 'putMany' && ++billWrites === 2,
  );
}

async function importedStore(count: number) {
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

describe('runImportJob', () => {
  it('reports progress chunk by chunk, in the callback and on the job row, then done', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('bills.csv', numberedBills(1200))],
      now: now(),
    });
    const seen: Job[] = [];
    const job = await runStoredImport(store, jobId, now, {
      chunkSize: 500,
      onProgress: (update) => {
        seen.push(update);
      },
    });

    expect(job.status).toBe('done');
    expect(seen[0]).toMatchObject({ status: 'running', progress: { recordsRead: 0 } });
    const reads = seen
      .filter((update) => update.status === 'running')
      .map((update) => update.progress.recordsRead);
    // Started, then the total known (null for CSV), then one update per chunk.
    expect(reads).toEqual([0, 0, 500, 1000, 1200]);
    expect(seen.at(-2)?.message).toBe('Saving bills');
    expect(seen.at(-1)).toEqual(job);
    expect(job.progress).toEqual({ recordsRead: 1200, written: 1200, skipped: 0, total: null });
    expect(job.result).toEqual({ added: 1200, updated: 0, unchanged: 0, removed: 0 });
    expect(job.message).toBe('1200 added, 0 updated, 0 unchanged, 0 removed');
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();

    expect(await jobOf(store, jobId)).toEqual(job);
    const bills = await allRows(store, 'bills');
    expect(bills).toHaveLength(1200);
    expect(bills[0]?.datasetIds).toEqual(['d1']);
    expect(await allRows(store, 'importStaging')).toEqual([]);
    const [dataset] = await allRows(store, 'datasets');
    expect(dataset).toMatchObject({
      billCount: 1200,
      format: 'docket-csv',
      state: 'ready',
      lastJobId: jobId,
      lastImportAt: job.finishedAt,
    });
  });

  it('closes a chunk early once its reading has taken chunkMillis, never splitting a record', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('bills.csv', numberedBills(1000))],
      now: now(),
    });
    // A clock read once as the chunk begins and once after each record: every record "takes"
    // 10 ms, so 300 ms of reading is 30 records, well under chunkSize.
    let ticks = 0;
    const seen: number[] = [];
    const job = await runStoredImport(store, jobId, now, {
      chunkSize: 400,
      chunkMillis: 300,
      chunkClock: () => 10 * ticks++,
      onProgress: (update) => {
        // The first rows (started, total known) say 'Reading files' with nothing read yet.
        const read = update.progress.recordsRead;
        if (update.message === 'Reading files' && read > 0) seen.push(read);
      },
    });
    expect(job.status).toBe('done');
    expect(job.result).toEqual({ added: 1000, updated: 0, unchanged: 0, removed: 0 });
    expect(seen.length).toBeGreaterThan(10);
    const sizes = seen.map((read, index) => read - (seen[index - 1] ?? 0));
    for (const size of sizes) {
      expect(size).toBeGreaterThan(0);
      expect(size).toBeLessThan(400);
    }
    expect(await allRows(store, 'bills')).toHaveLength(1000);

    // Without a clock the chunks are exactly chunkSize records, as before.
    const counted = createMemoryLocalStore();
    const countedJob = await queueFilesImport(counted, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('bills.csv', numberedBills(1000))],
      now: now(),
    });
    const reads: number[] = [];
    await runStoredImport(counted, countedJob, now, {
      chunkSize: 400,
      chunkMillis: 300,
      onProgress: (update) => {
        const read = update.progress.recordsRead;
        if (update.message === 'Reading files' && read > 0) reads.push(read);
      },
    });
    expect(reads).toEqual([400, 800]);
  });

  it('knows the total up front for formats of one record per file', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: readSamples('congress-json'),
      now: now(),
    });
    const totals: (number | null)[] = [];
    const job = await runStoredImport(store, jobId, now, {
      onProgress: (update) => totals.push(update.progress.total),
    });
    expect(job.progress).toEqual({ recordsRead: 3, written: 2, skipped: 1, total: 3 });
    expect(totals.at(-1)).toBe(3);
  });

  it('merges the same bill from two formats, even across chunks', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const files = [...readSamples('billstatus'), ...readSamples('congress-json')];
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files,
      now: now(),
    });
    const job = await runStoredImport(store, jobId, now, { chunkSize: 1 });
    expect(job.status).toBe('done');
    const bills = await allRows(store, 'bills');
    expect(bills.filter((bill) => bill.id === 'us/118/hr-9901')).toHaveLength(1);
    const [dataset] = await allRows(store, 'datasets');
    expect(dataset?.format).toBe('mixed');
    expect(dataset?.billCount).toBe(bills.length);
    // Merged with what the import wrote exactly as the one-call importer merges it.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect(bills.map(({ datasetIds: _, ...bill }) => bill).sort(byId)).toEqual(
      importBills(files).bills.sort(byId),
    );
  });

  it('a cancel while reading leaves every table as it was', async () => {
    const { store, now } = await importedStore(300);
    const before = await snapshot(store);
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [csvFile('bills.csv', numberedBills(1000, 'Changed act'))],
      now: now(),
    });
    const signal = { aborted: false };
    const job = await runStoredImport(store, jobId, now, {
      chunkSize: 100,
      signal,
      onProgress: (update) => {
        if (update.progress.recordsRead >= 300) signal.aborted = true;
      },
    });
    expect(job.status).toBe('cancelled');
    // The chunk queued behind the one that reached 300 may be written too before the cancel.
    expect(job.progress.recordsRead).toBeGreaterThanOrEqual(300);
    expect(job.progress.recordsRead).toBeLessThan(1000);
    expect(job.message).toMatch(/cancelled/i);
    const after = await snapshot(store);
    expect(after.bills).toEqual(before.bills);
    expect(after.importStaging).toEqual([]);
    // The dataset points at the cancelled job but keeps its bills and its ready state.
    const importFields = ({
      billCount,
      format,
      lastImportAt,
      state,
    }: (typeof after.datasets)[number]) => ({
      billCount,
      format,
      lastImportAt,
      state,
    });
    expect(after.datasets.map(importFields)).toEqual(before.datasets.map(importFields));
  });

  it('a cancel once every chunk is written undoes them all', async () => {
    const { store, now } = await importedStore(300);
    const before = await snapshot(store);
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [csvFile('bills.csv', numberedBills(500, 'Changed act'))],
      now: now(),
    });
    const signal = { aborted: false };
    const job = await runStoredImport(store, jobId, now, {
      chunkSize: 100,
      signal,
      onProgress: (update) => {
        // The last chunk is written: 300 bills changed and 200 added, the journal not yet gone.
        if (update.message === 'Saving bills') signal.aborted = true;
      },
    });
    expect(job.status).toBe('cancelled');
    expect(job.progress.recordsRead).toBe(500);
    const after = await snapshot(store);
    expect(after.bills).toEqual(before.bills);
    expect(after.importStaging).toEqual([]);
  });

  it.each([
    // The third chunk's transaction: 200 records are written, with their journal.
    ['while writing chunks', 'putMany', 'bills', 3, 200],
    // The last transaction, once every chunk is written: the dataset is marked done in it.
    ['while finishing', 'put', 'datasets', 2, 451],
  ] as const)(
    'a crash %s, then resume, ends as an uninterrupted run does; a cancel instead undoes it',
    async (_, method, table, nth, writtenAtCrash) => {
      const files = [
        csvFile('bills.csv', [...numberedBills(450), { identifier: 'AB 9999', title: '' }]),
      ];
      const setup = async (store: LocalStore, now: () => string) => {
        await queueFilesImport(store, {
          datasetId: 'd1',
          jobId: 'j0',
          files: [csvFile('old.csv', numberedBills(100, 'Old act'))],
          now: now(),
        });
        await runStoredImport(store, 'j0', now);
        return queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files, now: now() });
      };

      const reference = createMemoryLocalStore();
      const referenceClock = testClock();
      const referenceJob = await runStoredImport(
        reference,
        await setup(reference, referenceClock),
        referenceClock,
        { chunkSize: 100 },
      );

      for (const then of ['resume', 'cancel'] as const) {
        const device = createMemoryLocalStore();
        const clock = testClock();
        const jobId = await setup(device, clock);
        const before = await snapshot(device);
        let calls = 0;
        const tab = crashingStore(device, (call) => {
          if (call.method !== method || call.table !== table) return false;
          calls++;
          return calls === nth;
        });
        await expect(runStoredImport(tab, jobId, clock, { chunkSize: 100 })).rejects.toThrow(
          'simulated crash',
        );
        expect(tab.crashed).toBe(true);
        // The chunks written before the crash are in `bills`, every row whole: the first 100
        // bills replaced the old ones, the others are new.
        const cutOffBills = await allRows(device, 'bills');
        expect(cutOffBills).toHaveLength(Math.max(100, Math.min(writtenAtCrash, 450)));
        expect(cutOffBills.filter((bill) => bill.title.startsWith('Old act'))).toHaveLength(0);
        expect((await jobOf(device, jobId)).status).toBe('running');

        // The next start finds it interrupted.
        const marked = await markInterruptedJobs(device, { now: clock() });
        expect(marked.map((job) => [job.id, job.status])).toEqual([[jobId, 'interrupted']]);
        if (then === 'cancel') {
          const cancelled = await cancelIdleJob(device, jobId, clock());
          expect(cancelled.status).toBe('cancelled');
          expect((await snapshot(device)).bills).toEqual(before.bills);
          expect(await allRows(device, 'importStaging')).toEqual([]);
          continue;
        }
        await requestResume(device, jobId);
        const resumedFrom = (await jobOf(device, jobId)).progress.recordsRead;
        const resumed = await runStoredImport(device, jobId, clock, { chunkSize: 100 });

        expect(resumedFrom).toBe(writtenAtCrash);
        expect(resumed.status).toBe('done');
        expect(resumed.result).toEqual(referenceJob.result);
        expect(resumed.progress).toEqual(referenceJob.progress);
        expect(resumed.errors).toEqual(referenceJob.errors);
        expect(await allRows(device, 'bills')).toEqual(await allRows(reference, 'bills'));
        expect(await allRows(device, 'importStaging')).toEqual([]);
      }
    },
  );

  it('a chunk that fails stops the chunk queued behind it, so a resume after a closed tab leaves no hole', async () => {
    const files = [csvFile('bills.csv', numberedBills(600))];
    const { store: reference, job: referenceJob } = await referenceImport(files);

    const device = createMemoryLocalStore();
    const clock = testClock();
    await queueFilesImport(device, { datasetId: 'd1', jobId: 'j1', files, now: clock() });
    // The second chunk's write of bills fails (a full disk, say) while the third is queued;
    // then the tab closes before the import can clean up: no write with `datasets` gets through.
    let billWrites = 0;
    let failed = false;
    let queuedAfterFailure = 0;
    const tab: LocalStore = {
      read: (tables, body) => device.read(tables, body),
      write: (tables, body) => {
        if (failed && tables.includes('datasets'))
          return Promise.reject(new Error('the tab is gone'));
        return device.write(tables, (tx) => {
          // A chunk queued before the failure, whose transaction runs after it.
          if (failed && tables.includes('bills')) queuedAfterFailure++;
          return body({
            ...tx,
            putMany: async (table, rows) => {
              if (table === 'bills' && ++billWrites === 2) {
                failed = true;
                throw new Error('disk full');
              }
              await tx.putMany(table, rows);
            },
          });
        });
      },
      close: () => undefined,
    };
    await expect(runStoredImport(tab, 'j1', clock, { chunkSize: 100 })).rejects.toThrow();
    expect(queuedAfterFailure).toBeGreaterThan(0);
    const checkpoint = (await allRows(device, 'importStaging')).find(
      (row) => row.kind === 'checkpoint',
    );
    // Only the first chunk is saved; the one queued behind the failure was refused.
    expect(checkpoint).toMatchObject({ recordsConsumed: 100 });
    expect(await allRows(device, 'bills')).toHaveLength(100);

    await markInterruptedJobs(device, { now: clock() });
    await requestResume(device, 'j1');
    const resumed = await runStoredImport(device, 'j1', clock, { chunkSize: 100 });
    expect(resumed.status).toBe('done');
    expect(resumed.result).toEqual(referenceJob.result);
    expect(resumed.progress).toEqual(referenceJob.progress);
    expect(await allRows(device, 'bills')).toEqual(await allRows(reference, 'bills'));
  });

  it('a retry of an older job while a newer one is cut off replaces the newer one, which can no longer undo it', async () => {
    const store = createMemoryLocalStore();
    const clock = testClock();
    const files = [csvFile('bills.csv', numberedBills(6))];
    // j0 is queued, then replaced by j1, which is cut off after its first chunk of 3.
    await queueFilesImport(store, { datasetId: 'd1', jobId: 'j0', files, now: clock() });
    await queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files, now: clock() });
    expect((await jobOf(store, 'j0')).status).toBe('cancelled');
    const tab = crashingOnSecondBillWrite(store);
    await expect(runStoredImport(tab, 'j1', clock, { chunkSize: 3 })).rejects.toThrow(
      'simulated crash',
    );
    await markInterruptedJobs(store, { now: clock() });
    expect(await allRows(store, 'bills')).toHaveLength(3);

    await requestRetry(store, 'j0');
    const retried = await runStoredImport(store, 'j0', clock, { chunkSize: 3 });
    expect(retried.status).toBe('done');
    // The bills j1 wrote were taken back before j0 began: every bill is j0's own addition.
    expect(retried.result).toEqual({ added: 6, updated: 0, unchanged: 0, removed: 0 });
    const replaced = await jobOf(store, 'j1');
    expect(replaced).toMatchObject({ status: 'cancelled', message: 'Replaced by a newer import.' });
    const after = await allRows(store, 'bills');
    expect(after).toHaveLength(6);

    // Cancelling j1 now changes nothing: it has no journal left to undo.
    expect((await cancelIdleJob(store, 'j1', clock())).status).toBe('cancelled');
    expect(await allRows(store, 'bills')).toEqual(after);
    expect(await allRows(store, 'importStaging')).toEqual([]);
    const [dataset] = await allRows(store, 'datasets');
    expect(dataset?.billCount).toBe(6);
  });

  it('undoing an import drops a bill that no dataset provides any more, instead of keeping it with none', async () => {
    const store = createMemoryLocalStore();
    const clock = testClock();
    await queueFilesImport(store, {
      datasetId: 'a',
      jobId: 'a1',
      files: [csvFile('a.csv', numberedBills(3))],
      now: clock(),
    });
    await runStoredImport(store, 'a1', clock);
    // Dataset b brings the same three bills and three more; it is cut off after its first chunk.
    await queueFilesImport(store, {
      datasetId: 'b',
      jobId: 'b1',
      files: [csvFile('b.csv', numberedBills(6))],
      now: clock(),
    });
    const tab = crashingOnSecondBillWrite(store);
    await expect(runStoredImport(tab, 'b1', clock, { chunkSize: 3 })).rejects.toThrow(
      'simulated crash',
    );
    await markInterruptedJobs(store, { now: clock() });
    expect((await allRows(store, 'bills')).map((bill) => bill.datasetIds)).toEqual([
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
    ]);
    // Dataset a is imported again without them: they stay, as dataset b's only.
    await queueFilesImport(store, {
      datasetId: 'a',
      jobId: 'a2',
      files: [csvFile('a.csv', [{ identifier: 'AB 100', title: 'Another act' }])],
      now: clock(),
    });
    expect((await runStoredImport(store, 'a2', clock)).result).toMatchObject({ removed: 3 });

    // Cancelling b's import takes them back; no dataset provides them, so they go.
    await cancelIdleJob(store, 'b1', clock());
    const bills = await allRows(store, 'bills');
    expect(bills.map((bill) => [bill.id, bill.datasetIds])).toEqual([
      [expect.stringContaining('ab-100') as unknown, ['a']],
    ]);
  });

  it('finds the bills of another dataset in a chunk even when many stored ids lie between them', async () => {
    const store = createMemoryLocalStore();
    const clock = testClock();
    await queueFilesImport(store, {
      datasetId: 'a',
      jobId: 'a1',
      files: [csvFile('a.csv', numberedBills(1000))],
      now: clock(),
    });
    await runStoredImport(store, 'a1', clock);
    // One chunk: three of a's bills spread over its whole range of ids (too many stored ids in
    // between to list them), then two bills nobody has.
    const shared = [1, 500, 999].map((n) => ({ identifier: `AB ${n}`, title: `Act number ${n}` }));
    await queueFilesImport(store, {
      datasetId: 'b',
      jobId: 'b1',
      files: [
        csvFile('b.csv', [
          ...shared,
          { identifier: 'AB 5000', title: 'New act' },
          { identifier: 'AB 5001', title: 'Another new act' },
        ]),
      ],
      now: clock(),
    });
    const job = await runStoredImport(store, 'b1', clock);
    expect(job.result).toEqual({ added: 5, updated: 0, unchanged: 0, removed: 0 });
    const bills = await allRows(store, 'bills');
    expect(bills).toHaveLength(1002);
    const membership = new Map(bills.map((bill) => [bill.title, bill.datasetIds]));
    for (const { title } of shared) expect(membership.get(title)).toEqual(['a', 'b']);
    expect(membership.get('New act')).toEqual(['b']);
    expect(membership.get('Act number 2')).toEqual(['a']);
  });

  it('a resume with files that changed meanwhile starts over', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('bills.csv', numberedBills(300))],
      now: now(),
    });
    const tab = crashingStore(store, (call) => call.transaction === 4);
    await expect(runStoredImport(tab, jobId, now, { chunkSize: 100 })).rejects.toThrow();
    await markInterruptedJobs(store, { now: now() });
    await requestResume(store, jobId);
    const job = await runStoredImport(store, jobId, now, {
      chunkSize: 100,
      loadInput: () =>
        Promise.resolve({
          files: [csvFile('bills.csv', numberedBills(250))],
          fingerprint: 'other files',
        }),
    });
    expect(job.status).toBe('done');
    expect(job.progress).toMatchObject({ recordsRead: 250, written: 250 });
    expect(await allRows(store, 'bills')).toHaveLength(250);
  });

  it('re-import updates in place and counts added, updated, unchanged and removed', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const first = [
      { identifier: 'AB 1', title: 'Stays the same' },
      { identifier: 'AB 2', title: 'Will change' },
      { identifier: 'AB 3', title: 'Will go' },
      { identifier: 'AB 4', title: 'Will go but another dataset has it' },
    ];
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('v1.csv', first)],
      now: now(),
    });
    expect((await runStoredImport(store, 'j1', now)).result).toEqual({
      added: 4,
      updated: 0,
      unchanged: 0,
      removed: 0,
    });
    await queueFilesImport(store, {
      datasetId: 'd2',
      jobId: 'j2',
      files: [csvFile('other.csv', first.slice(3))],
      now: now(),
    });
    expect((await runStoredImport(store, 'j2', now)).result).toMatchObject({ unchanged: 0 });
    const ab2Before = (await allRows(store, 'bills')).find((bill) => bill.identifier === 'AB 2');

    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j3',
      files: [
        csvFile('v2.csv', [
          { identifier: 'AB 1', title: 'Stays the same' },
          { identifier: 'AB 2', title: 'Has changed', status: 'enacted' },
          { identifier: 'AB 5', title: 'Is new' },
        ]),
      ],
      now: now(),
    });
    const job = await runStoredImport(store, 'j3', now);
    expect(job.result).toEqual({ added: 1, updated: 1, unchanged: 1, removed: 2 });
    expect(job.message).toBe('1 added, 1 updated, 1 unchanged, 2 removed');

    const bills = new Map((await allRows(store, 'bills')).map((bill) => [bill.identifier, bill]));
    expect([...bills.keys()].sort()).toEqual(['AB 1', 'AB 2', 'AB 4', 'AB 5']);
    expect(bills.get('AB 2')).toMatchObject({
      id: ab2Before?.id,
      title: 'Has changed',
      status: 'enacted',
    });
    expect(bills.get('AB 2')?.changeHash).not.toBe(ab2Before?.changeHash);
    expect(bills.get('AB 4')?.datasetIds).toEqual(['d2']);
    expect(bills.get('AB 1')?.datasetIds).toEqual(['d1']);
    const datasets = new Map((await allRows(store, 'datasets')).map((d) => [d.id, d]));
    expect(datasets.get('d1')?.billCount).toBe(3);
    // The first file is no longer used by the dataset, so it is no longer kept.
    expect((await allRows(store, 'datasetFiles')).map((file) => file.name).sort()).toEqual([
      'other.csv',
      'v2.csv',
    ]);
  });

  it('never touches the user’s tags, positions, decisions or annotations', async () => {
    const { store, now } = await importedStore(3);
    const bills = await allRows(store, 'bills');
    const [kept, dropped] = bills;
    if (!kept || !dropped) throw new Error('the import made no bills');
    const at = now();
    await store.write(['tags', 'billTags', 'positions', 'decisions', 'annotations'], async (tx) => {
      await tx.put('tags', {
        id: 't1',
        name: 'Water',
        color: '#112233',
        createdAt: at,
        updatedAt: at,
      });
      for (const bill of [kept, dropped]) {
        await tx.put('billTags', {
          id: `${bill.id}|t1`,
          billId: bill.id,
          tagId: 't1',
          createdAt: at,
        });
        await tx.put('positions', { billId: bill.id, position: 'support', updatedAt: at });
        await tx.put('decisions', { billId: bill.id, decision: 'track', decidedAt: at });
        await tx.put('annotations', {
          id: `a-${bill.id}`,
          billId: bill.id,
          quote: { exact: 'Act', prefix: '', suffix: ' number' },
          position: { start: 0, end: 3 },
          target: 'title',
          color: '#ffee00',
          note: 'Look at this',
          createdAt: at,
          updatedAt: at,
        });
      }
    });
    const userTables = ['tags', 'billTags', 'positions', 'decisions', 'annotations'] as const;
    const userRows = async () => Promise.all(userTables.map((table) => allRows(store, table)));
    const before = await userRows();

    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [
        csvFile('v2.csv', [
          { identifier: kept.identifier, title: 'A new title' },
          { identifier: 'AB 77', title: 'Another' },
        ]),
      ],
      now: now(),
    });
    const job = await runStoredImport(store, 'j2', now);
    expect(job.result).toEqual({ added: 1, updated: 1, unchanged: 0, removed: 2 });
    expect(await userRows()).toEqual(before);
  });

  it('reports bad records with the record and the reason, keeping a capped list and the count', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      // Errors are listed in the order the files are read.
      files: [
        { name: 'notes.bin', bytes: new Uint8Array([1, 2, 3]) },
        csvFile('bills.csv', [
          { identifier: 'AB 1', title: 'Good' },
          { identifier: 'AB 2', title: '' },
          { identifier: 'AB 3', title: '' },
          { identifier: 'not a bill number!', title: 'Bad number' },
        ]),
      ],
      now: now(),
    });
    const job = await runStoredImport(store, 'j1', now, { storedErrorLimit: 3 });
    expect(job.status).toBe('done');
    expect(job.progress).toMatchObject({ recordsRead: 4, written: 1, skipped: 3 });
    expect(job.errors).toHaveLength(3);
    expect(job.errors[0]).toEqual({
      record: 'notes.bin',
      reason: expect.stringMatching(/Not a known bill format/) as unknown,
    });
    expect(job.errors[1]?.record).toBe('row at line 3 (AB 2) in bills.csv');
    expect(job.errors[1]?.reason).toMatch(/title/);
    expect(job.message).toBe(
      '1 added, 0 updated, 0 unchanged, 0 removed; 4 errors (the first 3 are listed)',
    );
  });

  it('fails without changing anything when no bill can be read', async () => {
    const { store, now } = await importedStore(5);
    const before = await snapshot(store);
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [{ name: 'garbage.json', bytes: new Uint8Array([123, 125]) }],
      now: now(),
    });
    const job = await runStoredImport(store, 'j2', now);
    expect(job.status).toBe('failed');
    expect(job.message).toMatch(/^No bills found in the files: Not a known bill format/);
    const after = await snapshot(store);
    expect(after.bills).toEqual(before.bills);
    expect(after.importStaging).toEqual([]);
    expect(after.datasets[0]?.state).toBe('failed');
    expect(after.datasets[0]?.billCount).toBe(5);
  });

  it('fails with the loader’s message when the input cannot be had', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await saveDatasetAndQueueImport(store, {
      datasetId: 'd1',
      name: 'From the web',
      jurisdiction: null,
      session: null,
      source: { kind: 'url', url: 'https://example.org/bills.zip' },
      jobId: 'j1',
      now: now(),
      deviceId: 'device-a',
    });
    const job = await runStoredImport(store, 'j1', now, {
      loadInput: () =>
        Promise.reject(new Error('Could not download https://example.org/bills.zip: blocked')),
    });
    expect(job).toMatchObject({
      status: 'failed',
      message: 'Could not download https://example.org/bills.zip: blocked',
    });
    await requestRetry(store, 'j1');
    const retried = await runStoredImport(store, 'j1', now, {
      loadInput: () =>
        Promise.resolve({ files: [csvFile('b.csv', numberedBills(2))], fingerprint: 'x' }),
    });
    expect(retried.status).toBe('done');
    expect(retried.errors).toEqual([]);
  });

  it('leaves a job that is not queued alone', async () => {
    const { store, now } = await importedStore(2);
    const before = await jobOf(store, 'j1');
    expect(await runStoredImport(store, 'j1', now)).toEqual(before);
  });

  // Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
  // is absent (a checkout without shared/ beside it); CI always has it.
  it.runIf(fixturesRoot !== null)(
    'imports all 562 congress data.json fixtures in chunks',
    async () => {
      const store = createMemoryLocalStore();
      const now = testClock();
      await queueFilesImport(store, {
        datasetId: 'd1',
        jobId: 'j1',
        files: readFixtures('congress-json'),
        now: now(),
      });
      const job = await runStoredImport(store, 'j1', now);
      expect(job.status).toBe('done');
      expect(job.progress).toEqual({ recordsRead: 562, written: 562, skipped: 0, total: 562 });
      expect(await store.read(['bills'], (tx) => tx.count('bills'))).toBe(562);
    },
  );
  it.runIf(fixturesRoot !== null)(
    'bills that come twice (BILLSTATUS beside data.json) merge with what the import wrote, across a crash and resume',
    async () => {
      // The 52 sconres bills of the 116th Congress, each as XML and as data.json.
      const files = [
        ...readFixtures('billstatus-xml-116/116/bills/sconres'),
        ...readFixtures('congress-json/116/bills/sconres'),
      ];
      const queue = (store: LocalStore, now: () => string) =>
        queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files, now: now() });

      const reference = createMemoryLocalStore();
      const referenceClock = testClock();
      await queue(reference, referenceClock);
      const referenceJob = await runStoredImport(reference, 'j1', referenceClock, {
        chunkSize: 20,
      });
      expect(referenceJob.result).toEqual({ added: 52, updated: 0, unchanged: 0, removed: 0 });

      const device = createMemoryLocalStore();
      const clock = testClock();
      await queue(device, clock);
      // Chunks of 20 records (52 XML files, then 52 data.json): the 3rd and 4th merge data.json
      // bills into bills the XML wrote, the crash hits the 5th. Each chunk puts two staging rows
      // (its journal and the checkpoint), after the one that starts the journal.
      let puts = 0;
      const tab = crashingStore(
        device,
        (call) => call.table === 'importStaging' && call.method === 'put' && ++puts === 10,
      );
      await expect(runStoredImport(tab, 'j1', clock, { chunkSize: 20 })).rejects.toThrow(
        'simulated crash',
      );
      await markInterruptedJobs(device, { now: clock() });
      await requestResume(device, 'j1');
      expect((await jobOf(device, 'j1')).progress.recordsRead).toBe(80);
      const resumed = await runStoredImport(device, 'j1', clock, { chunkSize: 20 });

      expect(resumed.status).toBe('done');
      expect(resumed.result).toEqual(referenceJob.result);
      expect(resumed.progress).toEqual(referenceJob.progress);
      const bills = await allRows(device, 'bills');
      expect(bills).toEqual(await allRows(reference, 'bills'));
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      expect(bills.map(({ datasetIds: _, ...bill }) => bill).sort(byId)).toEqual(
        importBills(files).bills.sort(byId),
      );
      expect(await allRows(device, 'importStaging')).toEqual([]);
    },
    60_000,
  );
  warnIfFixturesAbsent();
});

describe("runImportJob with commit: 'one-transaction'", () => {
  const direct = { commit: 'one-transaction' } as const;

  /** Runs the same imports on two stores, journaled and in one transaction; both must agree. */
  async function bothWays(
    steps: { datasetId: string; jobId: string; files: CsvOrSample; chunkSize?: number }[],
  ) {
    const outcomes = [];
    for (const commit of ['journaled', 'one-transaction'] as const) {
      const store = createMemoryLocalStore();
      const now = testClock();
      const jobs: Job[] = [];
      for (const step of steps) {
        await queueFilesImport(store, { ...step, now: now() });
        jobs.push(
          await runStoredImport(store, step.jobId, now, {
            commit,
            chunkSize: step.chunkSize ?? 100,
          }),
        );
      }
      outcomes.push({ jobs, ...(await snapshot(store)) });
    }
    const [journaled, oneTransaction] = outcomes;
    const comparable = (outcome: typeof journaled) => ({
      ...outcome,
      jobs: outcome?.jobs.map(({ result, progress, errors, message, status }) => ({
        result,
        progress,
        errors,
        message,
        status,
      })),
    });
    expect(comparable(oneTransaction)).toEqual(comparable(journaled));
    return oneTransaction;
  }
  type CsvOrSample = Parameters<typeof queueFilesImport>[1]['files'];

  it('ends as the journaled import does: counts, merges, removals and re-imports', async () => {
    const outcome = await bothWays([
      { datasetId: 'd1', jobId: 'j1', files: [csvFile('a.csv', numberedBills(450))] },
      {
        datasetId: 'd2',
        jobId: 'j2',
        files: [csvFile('b.csv', numberedBills(30, 'Other act'))],
      },
      {
        datasetId: 'd1',
        jobId: 'j3',
        files: [
          csvFile('c.csv', [...numberedBills(200), { identifier: 'AB 9999', title: '' }]),
          csvFile('d.csv', numberedBills(40, 'Changed act').slice(20)),
        ],
      },
      {
        datasetId: 'd3',
        jobId: 'j4',
        files: [...readSamples('billstatus'), ...readSamples('congress-json')],
        chunkSize: 1,
      },
    ]);
    expect(outcome?.importStaging).toEqual([]);
    expect(outcome?.jobs.map((job) => job.status)).toEqual(['done', 'done', 'done', 'done']);
  });

  it('a cancel while reading leaves every table as it was', async () => {
    const { store, now } = await importedStore(300);
    const before = await snapshot(store);
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [csvFile('bills.csv', numberedBills(1000, 'Changed act'))],
      now: now(),
    });
    const signal = { aborted: false };
    const job = await runStoredImport(store, jobId, now, {
      ...direct,
      chunkSize: 100,
      signal,
      onProgress: (update) => {
        if (update.progress.recordsRead >= 300) signal.aborted = true;
      },
    });
    expect(job.status).toBe('cancelled');
    expect(job.message).toMatch(/cancelled/i);
    const after = await snapshot(store);
    expect(after.bills).toEqual(before.bills);
    expect(after.importStaging).toEqual([]);
  });

  it('a crash midway leaves `bills` as it was; resume starts over and ends the same', async () => {
    const files = [csvFile('bills.csv', numberedBills(450))];
    const { store: reference, job: referenceJob } = await referenceImport(files);

    const device = createMemoryLocalStore();
    const clock = testClock();
    const jobId = await queueFilesImport(device, {
      datasetId: 'd1',
      jobId: 'j1',
      files,
      now: clock(),
    });
    let calls = 0;
    const tab = crashingStore(device, (call) => {
      if (call.method !== 'putMany' || call.table !== 'bills') return false;
      calls++;
      return calls === 3;
    });
    await expect(runStoredImport(tab, jobId, clock, { ...direct, chunkSize: 100 })).rejects.toThrow(
      'simulated crash',
    );
    expect(await allRows(device, 'bills')).toEqual([]);
    expect((await jobOf(device, jobId)).status).toBe('running');

    await markInterruptedJobs(device, { now: clock() });
    await requestResume(device, jobId);
    const resumed = await runStoredImport(device, jobId, clock, { ...direct, chunkSize: 100 });
    expect(resumed.status).toBe('done');
    expect(resumed.result).toEqual(referenceJob.result);
    expect(resumed.progress).toEqual(referenceJob.progress);
    expect(await allRows(device, 'bills')).toEqual(await allRows(reference, 'bills'));
  });

  it('fails without changing anything when no bill can be read', async () => {
    const { store, now } = await importedStore(5);
    const before = await snapshot(store);
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [{ name: 'garbage.json', bytes: new Uint8Array([123, 125]) }],
      now: now(),
    });
    const job = await runStoredImport(store, 'j2', now, direct);
    expect(job.status).toBe('failed');
    expect(job.message).toMatch(/^No bills found in the files: Not a known bill format/);
    expect((await snapshot(store)).bills).toEqual(before.bills);
  });
});
