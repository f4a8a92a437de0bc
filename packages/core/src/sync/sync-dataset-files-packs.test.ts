import { describe, expect, it } from 'vitest';
import { saveDatasetAndQueueImport } from '../commands/dataset-commands.ts';
import type { DatasetFileBlob } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { SEALED_OVERHEAD_BYTES } from '../crypto/sync-crypto.ts';
import type { OpaqueCryptoKey } from '../crypto/web-crypto.ts';
import {
  downloadDatasetFiles,
  uploadDatasetFiles,
  type BlobTransport,
  type DatasetFilesOptions,
} from './sync-dataset-files.ts';
import { rowsOf } from '../test-support/bill-command-harness.ts';
import { testClock } from '../test-support/dataset-import-harness.ts';
import {
  newDataKey,
  testDevice,
  USER,
  webCrypto,
  type TestDevice,
} from '../test-support/sync-devices.ts';
import { TestSyncLog, testTransport } from '../test-support/sync-log-server.ts';

// Small dataset files travel in packs: one sealed blob for many files, addressed by its
// ciphertext, which the same files always seal to, so a repeat puts nothing.

const clock = testClock();

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await webCrypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A dataset of files of the given sizes, each of its own bytes, saved on the device. */
async function addDataset(device: TestDevice, id: string, sizes: readonly number[]) {
  const files = await Promise.all(
    sizes.map(async (size, index) => {
      const bytes = new Uint8Array(size);
      for (let at = 0; at < size; at++) bytes[at] = (at * 31 + index * 7 + id.length) % 251;
      bytes[0] = index % 256;
      bytes[1] = Math.floor(index / 256);
      return { id: await sha256Hex(bytes), name: `${id}-${index}.xml`, bytes };
    }),
  );
  await saveDatasetAndQueueImport(device.store, {
    datasetId: id,
    name: id,
    jurisdiction: null,
    session: null,
    source: { kind: 'files', files },
    jobId: `${id}-job`,
    now: clock(),
    deviceId: device.id,
  });
  return files;
}

/** A transport over the test log that records what it put, asked about and fetched. */
function watchedTransport(log: TestSyncLog) {
  const inner = testTransport(log);
  const puts: { address: string; size: number }[] = [];
  const heads: string[] = [];
  const gets: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const transport: BlobTransport = {
    putBlob: async (address, bytes) => {
      puts.push({ address, size: bytes.length });
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Work off the main thread, as a request is: the next ones may start meanwhile.
      await webCrypto.subtle.digest('SHA-256', bytes);
      inFlight--;
      await inner.putBlob(address, bytes);
    },
    getBlob: (address) => {
      gets.push(address);
      return inner.getBlob(address);
    },
    hasBlob: (address) => {
      heads.push(address);
      return Promise.resolve(log.blobs.has(address));
    },
  };
  return { transport, puts, heads, gets, mostInFlight: () => mostInFlight };
}

function filesOptions(
  store: LocalStore,
  transport: BlobTransport,
  dataKey: OpaqueCryptoKey,
  deviceId: string,
  more: Partial<DatasetFilesOptions> = {},
): DatasetFilesOptions {
  return {
    store,
    transport,
    crypto: webCrypto,
    session: { userId: USER, deviceId, epoch: 0, dataKey },
    now: () => Date.parse(clock()),
    ...more,
  };
}

async function blobsOf(store: LocalStore, id: string): Promise<DatasetFileBlob[]> {
  const dataset = (await rowsOf(store, 'datasets')).find((row) => row.id === id);
  return dataset?.blobs ?? [];
}

async function setup() {
  const log = new TestSyncLog();
  const key = await newDataKey();
  const a = await testDevice('device-a', log, key, 0);
  const b = await testDevice('device-b', log, key, 0);
  return { log, key, a, b };
}

describe('packs of small dataset files', () => {
  it('packs small files up to the pack size, a few at a time, and sends a large file alone in parts', async () => {
    const { log, key, a } = await setup();
    // 40 files of 1,000 bytes in packs of 8,000: five packs of eight; one file of 20,000 bytes
    // is over the largest packed file (the part size here) and goes in three parts.
    const files = await addDataset(a, 'ca', [...Array.from({ length: 40 }, () => 1000), 20_000]);
    const watched = watchedTransport(log);
    const progress: [number, number, number][] = [];
    const report = await uploadDatasetFiles(
      filesOptions(a.store, watched.transport, key, a.id, {
        packBytes: 8000,
        partBytes: 8192,
        onFileProgress: (done, total, bytes) => progress.push([done, total, bytes.done]),
      }),
    );
    expect(report.files).toBe(41);
    expect(watched.puts).toHaveLength(5 + 3);
    const packs = watched.puts.filter(({ size }) => size === 8000 + SEALED_OVERHEAD_BYTES);
    expect(packs).toHaveLength(5);
    expect(watched.mostInFlight()).toBeGreaterThan(1);
    expect(watched.mostInFlight()).toBeLessThanOrEqual(4);
    expect(report.bytes).toBe(watched.puts.reduce((sum, { size }) => sum + size, 0));

    const blobs = await blobsOf(a.store, 'ca');
    // In the order the dataset lists its files.
    expect(blobs.map((blob) => blob.fileId)).toEqual(files.map((file) => file.id));
    const packed = blobs.filter((blob) => blob.packOffset !== undefined);
    expect(packed).toHaveLength(40);
    expect(new Set(packed.map((blob) => blob.parts[0])).size).toBe(5);
    for (const blob of packed) {
      expect(blob.parts).toHaveLength(1);
      const offset = blob.packOffset ?? -1;
      expect(offset % 1000).toBe(0);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(8000);
    }
    const large = blobs.find((blob) => blob.size === 20_000);
    expect(large?.packOffset).toBeUndefined();
    expect(large?.parts).toHaveLength(3);

    // Counts and bytes only grow, and end at every file and every byte.
    expect(progress[0]).toEqual([0, 41, 0]);
    expect(progress.at(-1)).toEqual([41, 41, 60_000]);
    for (const [index, [done, , bytes]] of progress.entries()) {
      const [doneBefore, , bytesBefore] = progress[index - 1] ?? [0, 0, 0];
      expect(done).toBeGreaterThanOrEqual(doneBefore);
      expect(bytes).toBeGreaterThanOrEqual(bytesBefore);
    }
  });

  it('puts nothing when the same files are uploaded again: the server has their packs', async () => {
    const { log, key, a } = await setup();
    await addDataset(
      a,
      'ca',
      Array.from({ length: 30 }, () => 500),
    );
    const first = watchedTransport(log);
    await uploadDatasetFiles(
      filesOptions(a.store, first.transport, key, a.id, { packBytes: 4000 }),
    );
    expect(first.puts).toHaveLength(4);
    const before = await blobsOf(a.store, 'ca');

    // As if the run had stopped after the packs went up but before the definition was written.
    await a.store.write(['datasets'], async (tx) => {
      const row = await tx.get('datasets', 'ca');
      if (row === undefined) throw new Error('no dataset');
      const rest = { ...row };
      delete rest.blobs;
      await tx.put('datasets', rest);
    });
    const again = watchedTransport(log);
    const report = await uploadDatasetFiles(
      filesOptions(a.store, again.transport, key, a.id, { packBytes: 4000 }),
    );
    expect(report.files).toBe(30);
    expect(report.bytes).toBe(0);
    expect(again.puts).toEqual([]);
    expect(again.heads).toHaveLength(4);
    expect(await blobsOf(a.store, 'ca')).toEqual(before);
    expect(log.blobs.size).toBe(4);
  });

  it('brings every packed file to another device, one fetch per pack', async () => {
    const { log, key, a, b } = await setup();
    const files = await addDataset(
      a,
      'ca',
      Array.from({ length: 25 }, (_, i) => 300 + i),
    );
    await a.sync({ limits: { blobPackBytes: 3000 } });
    const packs = new Set((await blobsOf(a.store, 'ca')).map((blob) => blob.parts[0]));
    await b.sync();
    const watched = watchedTransport(log);
    // Everything came with b's sync; a second download has nothing to do.
    const report = await downloadDatasetFiles(filesOptions(b.store, watched.transport, key, b.id));
    expect(report.files).toBe(0);
    const held = await rowsOf(b.store, 'datasetFiles');
    expect(held.map((file) => file.id).sort()).toEqual(files.map((file) => file.id).sort());
    for (const file of files) {
      const got = held.find((row) => row.id === file.id);
      expect(got?.bytes).toEqual(file.bytes);
    }
    expect(packs.size).toBe(3);

    // Fetched fresh, a device makes one request per pack, however many files each holds.
    const c = await testDevice('device-c', log, key, 0);
    await c.sync();
    await c.store.write(['datasetFiles'], (tx) => tx.deletePrefix('datasetFiles', ''));
    const counted = watchedTransport(log);
    const progress: [number, number, number, number | null][] = [];
    const fetched = await downloadDatasetFiles(
      filesOptions(c.store, counted.transport, key, c.id, {
        onFileProgress: (done, total, bytes) =>
          progress.push([done, total, bytes.done, bytes.total]),
      }),
    );
    expect(fetched.files).toBe(25);
    expect(fetched.problems).toEqual([]);
    expect(counted.gets.sort()).toEqual([...packs].sort());
    const plain = files.reduce((sum, file) => sum + file.bytes.length, 0);
    expect(progress[0]).toEqual([0, 25, 0, plain]);
    expect(progress.at(-1)).toEqual([25, 25, plain, plain]);
  });

  it('refuses a tampered pack with a clear reason and stores nothing of it', async () => {
    const { log, key, a, b } = await setup();
    await addDataset(
      a,
      'ca',
      Array.from({ length: 6 }, () => 400),
    );
    await a.sync();
    const [address] = new Set((await blobsOf(a.store, 'ca')).map((blob) => blob.parts[0]));
    if (address === undefined) throw new Error('no pack');
    // The server (or someone on the way) changes one byte of the pack it keeps.
    const sealed = log.blobs.get(address);
    if (sealed === undefined) throw new Error('no pack on the server');
    sealed[sealed.length - 20] = (sealed[sealed.length - 20] ?? 0) ^ 0x01;

    const report = await b.sync();
    expect(report.filesDown).toBe(0);
    expect(report.fileProblems).toHaveLength(6);
    expect(report.fileProblems[0]).toMatch(
      /^The file ca-\d\.xml of a synced dataset could not be fetched: it failed its integrity check \(a pack is not what its address says\); it was altered, or not made with your key\.$/,
    );
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);

    // Resealed under its new address by someone without the key: the seal does not open.
    const forgedAddress = await sha256Hex(sealed);
    log.blobs.set(forgedAddress, sealed);
    await b.store.write(['datasets'], async (tx) => {
      const row = await tx.get('datasets', 'ca');
      if (row === undefined) throw new Error('no dataset');
      const blobs = (row.blobs ?? []).map((blob) => ({ ...blob, parts: [forgedAddress] }));
      await tx.put('datasets', { ...row, blobs });
    });
    const again = await downloadDatasetFiles(filesOptions(b.store, testTransport(log), key, b.id));
    expect(again.files).toBe(0);
    expect(again.problems[0]).toMatch(/failed its integrity check \(A synced message failed/);
    expect(await rowsOf(b.store, 'datasetFiles')).toEqual([]);
  });

  it('refuses a file a definition places wrongly in a good pack, and keeps the others', async () => {
    const { log, key, a, b } = await setup();
    const files = await addDataset(a, 'ca', [400, 400, 400]);
    await a.sync();
    await b.sync();
    await b.store.write(['datasetFiles'], (tx) => tx.deletePrefix('datasetFiles', ''));
    // A buggy or hostile device says the second file starts where the first does.
    await b.store.write(['datasets'], async (tx) => {
      const row = await tx.get('datasets', 'ca');
      if (row === undefined) throw new Error('no dataset');
      const blobs = (row.blobs ?? []).map((blob) =>
        blob.fileId === files[1]?.id ? { ...blob, packOffset: 0 } : blob,
      );
      await tx.put('datasets', { ...row, blobs });
    });
    const report = await downloadDatasetFiles(filesOptions(b.store, testTransport(log), key, b.id));
    expect(report.files).toBe(2);
    expect(report.problems).toEqual([
      'The file ca-1.xml of a synced dataset could not be fetched: it failed its integrity check (its bytes are not the file recorded); it was altered, or not made with your key.',
    ]);
    const held = (await rowsOf(b.store, 'datasetFiles')).map((file) => file.id).sort();
    expect(held).toEqual([files[0]?.id, files[2]?.id].sort());
  });

  it('stops the run when the store cannot keep a pack’s files, rather than calling them unfetchable', async () => {
    const { log, key, a, b } = await setup();
    await addDataset(a, 'ca', [300, 300, 300]);
    await a.sync();
    await b.sync();
    await b.store.write(['datasetFiles'], (tx) => tx.deletePrefix('datasetFiles', ''));
    const failing: LocalStore = {
      read: (tables, body) => b.store.read(tables, body),
      write: (tables, body) =>
        tables.includes('datasetFiles')
          ? Promise.reject(new Error('QuotaExceededError'))
          : b.store.write(tables, body),
      close: () => {
        b.store.close();
      },
    };
    await expect(
      downloadDatasetFiles(filesOptions(failing, testTransport(log), key, b.id)),
    ).rejects.toThrow('QuotaExceededError');
  });

  it('still reads files sealed alone, as devices did before packs', async () => {
    const { log, key, a, b } = await setup();
    const files = await addDataset(a, 'ca', [700, 800, 900]);
    const watched = watchedTransport(log);
    await uploadDatasetFiles(filesOptions(a.store, watched.transport, key, a.id, { packBytes: 0 }));
    expect(watched.puts).toHaveLength(3);
    expect(watched.heads).toEqual([]);
    expect((await blobsOf(a.store, 'ca')).every((blob) => blob.packOffset === undefined)).toBe(
      true,
    );
    await a.sync();
    const report = await b.sync();
    expect(report.filesDown).toBe(3);
    const held = await rowsOf(b.store, 'datasetFiles');
    expect(held.map((file) => file.id).sort()).toEqual(files.map((file) => file.id).sort());
  });
});
