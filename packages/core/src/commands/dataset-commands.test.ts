import { describe, expect, it } from 'vitest';
import type { DatasetFormValues } from './dataset-commands.ts';
import { saveVersionText } from '../text/version-text-rows.ts';
import {
  cancelIdleJob,
  DatasetCommandError,
  deleteDataset,
  isHttpUrl,
  loadStoredDatasetFiles,
  markInterruptedJobs,
  previewDatasetDeletion,
  requestResume,
  requestRetry,
  saveDatasetAndQueueImport,
  validateDatasetForm,
} from './dataset-commands.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { legiscanRefreshSetting } from '../import-jobs/dataset-removal.ts';
import {
  allRows,
  crashingStore,
  csvFile,
  numberedBills,
  queueFilesImport,
  runStoredImport,
  testClock,
} from '../test-support/dataset-import-harness.ts';

const form = (values: Partial<DatasetFormValues>): DatasetFormValues => ({
  name: 'Congress',
  url: '',
  jurisdiction: '',
  session: '',
  pickedFileCount: 1,
  storedFileCount: 0,
  ...values,
});

describe('validateDatasetForm', () => {
  it('accepts a name with files, or a name with an http(s) URL', () => {
    expect(validateDatasetForm(form({}))).toEqual({});
    expect(
      validateDatasetForm(form({ pickedFileCount: 0, url: 'https://example.org/a.zip' })),
    ).toEqual({});
    expect(validateDatasetForm(form({ pickedFileCount: 0, storedFileCount: 3 }))).toEqual({});
  });

  it('asks for a name, for files or a URL, and for a web URL', () => {
    expect(validateDatasetForm(form({ name: '  ', pickedFileCount: 0 }))).toEqual({
      name: 'Enter a name for the dataset.',
      source: 'Choose files or a folder, or enter a URL.',
    });
    expect(validateDatasetForm(form({ pickedFileCount: 0, url: 'ftp://example.org/x' }))).toEqual({
      url: 'The URL must be a web address starting with http:// or https://.',
    });
    expect(validateDatasetForm(form({ url: 'https://example.org/x' })).source).toBe(
      'Choose files or a URL, not both.',
    );
    expect(validateDatasetForm(form({ name: 'x'.repeat(201) })).name).toMatch(/too long/);
  });

  it('checks the optional overrides', () => {
    expect(validateDatasetForm(form({ jurisdiction: 'California', session: '2023' }))).toEqual({});
    expect(validateDatasetForm(form({ jurisdiction: 'Atlantis' })).jurisdiction).toMatch(
      /Not a jurisdiction/,
    );
    expect(validateDatasetForm(form({ session: 's'.repeat(101) })).session).toMatch(/too long/);
  });

  it('knows a web address', () => {
    expect(isHttpUrl('http://localhost:8080/bills.json')).toBe(true);
    expect(isHttpUrl('https://www.govinfo.gov/bulkdata/BILLSTATUS/118/hr.zip')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'https://', 'https://a b', 'file:///etc/passwd']) {
      expect(isHttpUrl(bad), bad).toBe(false);
    }
  });
});

describe('saveDatasetAndQueueImport', () => {
  it('stores the dataset, its files and a queued job together', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const file = csvFile('a.csv', numberedBills(2));
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [file, file],
      now: now(),
      jurisdiction: ' CA ',
      session: ' 2023 ',
    });
    const [dataset] = await allRows(store, 'datasets');
    expect(dataset).toMatchObject({
      id: 'd1',
      jurisdiction: 'us-ca',
      session: '2023',
      state: 'new',
      billCount: 0,
      lastJobId: 'j1',
      lastImportAt: null,
    });
    // The same bytes picked twice are kept once.
    expect(dataset?.origin).toMatchObject({ kind: 'files' });
    expect(dataset?.origin.kind === 'files' && dataset.origin.fileIds).toHaveLength(1);
    expect(await allRows(store, 'datasetFiles')).toHaveLength(1);
    expect(await allRows(store, 'jobs')).toMatchObject([
      { id: 'j1', kind: 'import', subjectId: 'd1', status: 'queued' },
    ]);
    if (!dataset) throw new Error('no dataset stored');
    const input = await loadStoredDatasetFiles(store, dataset);
    expect(input.files.map((f) => f.name)).toEqual(['a.csv']);
  });

  it('is all or nothing', async () => {
    const store = createMemoryLocalStore();
    const tab = crashingStore(store, (call) => call.table === 'jobs');
    await expect(
      queueFilesImport(tab, {
        datasetId: 'd1',
        jobId: 'j1',
        files: [csvFile('a.csv', numberedBills(2))],
        now: '2025-01-01T00:00:00.000Z',
      }),
    ).rejects.toThrow('simulated crash');
    expect(await allRows(store, 'datasetFiles')).toEqual([]);
    expect(await allRows(store, 'datasets')).toEqual([]);
  });

  it('keeps a file two datasets share when one of them lets go of it', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const shared = csvFile('shared.csv', numberedBills(2));
    await queueFilesImport(store, { datasetId: 'd1', jobId: 'j1', files: [shared], now: now() });
    await queueFilesImport(store, { datasetId: 'd2', jobId: 'j2', files: [shared], now: now() });
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j3',
      files: [csvFile('new.csv', numberedBills(3))],
      now: now(),
    });
    expect((await allRows(store, 'datasetFiles')).map((f) => f.name).sort()).toEqual([
      'new.csv',
      'shared.csv',
    ]);
  });

  it('replaces a waiting or interrupted job of the dataset, and refuses while one runs', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('a.csv', numberedBills(2))],
      now: now(),
    });
    await saveDatasetAndQueueImport(store, {
      datasetId: 'd1',
      name: 'Renamed',
      jurisdiction: null,
      session: null,
      source: { kind: 'unchanged' },
      jobId: 'j2',
      now: now(),
      deviceId: 'device-a',
    });
    const jobs = new Map((await allRows(store, 'jobs')).map((job) => [job.id, job]));
    expect(jobs.get('j1')).toMatchObject({
      status: 'cancelled',
      message: 'Replaced by a newer import.',
    });
    expect(jobs.get('j2')?.status).toBe('queued');
    expect((await allRows(store, 'datasets'))[0]?.name).toBe('Renamed');

    await store.write(['jobs'], async (tx) => {
      const job = await tx.get('jobs', 'j2');
      if (job) await tx.put('jobs', { ...job, status: 'running' });
    });
    await expect(
      saveDatasetAndQueueImport(store, {
        datasetId: 'd1',
        name: 'Again',
        jurisdiction: null,
        session: null,
        source: { kind: 'unchanged' },
        jobId: 'j3',
        now: now(),
        deviceId: 'device-a',
      }),
    ).rejects.toThrow(DatasetCommandError);
  });

  it('refuses a new dataset without a source and a bad URL', async () => {
    const store = createMemoryLocalStore();
    const base = {
      datasetId: 'd1',
      name: 'x',
      jurisdiction: null,
      session: null,
      jobId: 'j1',
      now: '2025-01-01T00:00:00.000Z',
      deviceId: 'device-a',
    };
    await expect(
      saveDatasetAndQueueImport(store, { ...base, source: { kind: 'unchanged' } }),
    ).rejects.toThrow(DatasetCommandError);
    await expect(
      saveDatasetAndQueueImport(store, { ...base, source: { kind: 'url', url: 'ftp://x/y' } }),
    ).rejects.toThrow(/http/);
    await expect(
      saveDatasetAndQueueImport(store, {
        ...base,
        jurisdiction: 'Atlantis',
        source: { kind: 'url', url: 'https://x.org/y' },
      }),
    ).rejects.toThrow(/jurisdiction/);
    expect(await allRows(store, 'datasets')).toEqual([]);
  });
});

describe('job state commands', () => {
  it('marks jobs left running or queued as interrupted, except those still alive', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    for (const id of ['1', '2', '3']) {
      await queueFilesImport(store, {
        datasetId: `d${id}`,
        jobId: `j${id}`,
        files: [csvFile(`${id}.csv`, numberedBills(1))],
        now: now(),
      });
    }
    await runStoredImport(store, 'j3', now);
    const marked = await markInterruptedJobs(store, { now: now(), isAlive: (id) => id === 'j2' });
    expect(marked.map((job) => job.id)).toEqual(['j1']);
    const jobs = new Map((await allRows(store, 'jobs')).map((job) => [job.id, job.status]));
    expect(Object.fromEntries(jobs)).toEqual({ j1: 'interrupted', j2: 'queued', j3: 'done' });
  });

  it('resumes only interrupted jobs and retries only finished-badly ones', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('a.csv', numberedBills(1))],
      now: now(),
    });
    await expect(requestResume(store, 'j1')).rejects.toThrow(DatasetCommandError);
    await expect(requestRetry(store, 'j1')).rejects.toThrow(DatasetCommandError);
    await markInterruptedJobs(store, { now: now() });
    expect((await requestResume(store, 'j1')).status).toBe('queued');
    await markInterruptedJobs(store, { now: now() });
    const cancelled = await cancelIdleJob(store, 'j1', now());
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    const retried = await requestRetry(store, 'j1');
    expect(retried).toMatchObject({ status: 'queued', progress: { recordsRead: 0 }, errors: [] });
    expect((await runStoredImport(store, 'j1', now)).status).toBe('done');
  });
});

describe('deleteDataset', () => {
  /** d1 has AB 1–3 in its own file; d2 has AB 3–4 (AB 3 is in both) and shares d1's file. */
  async function twoDatasets() {
    const store = createMemoryLocalStore();
    const now = testClock();
    const own = csvFile('own.csv', numberedBills(3));
    const shared = csvFile('shared.csv', [{ identifier: 'AB 9', title: 'Shared act' }]);
    const other = csvFile('other.csv', [
      { identifier: 'AB 3', title: 'Act number 3' },
      { identifier: 'AB 4', title: 'Act number 4' },
    ]);
    const j1 = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [own, shared],
      now: now(),
      name: 'California 2023',
    });
    expect((await runStoredImport(store, j1, now)).status).toBe('done');
    const j2 = await queueFilesImport(store, {
      datasetId: 'd2',
      jobId: 'j2',
      files: [other, shared],
      now: now(),
    });
    expect((await runStoredImport(store, j2, now)).status).toBe('done');
    return { store, now };
  }

  it('says first how many bills go and how many stay', async () => {
    const { store } = await twoDatasets();
    // AB 1 and AB 2 are d1's alone; AB 3 and AB 9 come from d2 too.
    expect(await previewDatasetDeletion(store, 'd1')).toEqual({ billsRemoved: 2, billsKept: 2 });
    expect(await allRows(store, 'bills')).toHaveLength(5);
  });

  it('takes away the bills only it provides, its jobs and its unshared files, and syncs', async () => {
    const { store, now } = await twoDatasets();

    const removal = await deleteDataset(store, {
      datasetId: 'd1',
      deviceId: 'device-a',
      now: now(),
    });

    expect(removal).toEqual({ billsRemoved: 2, billsKept: 2, name: 'California 2023' });
    const bills = await allRows(store, 'bills');
    expect(bills.map((bill) => [bill.identifier, bill.datasetIds])).toEqual([
      ['AB 3', ['d2']],
      ['AB 4', ['d2']],
      ['AB 9', ['d2']],
    ]);
    expect((await allRows(store, 'datasets')).map((d) => d.id)).toEqual(['d2']);
    expect((await allRows(store, 'jobs')).map((job) => job.subjectId)).toEqual(['d2']);
    expect((await allRows(store, 'datasetFiles')).map((f) => f.name).sort()).toEqual([
      'other.csv',
      'shared.csv',
    ]);
    const outbox = await allRows(store, 'outbox');
    expect(outbox.filter((entry) => entry.table === 'datasets').at(-1)).toMatchObject({
      rowId: 'd1',
      op: 'delete',
    });
  });

  it('takes the text versions fetched for the bills that go, not for those that stay', async () => {
    const { store, now } = await twoDatasets();
    const bills = await allRows(store, 'bills');
    const idOf = (identifier: string) =>
      bills.find((bill) => bill.identifier === identifier)?.id ?? '';
    for (const identifier of ['AB 1', 'AB 3']) {
      await saveVersionText(store, {
        billId: idOf(identifier),
        index: 0,
        url: `https://leginfo.example.gov/${identifier}.htm`,
        format: 'html',
        text: { text: `${identifier}. An act.`, headings: [] },
        fetchedAt: now(),
      });
    }

    await deleteDataset(store, { datasetId: 'd1', deviceId: 'device-a', now: now() });

    expect((await allRows(store, 'versionTexts')).map((row) => row.billId)).toEqual([idOf('AB 3')]);
  });

  it("forgets the LegiScan refresh state this device kept for it, not another dataset's", async () => {
    const { store, now } = await twoDatasets();
    const kept = { token: 't', datasetHash: 'h', datasetDate: null, perBillAt: null, bills: {} };
    await store.write(['settings'], async (tx) => {
      await tx.put('settings', { key: legiscanRefreshSetting('d1'), value: kept });
      await tx.put('settings', { key: legiscanRefreshSetting('d2'), value: kept });
    });

    await deleteDataset(store, { datasetId: 'd1', deviceId: 'device-a', now: now() });

    const keys = (await allRows(store, 'settings')).map((row) => row.key);
    expect(keys).not.toContain(legiscanRefreshSetting('d1'));
    expect(keys).toContain(legiscanRefreshSetting('d2'));
  });

  it('refuses while its import runs, and a dataset that is gone, changing nothing', async () => {
    const { store, now } = await twoDatasets();
    await store.write(['jobs'], async (tx) => {
      const job = await tx.get('jobs', 'j1');
      if (job) await tx.put('jobs', { ...job, status: 'running' });
    });
    const before = await allRows(store, 'bills');

    await expect(
      deleteDataset(store, { datasetId: 'd1', deviceId: 'device-a', now: now() }),
    ).rejects.toThrow(/"California 2023" is being imported/);
    await expect(
      deleteDataset(store, { datasetId: 'nope', deviceId: 'device-a', now: now() }),
    ).rejects.toBeInstanceOf(DatasetCommandError);

    expect(await allRows(store, 'bills')).toEqual(before);
    expect(await allRows(store, 'datasets')).toHaveLength(2);
  });

  it('is all or nothing', async () => {
    const { store, now } = await twoDatasets();
    const before = await allRows(store, 'bills');
    const tab = crashingStore(store, (call) => call.table === 'outbox');

    await expect(
      deleteDataset(tab, { datasetId: 'd1', deviceId: 'device-a', now: now() }),
    ).rejects.toThrow('simulated crash');

    expect(await allRows(store, 'bills')).toEqual(before);
    expect(await allRows(store, 'datasets')).toHaveLength(2);
  });
});
