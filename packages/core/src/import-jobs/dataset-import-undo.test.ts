import { describe, expect, it } from 'vitest';
import {
  cancelIdleJob,
  markInterruptedJobs,
  requestResume,
  requestRetry,
} from '../commands/dataset-commands.ts';
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
  crashingOnSecondBillWrite,
  importedStore,
  jobOf,
  referenceImport,
  snapshot,
} from '../test-support/import-job-checks.ts';

// runImportJob cut short: cancels, closed tabs, retries, resumes, and the undo each takes.

describe('runImportJob cut short', () => {
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
});
