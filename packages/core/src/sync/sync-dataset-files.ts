import type { DatasetFile, DatasetFileBlob } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';
import { defaultImportLimits } from '../encoding/zip-archive.ts';
import {
  convergentNonceSecret,
  openBytes,
  sealBytes,
  sealBytesConvergent,
  SyncCryptoError,
} from '../crypto/sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// A dataset's files travel to the user's other devices as encrypted, content-addressed blobs
// (PRODUCT.md: bills are derived data, rebuilt on each device from the synced definitions and
// files). The definition (a synced `datasets` row) says, per file, where its parts are:
// `blobs: [{ fileId, name, size, epoch, parts: [sha256 of each part's ciphertext] }]`.
//
// - Upload, before a push: every file of a dataset that has no blob under the current key epoch
//   (new, or sealed before a cloud-password reset) goes to the server. Small files travel in
//   packs: up to `packBytes` of files, in the order of their ids, joined and sealed as one blob
//   bound to the user, the epoch and "dataset-pack", with a nonce derived from the pack's bytes
//   (sealBytesConvergent), so the same files packed again are the same blob at the same address
//   and a second upload of them sends nothing (the server is asked first, `hasBlob`). A few
//   packs are on their way at once. A large file (or one alone in its pack) is cut into parts,
//   each sealed with a fresh nonce and bound to the user, the epoch, the file and its place among
//   the parts (so parts cannot be swapped, dropped or moved to another file unnoticed). Then the
//   definition takes the new `blobs` through the outbox, so the push that follows carries it
//   after the blobs are there. A dataset that never entered sync (made before datasets synced)
//   is queued whole.
// - Download, after a pull: a file a definition lists that this device lacks is fetched, opened,
//   checked against its SHA-256 id and stored; a pack is fetched once for all its files (a few
//   packs at once) and its files stored in one transaction. The dataset's import
//   (queueSyncedImport) then rebuilds the bills here. A blob that is missing or fails to open is
//   reported and skipped: the rest of sync goes on, and the next run tries again. A dataset whose
//   files cannot come is marked as such (sync-dataset-files-unavailable.ts).
// A pack is an ordinary blob to the server: it sees a pack's size where it saw files' sizes.

/** Plaintext bytes per part: well under the server's blob limit (MAX_BLOB_BYTES). */
export const BLOB_PART_BYTES = 8 * 1024 * 1024;
/** Plaintext bytes a pack holds at most: a few requests for a dataset of many small files. */
export const BLOB_PACK_BYTES = 4 * 1024 * 1024;
/** Files up to this size go in packs; larger ones go alone, in parts. */
export const PACKED_FILE_MAX_BYTES = 1024 * 1024;
/** Blobs on their way up or down at once (packs, and on upload the large files' parts). */
export const BLOBS_IN_FLIGHT = 4;
/** What a pack is bound to besides the user and the epoch. */
const PACK_BATCH_ID = 'dataset-pack';

/** The server's blob routes, as sync needs them. */
export interface BlobTransport {
  putBlob(address: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The blob's bytes, or null when the server has none at that address. */
  getBlob(address: string): Promise<Uint8Array<ArrayBuffer> | null>;
  /** Whether the server has a blob at that address (a HEAD); without it, packs are always put. */
  hasBlob?(address: string): Promise<boolean>;
}

/** How far the files of a run have come, in bytes of plaintext. */
export interface FileBytesProgress {
  readonly done: number;
  /** Known on download (the definitions record sizes); null on upload. */
  readonly total: number | null;
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
  /** Plaintext bytes per pack; 0 sends every file alone, in parts (the design before packs). */
  readonly packBytes?: number;
  /**
   * Files moved so far out of how many this run has to move, after each file or pack (and at
   * 0), with the plaintext bytes moved.
   */
  readonly onFileProgress?: (done: number, total: number, bytes: FileBytesProgress) => void;
}

export interface DatasetFilesReport {
  readonly files: number;
  readonly bytes: number;
  /** Files that could not be had this run, each with why (the next run tries again). */
  readonly problems: readonly string[];
  /** Downloads: the same files by id, with the file's name and why apart. */
  readonly unfetched?: readonly UnfetchedFile[];
}

/** A file a download could not have this run. */
export interface UnfetchedFile {
  readonly fileId: string;
  readonly name: string;
  /** Why, as the user reads it: "its pack is not on the server". */
  readonly reason: string;
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

/** What one upload (a pack, or a file alone) put on the server. */
interface Uploaded {
  readonly blobs: DatasetFileBlob[];
  /** Sealed bytes sent: 0 when the server had the pack already. */
  readonly sent: number;
  /** Plaintext bytes of the files it holds. */
  readonly plain: number;
}

/**
 * Runs uploads (or downloads) a few at a time: `run` waits while `limit` are on their way. The
 * first failure stops new work; `drain` waits for what is running, then throws it.
 */
class InFlight {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly limit: number) {}

  async run(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    if (this.failure !== null) return;
    const running: Promise<void> = work()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure !== null) throw this.failure.error;
  }
}

async function uploadFile(options: DatasetFilesOptions, file: DatasetFile): Promise<Uploaded> {
  const { crypto, session, transport } = options;
  const timed = options.timed ?? untimed;
  const size = options.partBytes ?? BLOB_PART_BYTES;
  const count = Math.max(1, Math.ceil(file.bytes.length / size));
  const parts: string[] = [];
  let sent = 0;
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
    sent += sealed.length;
  }
  return {
    blobs: [{ fileId: file.id, name: file.name, size: file.size, epoch: session.epoch, parts }],
    sent,
    plain: file.bytes.length,
  };
}

function packContext(session: DatasetFilesSession) {
  return { userId: session.userId, epoch: session.epoch, batchId: PACK_BATCH_ID };
}

/** Seals small files as one pack and puts it, unless the server has it already. */
async function uploadPack(
  options: DatasetFilesOptions,
  secret: Uint8Array<ArrayBuffer>,
  files: readonly DatasetFile[],
): Promise<Uploaded> {
  const { crypto, session, transport } = options;
  const timed = options.timed ?? untimed;
  const plain = new Uint8Array(files.reduce((sum, file) => sum + file.bytes.length, 0));
  const offsets: number[] = [];
  let offset = 0;
  for (const file of files) {
    offsets.push(offset);
    plain.set(file.bytes, offset);
    offset += file.bytes.length;
  }
  const { sealed, address } = await timed(async () => {
    const sealed = await sealBytesConvergent(
      crypto,
      session.dataKey,
      secret,
      plain,
      packContext(session),
    );
    return { sealed, address: hex(await crypto.subtle.digest('SHA-256', sealed)) };
  });
  const had = (await transport.hasBlob?.(address)) ?? false;
  if (!had) await transport.putBlob(address, sealed);
  return {
    blobs: files.map((file, index) => ({
      fileId: file.id,
      name: file.name,
      size: file.size,
      epoch: session.epoch,
      parts: [address],
      packOffset: offsets[index] ?? 0,
    })),
    sent: had ? 0 : sealed.length,
    plain: plain.length,
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
  const packBytes = options.packBytes ?? BLOB_PACK_BYTES;
  const packedMax = Math.min(PACKED_FILE_MAX_BYTES, options.partBytes ?? BLOB_PART_BYTES);
  let secret: Uint8Array<ArrayBuffer> | null = null;
  let files = 0;
  let bytes = 0;
  let plainBytes = 0;
  const work = datasets.map(({ row, enrolled }) => {
    const fileIds = row.origin.kind === 'files' ? row.origin.fileIds : [];
    const current = new Set(
      (row.blobs ?? []).filter((blob) => blob.epoch === session.epoch).map((blob) => blob.fileId),
    );
    // In the order of their ids, so the same files make the same packs every time.
    const missing = [...new Set(fileIds.filter((id) => !current.has(id)))].sort();
    return { row, enrolled, missing };
  });
  // Known before the first file goes, so a first sync can say "120 of 732".
  let total = work.reduce((sum, { missing }) => sum + missing.length, 0);
  const progress = () => {
    options.onFileProgress?.(files, total, { done: plainBytes, total: null });
  };
  if (total > 0) progress();
  for (const { row, enrolled, missing } of work) {
    if (enrolled && missing.length === 0) continue;
    const uploaded: DatasetFileBlob[] = [];
    const inFlight = new InFlight(BLOBS_IN_FLIGHT);
    const send = (upload: () => Promise<Uploaded>) =>
      inFlight.run(async () => {
        const result = await upload();
        uploaded.push(...result.blobs);
        files += result.blobs.length;
        bytes += result.sent;
        plainBytes += result.plain;
        progress();
      });
    let pack: DatasetFile[] = [];
    let packed = 0;
    const sendPack = async () => {
      const held = pack;
      pack = [];
      packed = 0;
      const [only] = held;
      if (only === undefined) return;
      if (held.length === 1) return send(() => uploadFile(options, only));
      secret ??= await convergentNonceSecret(options.crypto, session.dataKey);
      const key = secret;
      return send(() => uploadPack(options, key, held));
    };
    for (const fileId of missing) {
      if (inFlight.failed) break;
      // One file read at a time, and at most a few packs in memory: a dataset's files together
      // may be hundreds of megabytes.
      const file = await store.read(['datasetFiles'], (tx) => tx.get('datasetFiles', fileId));
      // A file this device does not hold is another device's to upload.
      if (file === undefined) {
        total--;
        continue;
      }
      if (packBytes > 0 && file.bytes.length <= packedMax) {
        if (pack.length > 0 && packed + file.bytes.length > packBytes) await sendPack();
        pack.push(file);
        packed += file.bytes.length;
      } else {
        await send(() => uploadFile(options, file));
      }
    }
    await sendPack();
    await inFlight.drain();
    if (enrolled && uploaded.length === 0) continue;
    const nowMs = options.now();
    await store.write(['datasets', ...outboxTables], async (tx) => {
      const latest = await tx.get('datasets', row.id);
      if (latest === undefined) return;
      const keep = new Set(latest.origin.kind === 'files' ? latest.origin.fileIds : []);
      // In the order the definition lists its files, whichever upload finished first.
      const order = new Map([...keep].map((id, index) => [id, index]));
      const place = (blob: DatasetFileBlob) => order.get(blob.fileId) ?? 0;
      const fresh = new Map(uploaded.map((blob) => [blob.fileId, blob]));
      const blobs = [
        ...(latest.blobs ?? []).filter((blob) => !fresh.has(blob.fileId)),
        ...[...fresh.values()].sort((a, b) => place(a) - place(b)),
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

/** Why a file could not be had, as the user reads it. */
function problemReason(error: unknown): string {
  return error instanceof SyncCryptoError
    ? `it failed its integrity check (${error.message}); it was altered, or not made with your key`
    : error instanceof Error
      ? error.message
      : String(error);
}

interface Listing {
  readonly datasetId: string;
  readonly blob: DatasetFileBlob;
}

/**
 * Fetches and opens one pack and takes out the files its listings name, each checked against
 * the size and SHA-256 its definition records. A pack that cannot be had fails all of them.
 */
async function downloadPack(
  options: DatasetFilesOptions,
  address: string,
  listings: readonly Listing[],
): Promise<{
  files: { listing: Listing; bytes: Uint8Array<ArrayBuffer> }[];
  failed: { listing: Listing; error: unknown }[];
  received: number;
}> {
  const { crypto, session, transport } = options;
  const timed = options.timed ?? untimed;
  const sealed = await transport.getBlob(address);
  if (sealed === null) throw new Error('its pack is not on the server');
  const plain = await timed(async () => {
    if (hex(await crypto.subtle.digest('SHA-256', sealed)) !== address) {
      throw new SyncCryptoError('tampered', 'a pack is not what its address says');
    }
    return openBytes(crypto, session.dataKey, sealed, packContext(session));
  });
  const files: { listing: Listing; bytes: Uint8Array<ArrayBuffer> }[] = [];
  const failed: { listing: Listing; error: unknown }[] = [];
  for (const listing of listings) {
    const { blob } = listing;
    const offset = blob.packOffset ?? 0;
    try {
      if (blob.parts.length !== 1) {
        throw new SyncCryptoError('tampered', 'a packed file must name one pack');
      }
      if (offset + blob.size > plain.length) {
        throw new SyncCryptoError('tampered', 'its size is not as recorded');
      }
      const bytes = plain.slice(offset, offset + blob.size);
      const digest = await timed(async () => hex(await crypto.subtle.digest('SHA-256', bytes)));
      if (digest !== blob.fileId) {
        throw new SyncCryptoError('tampered', 'its bytes are not the file recorded');
      }
      files.push({ listing, bytes });
    } catch (error) {
      failed.push({ listing, error });
    }
  }
  return { files, failed, received: sealed.length };
}

/** Fetches the files the synced definitions list and this device lacks. */
export async function downloadDatasetFiles(
  options: DatasetFilesOptions,
): Promise<DatasetFilesReport> {
  const { store, session } = options;
  const wanted = await store.read(['datasets', 'datasetFiles'], async (tx) => {
    const list: Listing[] = [];
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
  const problems = new Map<string, UnfetchedFile>();
  const done = new Set<string>();
  const sizes = new Map(wanted.map(({ blob }) => [blob.fileId, blob.size]));
  const total = sizes.size;
  const totalBytes = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  let plainBytes = 0;
  // Files tried, fetched or not, for the progress: each file is tried until one listing works.
  const tried = new Set<string>();
  const progress = () => {
    options.onFileProgress?.(tried.size, total, { done: plainBytes, total: totalBytes });
  };
  if (total > 0) progress();
  const failedOnce = (blob: DatasetFileBlob, error: unknown) => {
    tried.add(blob.fileId);
    progress();
    if (done.has(blob.fileId) || problems.has(blob.fileId)) return;
    problems.set(blob.fileId, {
      fileId: blob.fileId,
      name: blob.name,
      reason: problemReason(error),
    });
  };
  const storeFetched = async (fetched: { listing: Listing; bytes: Uint8Array<ArrayBuffer> }[]) => {
    const fresh = fetched.filter(({ listing }) => !done.has(listing.blob.fileId));
    if (fresh.length === 0) return;
    const addedAt = new Date(options.now()).toISOString();
    await store.write(['datasetFiles'], async (tx) => {
      const held = await tx.getMany(
        'datasetFiles',
        fresh.map(({ listing }) => listing.blob.fileId),
      );
      for (const [index, { listing, bytes: fileBytes }] of fresh.entries()) {
        if (held[index] !== undefined) continue;
        await tx.put('datasetFiles', {
          id: listing.blob.fileId,
          datasetId: listing.datasetId,
          name: listing.blob.name,
          size: listing.blob.size,
          bytes: fileBytes,
          addedAt,
        });
      }
    });
    for (const { listing } of fresh) {
      const { fileId, size } = listing.blob;
      if (done.has(fileId)) continue;
      done.add(fileId);
      tried.add(fileId);
      problems.delete(fileId);
      plainBytes += size;
      files++;
    }
    progress();
  };

  // Packs first, a few at a time, each fetched once for all the files it holds.
  const packs = new Map<string, Listing[]>();
  for (const listing of wanted) {
    if (listing.blob.packOffset === undefined) continue;
    const address = listing.blob.parts[0] ?? '';
    packs.set(address, [...(packs.get(address) ?? []), listing]);
  }
  const inFlight = new InFlight(BLOBS_IN_FLIGHT);
  for (const [address, listings] of packs) {
    await inFlight.run(async () => {
      const pending = listings.filter(({ blob }) => !done.has(blob.fileId));
      if (pending.length === 0) return;
      let unpacked: Awaited<ReturnType<typeof downloadPack>>;
      try {
        unpacked = await downloadPack(options, address, pending);
      } catch (error) {
        for (const { blob } of pending) failedOnce(blob, error);
        return;
      }
      bytes += unpacked.received;
      // A store that cannot write stops the run, as it would for a file alone.
      await storeFetched(unpacked.files);
      for (const { listing, error } of unpacked.failed) failedOnce(listing.blob, error);
    });
  }
  await inFlight.drain();

  // Then the files sealed alone, one at a time.
  for (const listing of wanted) {
    const { blob } = listing;
    if (blob.packOffset !== undefined || done.has(blob.fileId)) continue;
    let fetched: { bytes: Uint8Array<ArrayBuffer>; received: number };
    try {
      fetched = await downloadFile(options, blob);
    } catch (error) {
      failedOnce(blob, error);
      continue;
    }
    bytes += fetched.received;
    await storeFetched([{ listing, bytes: fetched.bytes }]);
  }
  const unfetched = [...problems.values()];
  return {
    files,
    bytes,
    problems: unfetched.map(
      ({ name, reason }) => `The file ${name} of a synced dataset could not be fetched: ${reason}.`,
    ),
    unfetched,
  };
}
