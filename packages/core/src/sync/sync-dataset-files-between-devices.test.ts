import { describe, expect, it } from 'vitest';
import {
  datasetsNeedingImport,
  deleteDataset,
  queueSyncedImport,
  saveDatasetAndQueueImport,
} from '../commands/dataset-commands.ts';
import { datasetSchema, type Dataset, type DatasetFileBlob } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { sealBytes } from '../crypto/sync-crypto.ts';
import {
  downloadDatasetFiles,
  uploadDatasetFiles,
  type BlobTransport,
  type DatasetFilesOptions,
} from './sync-dataset-files.ts';
import { handOverDeviceData } from './sync-owner.ts';
import { prepareResetUpload, revertToNewEpoch } from './sync-reset.ts';
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
import { TestSyncLog, testTransport } from '../test-support/sync-log-server.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey } from '../crypto/web-crypto.ts';

// Dataset file sync against what another device (or the server) may send: a
// definition is the user's other device's word, and that device may be compromised or buggy.

const clock = testClock();

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function addFilesDataset(device: TestDevice, id: string, files: number, bills = 3) {
  const picked = await Promise.all(
    Array.from({ length: files }, async (_, index) => {
      const file = csvFile(`${id}-${index}.csv`, numberedBills(bills + index));
      const bytes = new Uint8Array(file.bytes);
      return { id: await sha256Hex(bytes), name: file.name, bytes };
    }),
  );
  await saveDatasetAndQueueImport(device.store, {
    datasetId: id,
    name: id,
    jurisdiction: null,
    session: null,
    source: { kind: 'files', files: picked },
    jobId: `${id}-job`,
    now: clock(),
    deviceId: device.id,
  });
  expect((await runStoredImport(device.store, `${id}-job`, clock)).status).toBe('done');
  return picked;
}

/** A transport over the test log that counts what it fetched. */
function countingTransport(log: TestSyncLog): BlobTransport & { gets: string[] } {
  const inner = testTransport(log);
  const gets: string[] = [];
  return {
    gets,
    putBlob: (address, bytes) => inner.putBlob(address, bytes),
    getBlob: (address) => {
      gets.push(address);
      return inner.getBlob(address);
    },
  };
}

function filesOptions(
  store: LocalStore,
  transport: BlobTransport,
  dataKey: OpaqueCryptoKey,
  deviceId: string,
): DatasetFilesOptions {
  return {
    store,
    transport,
    crypto: webCrypto,
    session: { userId: USER, deviceId, epoch: 0, dataKey },
    now: () => Date.parse(clock()),
  };
}

/** A definition as a merge would leave it on this device, listing the given file blob. */
async function forgedDefinition(
  store: LocalStore,
  blob: DatasetFileBlob,
  id = 'forged',
): Promise<void> {
  const at = clock();
  const dataset: Dataset = {
    id,
    name: 'Forged',
    origin: { kind: 'files', fileIds: [blob.fileId] },
    jurisdiction: null,
    session: null,
    format: null,
    billCount: 0,
    lastImportAt: null,
    lastJobId: null,
    state: 'new',
    createdAt: at,
    updatedAt: at,
    blobs: [blob],
    needsImport: true,
  };
  await store.write(['datasets'], (tx) => tx.put('datasets', dataset));
}

async function setup() {
  const log = new TestSyncLog();
  const key = await newDataKey();
  const a = await testDevice('device-a', log, key, 0);
  const b = await testDevice('device-b', log, key, 0);
  return { log, key, a, b };
}

/** Seals bytes as one part of `fileId`, as a device holding the key can, and stores it. */
async function sealedPart(
  log: TestSyncLog,
  key: OpaqueCryptoKey,
  fileId: string,
  plain: Uint8Array,
): Promise<string> {
  const sealed = await sealBytes(webCrypto, key, plain, {
    userId: USER,
    epoch: 0,
    batchId: `dataset-file|${fileId}|0|1`,
  });
  const address = await sha256Hex(sealed);
  log.putBlob(address, sealed);
  return address;
}

describe('dataset files from another device', () => {
  it('stops fetching a file as soon as its parts exceed the size its definition records', async () => {
    const { log, key, a, b } = await setup();
    await addFilesDataset(a, 'ca', 1, 20);
    await a.sync({ limits: { blobPartBytes: 64 } });
    const [original] = (await rowsOf(a.store, 'datasets'))[0]?.blobs ?? [];
    if (original === undefined) throw new Error('no blob');
    expect(original.parts.length).toBeGreaterThan(3);
    // The same parts, said to make a file of 10 bytes.
    await forgedDefinition(b.store, { ...original, size: 10 });
    const transport = countingTransport(log);
    const report = await downloadDatasetFiles(filesOptions(b.store, transport, key, b.id));
    expect(report.problems).toEqual([expect.stringContaining('integrity check') as unknown]);
    expect(transport.gets).toHaveLength(1);
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);
  });

  it('fetches nothing of a file larger than this device could ever import', async () => {
    const { log, key, a, b } = await setup();
    await addFilesDataset(a, 'ca', 1);
    await a.sync();
    const [original] = (await rowsOf(a.store, 'datasets'))[0]?.blobs ?? [];
    if (original === undefined) throw new Error('no blob');
    await forgedDefinition(b.store, { ...original, size: 2 ** 40 });
    const transport = countingTransport(log);
    const report = await downloadDatasetFiles(filesOptions(b.store, transport, key, b.id));
    expect(report.problems).toEqual([expect.stringContaining('ca-0.csv') as unknown]);
    expect(transport.gets).toEqual([]);
  });

  it('refuses a file whose bytes are not what its id (their SHA-256) says', async () => {
    const { log, key, b } = await setup();
    const claimed = await sha256Hex(encodeUtf8('the real file'));
    const other = encodeUtf8('something else entirely');
    const address = await sealedPart(log, key, claimed, other);
    await forgedDefinition(b.store, {
      fileId: claimed,
      name: 'bills.csv',
      size: other.length,
      epoch: 0,
      parts: [address],
    });
    const report = await downloadDatasetFiles(filesOptions(b.store, testTransport(log), key, b.id));
    expect(report.problems).toEqual([
      expect.stringContaining('its bytes are not the file recorded') as unknown,
    ]);
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);
  });

  it('refuses another file’s parts listed under this file’s id', async () => {
    const { log, key, a, b } = await setup();
    const [first] = await addFilesDataset(a, 'ca', 1);
    await a.sync();
    const [original] = (await rowsOf(a.store, 'datasets'))[0]?.blobs ?? [];
    if (original === undefined || first === undefined) throw new Error('no blob');
    const target = await sha256Hex(encodeUtf8('another file'));
    await forgedDefinition(b.store, { ...original, fileId: target });
    const report = await downloadDatasetFiles(filesOptions(b.store, testTransport(log), key, b.id));
    expect(report.problems).toEqual([expect.stringContaining('integrity check') as unknown]);
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);
  });
});

describe('one file listed by two definitions', () => {
  it('fetches it through the good listing when another listing of it is broken', async () => {
    const { log, key, a, b } = await setup();
    await addFilesDataset(a, 'ca', 1);
    await a.sync();
    await b.sync();
    const [original] = (await rowsOf(a.store, 'datasets'))[0]?.blobs ?? [];
    if (original === undefined) throw new Error('no blob');
    await b.store.write(['datasetFiles'], (tx) => tx.deleteMany('datasetFiles', [original.fileId]));
    // Another definition, first in key order, lists the same file with parts nobody has.
    await forgedDefinition(b.store, { ...original, parts: ['0'.repeat(64)] }, 'aa-broken');
    const report = await downloadDatasetFiles(filesOptions(b.store, testTransport(log), key, b.id));
    expect(report.files).toBe(1);
    expect((await rowsOf(b.store, 'datasetFiles')).map((row) => row.id)).toEqual([original.fileId]);
  });
});

describe('uploading dataset files', () => {
  it('reads one file at a time from the store, not every file of a dataset at once', async () => {
    const { log, key, a } = await setup();
    await addFilesDataset(a, 'many', 3);
    let most = 0;
    const watched: LocalStore = {
      read: async (tables, body) => {
        const result = await a.store.read(tables, body);
        if (tables.length === 1 && tables[0] === 'datasetFiles') {
          most = Math.max(
            most,
            Array.isArray(result) ? result.length : result === undefined ? 0 : 1,
          );
        }
        return result;
      },
      write: (tables, body) => a.store.write(tables, body),
      close: () => {
        a.store.close();
      },
    };
    const report = await uploadDatasetFiles(filesOptions(watched, testTransport(log), key, a.id));
    expect(report.files).toBe(3);
    expect(most).toBe(1);
  });
});

describe('starting afresh with datasets', () => {
  // handOverDeviceData (and revertToNewEpoch) clear the synced tables, datasets among them: the
  // bills those datasets provided must go with them, or the next account sees the other
  // account's bills in its deck, provided by no dataset it has, and nothing ever removes them.
  it('leaves no bill of the cleared datasets in the new account’s deck', async () => {
    const { a } = await setup();
    await addFilesDataset(a, 'ca', 1, 4);
    const bills = await rowsOf(a.store, 'bills');
    expect(bills).toHaveLength(4);
    // A bill no dataset provides (brought by an import of the user's data) is not theirs to take.
    const brought = { ...bills[0], id: 'us-ca/brought/hb-1', datasetIds: [] };
    await a.store.write(['bills'], (tx) => tx.put('bills', brought as (typeof bills)[number]));
    await handOverDeviceData(a.store, {
      userId: 'user-2',
      epoch: 0,
      epochStartSeqno: 0,
      nowMs: Date.parse(clock()),
      backupId: 'backup-1',
    });
    expect(await rowsOf(a.store, 'datasets')).toEqual([]);
    expect((await rowsOf(a.store, 'bills')).map((bill) => bill.id)).toEqual([brought.id]);
  });
});

describe('definitions that change their files', () => {
  // When another device changes a dataset's files, this device fetches the new ones and imports
  // them; the old ones, which no definition lists any more, must go (queueSyncedImport deletes
  // them, as saveDatasetAndQueueImport deletes a local edit's), or every edit elsewhere would
  // leak a dataset's worth of storage here.
  it('lets go of the files a synced definition no longer lists', async () => {
    const { a, b } = await setup();
    await addFilesDataset(a, 'ca', 1, 3);
    await a.sync();
    await b.sync();
    for (const datasetId of await datasetsNeedingImport(b.store)) {
      await queueSyncedImport(b.store, { datasetId, jobId: 'b-1', now: clock() });
      await runStoredImport(b.store, 'b-1', clock);
    }
    // A picks other files for the dataset.
    const file = csvFile('ca-new.csv', numberedBills(5));
    const bytes = new Uint8Array(file.bytes);
    const newId = await sha256Hex(bytes);
    await saveDatasetAndQueueImport(a.store, {
      datasetId: 'ca',
      name: 'ca',
      jurisdiction: null,
      session: null,
      source: { kind: 'files', files: [{ id: newId, name: file.name, bytes }] },
      jobId: 'a-2',
      now: clock(),
      deviceId: a.id,
    });
    await runStoredImport(a.store, 'a-2', clock);
    expect((await rowsOf(a.store, 'datasetFiles')).map((row) => row.id)).toEqual([newId]);
    await a.sync();
    await b.sync();
    expect(
      await queueSyncedImport(b.store, { datasetId: 'ca', jobId: 'b-2', now: clock() }),
    ).not.toBeNull();
    expect((await runStoredImport(b.store, 'b-2', clock)).status).toBe('done');
    expect((await rowsOf(b.store, 'datasetFiles')).map((row) => row.id)).toEqual([newId]);
  });

  it('takes a dataset deleted on one device, with its bills, jobs and files, off the other', async () => {
    const { a, b } = await setup();
    await addFilesDataset(a, 'ca', 1, 3);
    await addFilesDataset(a, 'ny', 1, 2);
    await a.sync();
    await b.sync();
    for (const [index, datasetId] of (await datasetsNeedingImport(b.store)).entries()) {
      await queueSyncedImport(b.store, { datasetId, jobId: `b-${index}`, now: clock() });
      expect((await runStoredImport(b.store, `b-${index}`, clock)).status).toBe('done');
    }
    // ca's AB 1–3 and ny's AB 1–2 are the same bills (the same identifiers in one session).
    expect((await rowsOf(b.store, 'bills')).map((bill) => bill.datasetIds)).toEqual([
      ['ca', 'ny'],
      ['ca', 'ny'],
      ['ca'],
    ]);

    await deleteDataset(a.store, { datasetId: 'ca', deviceId: a.id, now: clock() });
    await a.sync();
    await b.sync();

    expect((await rowsOf(b.store, 'datasets')).map((row) => row.id)).toEqual(['ny']);
    expect((await rowsOf(b.store, 'bills')).map((bill) => bill.datasetIds)).toEqual([
      ['ny'],
      ['ny'],
    ]);
    expect((await rowsOf(b.store, 'jobs')).map((job) => job.subjectId)).toEqual(['ny']);
    expect((await rowsOf(b.store, 'datasetFiles')).map((row) => row.name)).toEqual(['ny-0.csv']);
  });

  // `blobs` is capped at 10,000 files, and so is `origin.fileIds`: a forged definition may not
  // list any number of files, and a real dataset cannot have a `blobs` list its own schema would
  // refuse on the other devices (saveDatasetAndQueueImport refuses more, with a message).
  it('bounds the files a definition may list as it bounds their blobs', () => {
    const at = '2025-01-15T12:00:00.000Z';
    const result = datasetSchema.safeParse({
      id: 'big',
      name: 'Big',
      origin: { kind: 'files', fileIds: Array.from({ length: 10_001 }, (_, n) => `f${n}`) },
      jurisdiction: null,
      session: null,
      format: null,
      billCount: 0,
      lastImportAt: null,
      lastJobId: null,
      state: 'new',
      createdAt: at,
      updatedAt: at,
    });
    expect(result.success).toBe(false);
  });
});

describe('an edit on a device still waiting for a synced dataset’s files', () => {
  it('still imports the dataset once its files arrive', async () => {
    const { log, a, b } = await setup();
    await addFilesDataset(a, 'ca', 1, 3);
    await a.sync();
    const [address, bytes] = [...log.blobs.entries()][0] ?? [];
    if (address === undefined || bytes === undefined) throw new Error('no blob');
    log.blobs.delete(address);
    expect((await b.sync()).fileProblems).toHaveLength(1);
    // The user renames the dataset on B before its file came: the import queued with the rename
    // cannot read the file, and fails.
    await saveDatasetAndQueueImport(b.store, {
      datasetId: 'ca',
      name: 'California',
      jurisdiction: null,
      session: null,
      source: { kind: 'unchanged' },
      jobId: 'rename-on-b',
      now: clock(),
      deviceId: b.id,
    });
    expect((await runStoredImport(b.store, 'rename-on-b', clock)).status).toBe('failed');
    log.blobs.set(address, bytes);
    expect((await b.sync()).filesDown).toBe(1);
    // The file is here now: sync must still ask for the import the failed job could not do.
    expect(await datasetsNeedingImport(b.store)).toEqual(['ca']);
    const job = await queueSyncedImport(b.store, {
      datasetId: 'ca',
      jobId: 'b-sync',
      now: clock(),
    });
    expect(job).not.toBeNull();
    expect((await runStoredImport(b.store, 'b-sync', clock)).status).toBe('done');
    expect(await rowsOf(b.store, 'bills')).toHaveLength(3);
  });
});

describe('a cloud password reset with datasets', () => {
  it('reaches a new device even when the resetting device never had the dataset’s files', async () => {
    const { log, a, b } = await setup();
    const [picked] = await addFilesDataset(b, 'ca', 1, 4);
    await b.sync();
    // A gets the definition but not the file (its part is away while A syncs).
    const saved = new Map(log.blobs);
    log.blobs.clear();
    expect((await a.sync()).fileProblems).toHaveLength(1);
    for (const [address, bytes] of saved) log.blobs.set(address, bytes);

    // A resets the cloud password: its data (the definition, no file) is the new epoch's truth.
    const newKey = await newDataKey();
    log.keyEpoch = 1;
    const epochStartSeqno = log.changes.length;
    await prepareResetUpload(a.store, {
      userId: USER,
      deviceId: a.id,
      epoch: 1,
      epochStartSeqno,
      nowMs: Date.parse(clock()),
    });
    await a.sync({ dataKey: newKey, epochStartSeqno });
    // B reverts to it, and still holds the file: it seals it again under the new epoch.
    await revertToNewEpoch(b.store, {
      userId: USER,
      epoch: 1,
      epochStartSeqno,
      nowMs: Date.parse(clock()),
      backupId: 'backup-b',
    });
    await b.sync({ dataKey: newKey, epochStartSeqno });
    await b.sync({ dataKey: newKey, epochStartSeqno });

    const c = await testDevice('device-c', log, newKey, 0);
    const report = await c.sync({ epochStartSeqno });
    expect(report.fileProblems).toEqual([]);
    expect((await rowsOf(c.store, 'datasetFiles')).map((row) => row.id)).toEqual([picked?.id]);
    const job = await queueSyncedImport(c.store, { datasetId: 'ca', jobId: 'c-1', now: clock() });
    expect(job).not.toBeNull();
    expect((await runStoredImport(c.store, 'c-1', clock)).status).toBe('done');
    expect(await rowsOf(c.store, 'bills')).toHaveLength(4);
  });
});
