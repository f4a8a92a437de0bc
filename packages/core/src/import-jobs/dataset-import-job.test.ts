import { describe, expect, it } from 'vitest';
import { importBills } from '../importers/bill-import.ts';
import {
  markInterruptedJobs,
  requestResume,
  requestRetry,
  saveDatasetAndQueueImport,
} from '../commands/dataset-commands.ts';
import type { Job } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalStore, TableName } from '../store/local-store.ts';
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
import { importedStore, jobOf, snapshot } from '../test-support/import-job-checks.ts';

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
    expect(bills.map(({ datasetIds: _, deckKeys: _keys, ...bill }) => bill).sort(byId)).toEqual(
      importBills(files).bills.sort(byId),
    );
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
    expect(job.result).toEqual({ added: 1, updated: 1, unchanged: 1, removed: 2, changed: 1 });
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

  it('a partial import (a refresh of the changed bills) reads only its bills, keeps the others and counts them, also once resumed', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('v1.csv', numberedBills(1000))],
      now: now(),
    });
    expect((await runStoredImport(store, 'j1', now)).result).toMatchObject({ added: 1000 });
    // What a source that says which bills changed gives: five changed, one new, one as it was.
    const refresh = {
      files: [
        csvFile('changed.csv', [
          ...numberedBills(5).map((bill) => ({ ...bill, status: 'enacted' })),
          { identifier: 'AB 7', title: 'Act number 7' },
          { identifier: 'AB 5001', title: 'A new act' },
        ]),
      ],
      fingerprint: 'changed since the last import',
      partial: true,
    };
    // Which indexes the import asks about: a partial one must not read the dataset's bills.
    const asked: string[] = [];
    const watch = <T extends LocalReadTransaction>(tx: T): T => ({
      ...tx,
      where: (table: TableName, index: string, value: unknown) => {
        asked.push(`${table}.${index}`);
        return tx.where(table as never, index as never, value as never);
      },
    });
    const watched: LocalStore = {
      read: (tables, body) => store.read(tables, (tx) => body(watch(tx))),
      write: (tables, body) => store.write(tables, (tx) => body(watch(tx))),
      close: () => {
        store.close();
      },
    };
    const expected = { added: 1, updated: 5, unchanged: 1, removed: 0, changed: 5 };

    for (const [jobId, crash] of [
      ['j2', true],
      ['j3', false],
    ] as const) {
      asked.length = 0;
      await queueFilesImport(store, {
        datasetId: 'd1',
        jobId,
        files: [csvFile(`${jobId}.csv`, numberedBills(1))],
        now: now(),
      });
      if (crash) {
        // Cut off after its first chunk of two bills, then resumed.
        let chunks = 0;
        const tab = crashingStore(watched, (call) => {
          if (call.table !== 'bills' || call.method !== 'putMany') return false;
          chunks++;
          return chunks === 2;
        });
        await expect(
          runStoredImport(tab, jobId, now, {
            chunkSize: 2,
            loadInput: () => Promise.resolve(refresh),
          }),
        ).rejects.toThrow('simulated crash');
        await markInterruptedJobs(store, { now: now() });
        await requestResume(store, jobId);
      }
      const job = await runStoredImport(watched, jobId, now, {
        chunkSize: 2,
        loadInput: () => Promise.resolve(refresh),
      });
      expect(job.status, job.message ?? '').toBe('done');
      // Resumed, it counts as if it had never stopped; run again, nothing is new.
      expect(job.result).toEqual(
        jobId === 'j2' ? expected : { added: 0, updated: 0, unchanged: 7, removed: 0 },
      );
      expect(asked).not.toContain('bills.datasetIds');
      const bills = await allRows(store, 'bills');
      expect(bills).toHaveLength(1001);
      expect(bills.filter((bill) => bill.status === 'enacted')).toHaveLength(5);
      const [dataset] = await allRows(store, 'datasets');
      expect(dataset?.billCount).toBe(1001);
    }
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
    expect(job.result).toEqual({ added: 1, updated: 1, unchanged: 0, removed: 2, changed: 1 });
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

  it('shows a download’s progress as the job’s message, and ends the download once cancelled', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await saveDatasetAndQueueImport(store, {
      datasetId: 'd1',
      name: 'From an API',
      jurisdiction: null,
      session: null,
      source: { kind: 'url', url: 'https://example.org/bills.zip' },
      jobId: 'j1',
      now: now(),
      deviceId: 'device-a',
    });
    const seen: (string | null)[] = [];
    const job = await runStoredImport(store, 'j1', now, {
      onProgress: (row) => seen.push(row.message),
      loadInput: async (_dataset, progress) => {
        for (let bill = 1; bill <= 3; bill++) {
          await progress(`Reading bill ${bill} of 3`);
          const row = await store.read(['jobs'], (tx) => tx.get('jobs', 'j1'));
          expect(row?.message).toBe(`Reading bill ${bill} of 3`);
        }
        return { files: [csvFile('b.csv', numberedBills(2))], fingerprint: 'x' };
      },
    });
    expect(job.status).toBe('done');
    expect(seen).toEqual(expect.arrayContaining(['Reading bill 1 of 3', 'Reading bill 3 of 3']));

    await saveDatasetAndQueueImport(store, {
      datasetId: 'd2',
      name: 'A long one',
      jurisdiction: null,
      session: null,
      source: { kind: 'url', url: 'https://example.org/more.zip' },
      jobId: 'j2',
      now: now(),
      deviceId: 'device-a',
    });
    // Core has no DOM: a CancelSignal of its own, as the worker's AbortSignal is one.
    const signal = { aborted: false };
    let asked = 0;
    const cancelled = await runStoredImport(store, 'j2', now, {
      signal,
      loadInput: async (_dataset, progress) => {
        for (let bill = 1; bill <= 800; bill++) {
          await progress(`Reading bill ${bill} of 800`);
          asked++;
          if (bill === 2) signal.aborted = true;
        }
        return { files: [], fingerprint: 'never' };
      },
    });
    expect(cancelled.status).toBe('cancelled');
    expect(asked).toBe(2);
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

  // The same: real files, skipped only where ../shared/fixtures is absent.
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
      expect(bills.map(({ datasetIds: _, deckKeys: _keys, ...bill }) => bill).sort(byId)).toEqual(
        importBills(files).bills.sort(byId),
      );
      expect(await allRows(device, 'importStaging')).toEqual([]);
    },
    60_000,
  );
  warnIfFixturesAbsent();
});
