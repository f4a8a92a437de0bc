import type { DatasetFile, DatasetFileBlob } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from './outbox-changes.ts';
import { defaultImportLimits } from '../encoding/zip-archive.ts';
import { openBytes, sealBytes, SyncCryptoError } from '../crypto/sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// A dataset's files travel to the user's other devices as encrypted, content-addressed blobs
// (PRODUCT.md: bills are derived data, rebuilt on each device from the synced definitions and
// files). The definition (a synced `datasets` row) says, per file, where its parts are:
// `blobs: [{ fileId, name, size, epoch, parts: [sha256 of each part's ciphertext] }]`.
//
// - Upload, before a push: every file of a dataset that has no parts under the current key
//   epoch (new, or sealed before a cloud-password reset) is cut into parts, each sealed with the
//   data key and bound to the user, the epoch, the file and its place among the parts (so parts
//   cannot be swapped, dropped or moved to another file unnoticed), and put on the server. Then
//   the definition takes the new `blobs` through the outbox, so the push that follows carries it
//   after the parts are there. A dataset that never entered sync (made before datasets synced)
//   is queued whole.
// - Download, after a pull: a file a definition lists that this device lacks is fetched, opened,
//   checked against its SHA-256 id and stored; the dataset's import (queueSyncedImport) then
//   rebuilds the bills here. A part that is missing or fails to open is reported and skipped:
//   the rest of sync goes on, and the next run tries again.

/** Plaintext bytes per part: well under the server's blob limit (MAX_BLOB_BYTES). */
export const BLOB_PART_BYTES = 8 * 1024 * 1024;

/** The server's blob routes, as sync needs them. */
export interface BlobTransport {
  putBlob(address: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The blob's bytes, or null when the server has none at that address. */
  getBlob(address: string): Promise<Uint8Array<ArrayBuffer> | null>;
}

export interface DatasetFilesSession {
  readonly userId: string;
  readonly deviceId: string;
  readonly epoch: number;
  readonly dataKey: OpaqueCryptoKey;
}

export interface DatasetFilesOptions {
  readonly store: LocalStore;
  readonly transport: BlobTransport;
  readonly crypto: WebCryptoPort;
  readonly session: DatasetFilesSession;
  readonly now: () => number;
  /** Wraps the crypto work, so the run can say how long it took. */
  readonly timed?: <T>(work: () => Promise<T>) => Promise<T>;
  readonly partBytes?: number;
  /** Files moved so far out of how many this run has to move, after each file (and at 0). */
  readonly onFileProgress?: (done: number, total: number) => void;
}

export interface DatasetFilesReport {
  readonly files: number;
  readonly bytes: number;
  /** Files that could not be had this run, each with why (the next run tries again). */
  readonly problems: readonly string[];
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function partContext(session: DatasetFilesSession, fileId: string, index: number, count: number) {
  return {
    userId: session.userId,
    epoch: session.epoch,
    batchId: `dataset-file|${fileId}|${index}|${count}`,
  };
}

function untimed<T>(work: () => Promise<T>): Promise<T> {
  return work();
}

async function uploadFile(
  options: DatasetFilesOptions,
  file: DatasetFile,
): Promise<{ blob: DatasetFileBlob; bytes: number }> {
  const { crypto, session, transport } = options;
  const timed = options.timed ?? untimed;
  const size = options.partBytes ?? BLOB_PART_BYTES;
  const count = Math.max(1, Math.ceil(file.bytes.length / size));
  const parts: string[] = [];
  let bytes = 0;
  for (let index = 0; index < count; index++) {
    const plain = file.bytes.subarray(index * size, (index + 1) * size);
    const { sealed, address } = await timed(async () => {
      const sealed = await sealBytes(
        crypto,
        session.dataKey,
        plain,
        partContext(session, file.id, index, count),
      );
      return { sealed, address: hex(await crypto.subtle.digest('SHA-256', sealed)) };
    });
    await transport.putBlob(address, sealed);
    parts.push(address);
    bytes += sealed.length;
  }
  return {
    blob: { fileId: file.id, name: file.name, size: file.size, epoch: session.epoch, parts },
    bytes,
  };
}

/**
 * Uploads the files of this device's datasets that the server lacks under the current epoch and
 * records where they are in the definitions (through the outbox, to be pushed next).
 */
export async function uploadDatasetFiles(
  options: DatasetFilesOptions,
): Promise<DatasetFilesReport> {
  const { store, session } = options;
  const datasets = await store.read(['datasets', 'syncState'], async (tx) => {
    const rows = await tx.all('datasets');
    const states = await tx.getMany(
      'syncState',
      rows.map((row) => `datasets|${row.id}`),
    );
    return rows.map((row, index) => ({ row, enrolled: states[index] !== undefined }));
  });
  let files = 0;
  let bytes = 0;
  const work = datasets.map(({ row, enrolled }) => {
    const fileIds = row.origin.kind === 'files' ? row.origin.fileIds : [];
    const current = new Set(
      (row.blobs ?? []).filter((blob) => blob.epoch === session.epoch).map((blob) => blob.fileId),
    );
    return { row, enrolled, missing: fileIds.filter((id) => !current.has(id)) };
  });
  // Known before the first file goes, so a first sync can say "120 of 732".
  let total = work.reduce((sum, { missing }) => sum + missing.length, 0);
  if (total > 0) options.onFileProgress?.(0, total);
  for (const { row, enrolled, missing } of work) {
    if (enrolled && missing.length === 0) continue;
    const uploaded: DatasetFileBlob[] = [];
    for (const fileId of missing) {
      // One file in memory at a time: a dataset's files together may be hundreds of megabytes.
      const file = await store.read(['datasetFiles'], (tx) => tx.get('datasetFiles', fileId));
      // A file this device does not hold is another device's to upload.
      if (file === undefined) {
        total--;
        continue;
      }
      const result = await uploadFile(options, file);
      uploaded.push(result.blob);
      files++;
      bytes += result.bytes;
      options.onFileProgress?.(files, total);
    }
    if (enrolled && uploaded.length === 0) continue;
    const nowMs = options.now();
    await store.write(['datasets', ...outboxTables], async (tx) => {
      const latest = await tx.get('datasets', row.id);
      if (latest === undefined) return;
      const keep = new Set(latest.origin.kind === 'files' ? latest.origin.fileIds : []);
      const fresh = new Map(uploaded.map((blob) => [blob.fileId, blob]));
      const blobs = [
        ...(latest.blobs ?? []).filter((blob) => !fresh.has(blob.fileId)),
        ...fresh.values(),
      ].filter((blob) => keep.has(blob.fileId));
      const inSync = (await tx.get('syncState', `datasets|${row.id}`)) !== undefined;
      const outbox = await OutboxWriter.open(tx, session.deviceId, nowMs);
      await outbox.put('datasets', {
        row: { ...latest, blobs },
        ...(inSync ? { changed: ['blobs'] as const } : {}),
      });
      await outbox.close();
    });
  }
  return { files, bytes, problems: [] };
}

async function downloadFile(
  options: DatasetFilesOptions,
  blob: DatasetFileBlob,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; received: number }> {
  const { crypto, session, transport } = options;
  const timed = options.timed ?? untimed;
  // A definition is another device's word: a size no import could read is refused before
  // anything is fetched, and the parts stop as soon as they outgrow the size it records.
  if (blob.size > defaultImportLimits.maxFileBytes) {
    throw new Error(`it is larger than a dataset file may be (${blob.size} bytes)`);
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  let plainBytes = 0;
  for (const [index, address] of blob.parts.entries()) {
    const sealed = await transport.getBlob(address);
    if (sealed === null) throw new Error(`part ${index + 1} is not on the server`);
    received += sealed.length;
    const plain = await timed(async () => {
      if (hex(await crypto.subtle.digest('SHA-256', sealed)) !== address) {
        throw new SyncCryptoError('tampered', 'a part is not what its address says');
      }
      return openBytes(
        crypto,
        session.dataKey,
        sealed,
        partContext(session, blob.fileId, index, blob.parts.length),
      );
    });
    plainBytes += plain.length;
    if (plainBytes > blob.size)
      throw new SyncCryptoError('tampered', 'its size is not as recorded');
    chunks.push(plain);
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  if (total !== blob.size) throw new SyncCryptoError('tampered', 'its size is not as recorded');
  if (HEX_SHA256.test(blob.fileId)) {
    const digest = await timed(async () => hex(await crypto.subtle.digest('SHA-256', bytes)));
    if (digest !== blob.fileId) {
      throw new SyncCryptoError('tampered', 'its bytes are not the file recorded');
    }
  }
  return { bytes, received };
}

/** Fetches the files the synced definitions list and this device lacks. */
export async function downloadDatasetFiles(
  options: DatasetFilesOptions,
): Promise<DatasetFilesReport> {
  const { store, session } = options;
  const wanted = await store.read(['datasets', 'datasetFiles'], async (tx) => {
    const list: { datasetId: string; blob: DatasetFileBlob }[] = [];
    for (const dataset of await tx.all('datasets')) {
      if (dataset.origin.kind !== 'files') continue;
      const listed = new Set(dataset.origin.fileIds);
      const blobs = (dataset.blobs ?? []).filter(
        (blob) => blob.epoch === session.epoch && listed.has(blob.fileId),
      );
      const held = await tx.getMany(
        'datasetFiles',
        blobs.map((blob) => blob.fileId),
      );
      blobs.forEach((blob, index) => {
        if (held[index] === undefined) list.push({ datasetId: dataset.id, blob });
      });
    }
    return list;
  });
  let files = 0;
  let bytes = 0;
  // Per file: a file two definitions list is fetched once, and a listing that fails (altered,
  // or forged by a definition) does not keep it from another listing that works.
  const problems = new Map<string, string>();
  const done = new Set<string>();
  const total = new Set(wanted.map(({ blob }) => blob.fileId)).size;
  if (total > 0) options.onFileProgress?.(0, total);
  // Files tried, fetched or not, for the progress: each file is tried until one listing works.
  const tried = new Set<string>();
  for (const { datasetId, blob } of wanted) {
    if (done.has(blob.fileId)) continue;
    let fetched: { bytes: Uint8Array<ArrayBuffer>; received: number };
    try {
      fetched = await downloadFile(options, blob);
    } catch (error) {
      tried.add(blob.fileId);
      options.onFileProgress?.(tried.size, total);
      const reason =
        error instanceof SyncCryptoError
          ? `it failed its integrity check (${error.message}); it was altered, or not made with your key`
          : error instanceof Error
            ? error.message
            : String(error);
      if (!problems.has(blob.fileId)) {
        problems.set(
          blob.fileId,
          `The file ${blob.name} of a synced dataset could not be fetched: ${reason}.`,
        );
      }
      continue;
    }
    done.add(blob.fileId);
    tried.add(blob.fileId);
    options.onFileProgress?.(tried.size, total);
    problems.delete(blob.fileId);
    bytes += fetched.received;
    files++;
    const addedAt = new Date(options.now()).toISOString();
    await store.write(['datasetFiles'], async (tx) => {
      if ((await tx.get('datasetFiles', blob.fileId)) !== undefined) return;
      await tx.put('datasetFiles', {
        id: blob.fileId,
        datasetId,
        name: blob.name,
        size: blob.size,
        bytes: fetched.bytes,
        addedAt,
      });
    });
  }
  return { files, bytes, problems: [...problems.values()] };
}
