import { describe, expect, it } from 'vitest';
import { buildBackupContents } from '../backups/backup-contents.ts';
import { applyRestore } from '../backups/backup-restore.ts';
import {
  deleteDataset,
  queueSyncedImport,
  saveDatasetAndQueueImport,
} from '../commands/dataset-commands.ts';
import { openFullBackup } from '../full-backups/full-backup-reader.ts';
import { mergeFullBackup } from '../full-backups/full-backup-merge.ts';
import type { Dataset } from '../store/local-records.ts';
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
import { prepareResetUpload, revertToNewEpoch } from './sync-reset.ts';
import { unavailableFiles } from './sync-dataset-files-unavailable.ts';

// Issue 37, "Nothing lost": a dataset whose files no device will send is marked as such after a
// sync, instead of waiting for them for ever; the mark goes once they arrive.

const clock = testClock();

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function addFilesDataset(device: TestDevice, id: string, bills = 3) {
  const file = csvFile(`${id}-0.csv`, numberedBills(bills));
  const bytes = new Uint8Array(file.bytes);
  const picked = { id: await sha256Hex(bytes), name: file.name, bytes };
  await saveDatasetAndQueueImport(device.store, {
    datasetId: id,
    name: id,
    jurisdiction: null,
    session: null,
    source: { kind: 'files', files: [picked] },
    jobId: `${id}-job-${device.id}`,
    now: clock(),
    deviceId: device.id,
  });
  expect((await runStoredImport(device.store, `${id}-job-${device.id}`, clock)).status).toBe(
    'done',
  );
  return picked;
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

describe('a dataset whose files cannot come', () => {
  it('is marked after one sync when restored from a server backup made before it was deleted, and stays deleted once removed', async () => {
    const { a, b } = await setup();
    await addFilesDataset(a, 'ca');
    await a.sync();
    const contents = await buildBackupContents(a.store, clock());
    await deleteDataset(a.store, { datasetId: 'ca', deviceId: a.id, now: clock() });
    await a.sync();

    // B restores the backup: the definition comes back, its files do not (a backup holds none).
    await b.sync();
    await applyRestore(b.store, contents, 'merge', {
      deviceId: b.id,
      nowMs: Date.parse(clock()),
      safetyCopyId: 'safety-b',
      backupName: 'Weekly',
    });
    await b.sync();
    expect((await datasetOf(b, 'ca'))?.filesUnavailable).toEqual({
      reason: 'not-sent',
      missing: 1,
    });
    expect(await queueSyncedImport(b.store, { datasetId: 'ca', jobId: 'b-1', now: clock() })).toBe(
      null,
    );
    // A, which deleted it, gets the restored definition too, and says the same.
    await a.sync();
    expect((await datasetOf(a, 'ca'))?.filesUnavailable?.reason).toBe('not-sent');

    // Remove on B: gone from both, and the next syncs do not bring it back.
    await deleteDataset(b.store, { datasetId: 'ca', deviceId: b.id, now: clock() });
    await b.sync();
    await a.sync();
    await b.sync();
    expect(await rowsOf(a.store, 'datasets')).toEqual([]);
    expect(await rowsOf(b.store, 'datasets')).toEqual([]);
  });

  it('says which file could not be fetched, then clears the mark and asks for the import once it arrives', async () => {
    const { log, a, b } = await setup();
    await addFilesDataset(a, 'ca');
    await a.sync();
    const saved = new Map(log.blobs);
    log.blobs.clear();
    expect((await b.sync()).fileProblems).toHaveLength(1);
    expect((await datasetOf(b, 'ca'))?.filesUnavailable).toEqual({
      reason: 'not-fetched',
      missing: 1,
      file: 'ca-0.csv',
      problem: 'part 1 is not on the server',
    });

    for (const [address, bytes] of saved) log.blobs.set(address, bytes);
    expect((await b.sync()).filesDown).toBe(1);
    const dataset = await datasetOf(b, 'ca');
    expect(dataset?.filesUnavailable).toBeUndefined();
    expect(dataset?.needsImport).toBe(true);
    expect(
      await queueSyncedImport(b.store, { datasetId: 'ca', jobId: 'b-1', now: clock() }),
    ).not.toBeNull();
    expect((await runStoredImport(b.store, 'b-1', clock)).status).toBe('done');
    expect(await rowsOf(b.store, 'bills')).toHaveLength(3);
    // The mark is this device's own: it never went to the other device.
    expect((await datasetOf(a, 'ca'))?.filesUnavailable).toBeUndefined();
    expect(
      (await rowsOf(b.store, 'outbox')).some((entry) => 'filesUnavailable' in (entry.fields ?? {})),
    ).toBe(false);
  });

  it('after "Bring back my changes" of a reset, says no device sent the files since, until one does', async () => {
    const { log, a, b } = await setup();
    const picked = await addFilesDataset(a, 'ca');
    await a.sync();
    await b.sync();
    // B resets the cloud password; A reverts to it, its dataset saved in the copy of its work.
    const newKey = await newDataKey();
    log.keyEpoch = 1;
    const epochStartSeqno = log.changes.length;
    await revertToNewEpoch(b.store, {
      userId: USER,
      epoch: 1,
      epochStartSeqno,
      nowMs: Date.parse(clock()),
      backupId: 'backup-b',
    });
    await prepareResetUpload(b.store, {
      userId: USER,
      deviceId: b.id,
      epoch: 1,
      epochStartSeqno,
      nowMs: Date.parse(clock()),
    });
    await b.sync({ dataKey: newKey, epochStartSeqno });
    await revertToNewEpoch(a.store, {
      userId: USER,
      epoch: 1,
      epochStartSeqno,
      nowMs: Date.parse(clock()),
      backupId: 'backup-a',
    });
    // A's files are gone meanwhile (files no definition lists are let go of).
    await a.store.write(['datasetFiles'], (tx) => tx.deleteMany('datasetFiles', [picked.id]));
    await a.sync({ dataKey: newKey, epochStartSeqno });
    const copy = (await rowsOf(a.store, 'fullBackups')).find((row) => row.id === 'backup-a');
    if (copy === undefined) throw new Error('no copy');
    await mergeFullBackup(a.store, await openFullBackup(copy.bytes, { crypto: webCrypto }), {
      deviceId: a.id,
      nowMs: Date.parse(clock()),
    });
    await a.sync({ dataKey: newKey, epochStartSeqno });
    expect((await datasetOf(a, 'ca'))?.filesUnavailable).toEqual({
      reason: 'not-sent-since-reset',
      missing: 1,
    });

    // B still holds the file: with the definition back (pulled by one run), the next seals it
    // under the new epoch.
    await b.sync({ dataKey: newKey, epochStartSeqno });
    await b.sync({ dataKey: newKey, epochStartSeqno });
    await a.sync({ dataKey: newKey, epochStartSeqno });
    expect((await datasetOf(a, 'ca'))?.filesUnavailable).toBeUndefined();
    expect((await rowsOf(a.store, 'datasetFiles')).map((row) => row.id)).toEqual([picked.id]);
  });

  it('goes when the user picks its files again ("Import again")', async () => {
    const { log, a, b } = await setup();
    const picked = await addFilesDataset(a, 'ca');
    await a.sync();
    log.blobs.clear();
    await b.sync();
    expect((await datasetOf(b, 'ca'))?.filesUnavailable?.reason).toBe('not-fetched');
    await saveDatasetAndQueueImport(b.store, {
      datasetId: 'ca',
      name: 'ca',
      jurisdiction: null,
      session: null,
      source: { kind: 'files', files: [picked] },
      jobId: 'again',
      now: clock(),
      deviceId: b.id,
    });
    expect((await datasetOf(b, 'ca'))?.filesUnavailable).toBeUndefined();
    expect((await runStoredImport(b.store, 'again', clock)).status).toBe('done');
    await b.sync();
    expect((await datasetOf(b, 'ca'))?.filesUnavailable).toBeUndefined();
  });
});

describe('why the files cannot come', () => {
  const at = '2025-01-15T12:00:00.000Z';
  const fileId = (n: number) => String(n).repeat(64);
  const blob = (n: number, epoch: number) => ({
    fileId: fileId(n),
    name: `f${n}.csv`,
    size: 1,
    epoch,
    parts: ['a'.repeat(64)],
  });
  const dataset = (blobs: Dataset['blobs']): Dataset => ({
    id: 'd',
    name: 'd',
    origin: { kind: 'files', fileIds: [fileId(1), fileId(2)] },
    jurisdiction: null,
    session: null,
    format: null,
    billCount: 0,
    lastImportAt: null,
    lastJobId: null,
    state: 'new',
    createdAt: at,
    updatedAt: at,
    ...(blobs === undefined ? {} : { blobs }),
  });
  const none = new Map();

  it('puts a file never sent before one sent only before a reset, and both before a failed fetch', () => {
    const failed = new Map([[fileId(2), { fileId: fileId(2), name: 'f2.csv', reason: 'gone' }]]);
    expect(unavailableFiles(dataset(undefined), new Set(), 1, none)?.reason).toBe('not-sent');
    expect(unavailableFiles(dataset([blob(1, 0)]), new Set(), 1, none)?.reason).toBe('not-sent');
    expect(unavailableFiles(dataset([blob(1, 0), blob(2, 1)]), new Set(), 1, failed)?.reason).toBe(
      'not-sent-since-reset',
    );
    expect(unavailableFiles(dataset([blob(2, 1)]), new Set([fileId(1)]), 1, failed)).toEqual({
      reason: 'not-fetched',
      missing: 1,
      file: 'f2.csv',
      problem: 'gone',
    });
  });

  it('leaves alone a dataset whose files are here or on their way', () => {
    const both = new Set([fileId(1), fileId(2)]);
    expect(unavailableFiles(dataset(undefined), both, 1, none)).toBeNull();
    expect(unavailableFiles(dataset([blob(1, 1), blob(2, 1)]), new Set(), 1, none)).toBeNull();
  });
});
