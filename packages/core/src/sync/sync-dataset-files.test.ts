import { describe, expect, it } from 'vitest';
import {
  datasetsNeedingImport,
  markInterruptedJobs,
  queueSyncedImport,
  saveDatasetAndQueueImport,
} from '../commands/dataset-commands.ts';
import type { Dataset } from '../store/local-records.ts';
import { sealEnvelope } from '../crypto/sync-crypto.ts';
import type { SyncProgress } from './sync-engine.ts';
import { SyncEngineError } from './sync-errors.ts';
import { createTag } from '../commands/tag-commands.ts';
import { rowsOf } from '../test-support/bill-command-harness.ts';
import {
  csvFile,
  numberedBills,
  runStoredImport,
  testClock,
} from '../test-support/dataset-import-harness.ts';
import {
  newDataKey,
  testDevice,
  USER,
  webCrypto,
  type TestDevice,
} from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const clock = testClock();

/** Adds a files dataset on a device as the add-dataset form does, and imports it there. */
async function addDataset(
  device: TestDevice,
  options: { id: string; name: string; bills: number; jurisdiction?: string },
): Promise<void> {
  const file = csvFile(`${options.id}.csv`, numberedBills(options.bills));
  const bytes = new Uint8Array(file.bytes);
  await saveDatasetAndQueueImport(device.store, {
    datasetId: options.id,
    name: options.name,
    jurisdiction: options.jurisdiction ?? null,
    session: null,
    source: { kind: 'files', files: [{ id: await sha256Hex(bytes), name: file.name, bytes }] },
    jobId: `${options.id}-job-${device.id}`,
    now: clock(),
    deviceId: device.id,
  });
  const job = await runStoredImport(device.store, `${options.id}-job-${device.id}`, clock);
  expect(job.status).toBe('done');
}

/** What sync leaves for the app to do: the imports of synced datasets, run here. */
async function importSynced(device: TestDevice): Promise<number> {
  let started = 0;
  for (const datasetId of await datasetsNeedingImport(device.store)) {
    const jobId = `${datasetId}-sync-${device.id}-${clock()}`;
    const job = await queueSyncedImport(device.store, { datasetId, jobId, now: clock() });
    if (job === null) continue;
    started++;
    expect((await runStoredImport(device.store, jobId, clock)).status).toBe('done');
  }
  return started;
}

async function billsOf(device: TestDevice, datasetId: string) {
  return (await rowsOf(device.store, 'bills'))
    .filter((bill) => bill.datasetIds.includes(datasetId))
    .map(({ id, title, changeHash }) => ({ id, title, changeHash }));
}

async function datasetOf(device: TestDevice, id: string): Promise<Dataset | undefined> {
  return (await rowsOf(device.store, 'datasets')).find((row) => row.id === id);
}

async function setup() {
  const log = new TestSyncLog();
  const key = await newDataKey();
  const a = await testDevice('device-a', log, key, 0);
  const b = await testDevice('device-b', log, key, 0);
  return { log, key, a, b };
}

describe('datasets across devices', () => {
  it('carries a dataset’s definition and files; the other device imports the same bills', async () => {
    const { log, a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California 2023', bills: 30 });
    const up = await a.sync({ limits: { blobPartBytes: 256 } });
    expect(up.filesUp).toBe(1);
    // Cut into parts, each its own blob on the server, none of it readable there.
    expect(log.blobs.size).toBeGreaterThan(3);
    const everything = decodeUtf8(
      new Uint8Array([...log.blobs.values()].flatMap((blob) => [...blob])),
    );
    expect(everything).not.toContain('Act number');

    const down = await b.sync();
    expect(down.filesDown).toBe(1);
    const arrived = await datasetOf(b, 'ca');
    expect(arrived).toMatchObject({ name: 'California 2023', needsImport: true, billCount: 0 });
    expect(await importSynced(b)).toBe(1);
    expect(await billsOf(b, 'ca')).toEqual(await billsOf(a, 'ca'));
    expect(await datasetOf(b, 'ca')).toMatchObject({
      state: 'ready',
      billCount: 30,
      needsImport: false,
    });
    // Nothing to do the second time round, on either device.
    expect((await b.sync()).filesDown).toBe(0);
    expect((await a.sync()).filesUp).toBe(0);
    expect(await importSynced(b)).toBe(0);
  });

  it('asks again for an import sync queued that a reload cut off, and leaves the user’s own to Resume', async () => {
    const { a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California', bills: 3 });
    await a.sync();
    await b.sync();
    // Queued, then the page reloads before it ran: the worker's start marks it interrupted.
    const first = await queueSyncedImport(b.store, { datasetId: 'ca', jobId: 'cut', now: clock() });
    expect(first).toMatchObject({ queuedBy: 'sync', status: 'queued' });
    expect(await datasetsNeedingImport(b.store)).toEqual(['ca']);
    await markInterruptedJobs(b.store, { now: clock() });
    expect(await datasetOf(b, 'ca')).toMatchObject({ needsImport: true, lastJobId: 'cut' });
    // The next round imports it without anyone pressing Resume, and the cut-off job is replaced.
    expect(await importSynced(b)).toBe(1);
    expect(await billsOf(b, 'ca')).toEqual(await billsOf(a, 'ca'));
    const jobs = await rowsOf(b.store, 'jobs');
    expect(jobs.find((job) => job.id === 'cut')).toMatchObject({ status: 'cancelled' });
    expect(await datasetsNeedingImport(b.store)).toEqual([]);
    // The user's own import, cut off the same way, waits for Resume.
    const file = csvFile('ny.csv', numberedBills(2));
    const bytes = new Uint8Array(file.bytes);
    await saveDatasetAndQueueImport(b.store, {
      datasetId: 'ny',
      name: 'New York',
      jurisdiction: null,
      session: null,
      source: { kind: 'files', files: [{ id: await sha256Hex(bytes), name: file.name, bytes }] },
      jobId: 'own',
      now: clock(),
      deviceId: b.id,
    });
    await markInterruptedJobs(b.store, { now: clock() });
    expect((await rowsOf(b.store, 'jobs')).find((job) => job.id === 'own')).toMatchObject({
      status: 'interrupted',
    });
    expect((await datasetOf(b, 'ny'))?.needsImport).not.toBe(true);
    expect(await datasetsNeedingImport(b.store)).toEqual([]);
  });

  it('says how many files it has moved out of how many, up and down', async () => {
    const { a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California', bills: 3 });
    await addDataset(a, { id: 'ny', name: 'New York', bills: 2 });
    const filesProgress = (progress: SyncProgress[], phase: SyncProgress['phase']) =>
      progress.filter((p) => p.phase === phase).map((p) => `${p.done}/${p.total}`);
    const up: SyncProgress[] = [];
    await a.sync({ onProgress: (p) => up.push(p) });
    expect(filesProgress(up, 'upload-files')).toEqual(['0/2', '1/2', '2/2']);
    const down: SyncProgress[] = [];
    await b.sync({ onProgress: (p) => down.push(p) });
    expect(filesProgress(down, 'download-files')).toEqual(['0/2', '1/2', '2/2']);
    // Nothing to move: no file progress at all.
    const again: SyncProgress[] = [];
    await a.sync({ onProgress: (p) => again.push(p) });
    expect(again.filter((p) => p.phase.endsWith('-files'))).toEqual([]);
  });

  it('keeps each device’s import state its own, and a rename needs no import', async () => {
    const { a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California', bills: 3 });
    await a.sync();
    await b.sync();
    await importSynced(b);
    await saveDatasetAndQueueImport(b.store, {
      datasetId: 'ca',
      name: 'California, renamed on B',
      jurisdiction: null,
      session: null,
      source: { kind: 'unchanged' },
      jobId: 'rename-job',
      now: clock(),
      deviceId: b.id,
    });
    await runStoredImport(b.store, 'rename-job', clock);
    await b.sync();
    const before = await datasetOf(a, 'ca');
    await a.sync();
    expect(await datasetOf(a, 'ca')).toEqual({
      ...before,
      name: 'California, renamed on B',
      updatedAt: expect.any(String) as unknown,
    });
    expect(await datasetsNeedingImport(a.store)).toEqual([]);
  });

  it('a new override on one device makes the other import again', async () => {
    const { a, b } = await setup();
    await addDataset(a, { id: 'ds', name: 'Bills', bills: 2 });
    await a.sync();
    await b.sync();
    await importSynced(b);
    expect((await rowsOf(b.store, 'bills')).map((bill) => bill.jurisdiction)).toEqual([
      'us-ca',
      'us-ca',
    ]);
    await saveDatasetAndQueueImport(a.store, {
      datasetId: 'ds',
      name: 'Bills',
      jurisdiction: 'us-ny',
      session: null,
      source: { kind: 'unchanged' },
      jobId: 'override-job',
      now: clock(),
      deviceId: a.id,
    });
    await runStoredImport(a.store, 'override-job', clock);
    await a.sync();
    await b.sync();
    expect(await datasetsNeedingImport(b.store)).toEqual(['ds']);
    await importSynced(b);
    expect(await billsOf(b, 'ds')).toEqual(await billsOf(a, 'ds'));
  });

  it('a tampered part is reported, stores nothing, and the rest of sync goes on', async () => {
    const { log, a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California', bills: 5 });
    await a.sync({ limits: { blobPartBytes: 100 } });
    const [address, bytes] = [...log.blobs.entries()][1] ?? [];
    if (address === undefined || bytes === undefined) throw new Error('no second part');
    const altered = new Uint8Array(bytes);
    altered[20] = (altered[20] ?? 0) ^ 1;
    log.blobs.set(address, altered);
    await createTag(a.context, { name: 'Housing', color: '#336699' });
    await a.sync();

    const report = await b.sync();
    expect(report.fileProblems).toEqual([
      expect.stringContaining('ca.csv of a synced dataset could not be fetched') as unknown,
    ]);
    expect(report.fileProblems[0]).toContain('integrity check');
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);
    expect((await rowsOf(b.store, 'tags')).map((tag) => tag.name)).toEqual(['Housing']);
    // The dataset waits for its file; it is not imported half.
    expect(await importSynced(b)).toBe(0);
    expect(await datasetsNeedingImport(b.store)).toEqual(['ca']);

    log.blobs.set(address, bytes);
    expect((await b.sync()).filesDown).toBe(1);
    expect(await importSynced(b)).toBe(1);
  });

  it('a part missing on the server is reported and fetched once it is there', async () => {
    const { log, a, b } = await setup();
    await addDataset(a, { id: 'ca', name: 'California', bills: 2 });
    await a.sync();
    const [address, bytes] = [...log.blobs.entries()][0] ?? [];
    if (address === undefined || bytes === undefined) throw new Error('no blob');
    log.blobs.delete(address);
    expect((await b.sync()).fileProblems[0]).toContain('is not on the server');
    log.blobs.set(address, bytes);
    expect((await b.sync()).filesDown).toBe(1);
  });

  it('a dataset made before datasets synced is sent whole on the next sync', async () => {
    const { a, b } = await setup();
    await addDataset(a, { id: 'old', name: 'From before', bills: 2 });
    // As an older version left it: the row without its sync state or outbox entry.
    await a.store.write(['syncState', 'outbox'], async (tx) => {
      await tx.deleteMany('syncState', await tx.keys('syncState'));
      await tx.deleteMany('outbox', await tx.keys('outbox'));
    });
    await a.sync();
    await b.sync();
    expect(await datasetOf(b, 'old')).toMatchObject({ name: 'From before', needsImport: true });
    expect(await importSynced(b)).toBe(1);
  });

  it('refuses a change that sets a dataset’s local fields', async () => {
    const { log, key, b } = await setup();
    const batchId = 'device-x.local.1';
    const ciphertext = await sealEnvelope(
      webCrypto,
      key,
      encodeUtf8(
        JSON.stringify({
          format: 'docket-changes',
          version: 1,
          changes: [
            {
              id: '001736942400000-0000-device-x',
              table: 'datasets',
              rowId: 'ds',
              op: 'put',
              fields: { billCount: { value: 99, hlc: '001736942400000-0000-device-x' } },
            },
          ],
        }),
      ),
      { userId: USER, epoch: 0, batchId },
    );
    log.push({
      batchId,
      deviceId: 'device-x',
      epoch: 0,
      envelopes: [{ id: '001736942400000-0000-device-x', ciphertext }],
    });
    const failure = await b.sync().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SyncEngineError);
    expect((failure as SyncEngineError).code).toBe('invalid-change');
    expect((failure as SyncEngineError).message).toContain('billCount of datasets does not sync');
    expect(await rowsOf(b.store, 'datasets')).toEqual([]);
  });
});
