import type { DatasetFile, DatasetFileBlob } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';
import { convergentNonceSecret, SyncCryptoError } from '../crypto/sync-crypto.ts';
import type { BlobOptions, Listing, Uploaded } from './sync-dataset-blobs.ts';
import {
  BLOB_PART_BYTES,
  downloadFile,
  downloadPack,
  uploadFile,
  uploadPack,
} from './sync-dataset-blobs.ts';

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
// One blob, sealed and put or fetched and opened, is sync-dataset-blobs.ts's.

// The blobs' transport, named here too: the engine and the tests give it with these options.
export type { BlobTransport } from './sync-dataset-blobs.ts';

/** Plaintext bytes a pack holds at most: a few requests for a dataset of many small files. */
export const BLOB_PACK_BYTES = 4 * 1024 * 1024;
/** Files up to this size go in packs; larger ones go alone, in parts. */
export const PACKED_FILE_MAX_BYTES = 1024 * 1024;
/** Blobs on their way up or down at once (packs, and on upload the large files' parts). */
export const BLOBS_IN_FLIGHT = 4;

/** How far the files of a run have come, in bytes of plaintext. */
export interface FileBytesProgress {
  readonly done: number;
  /** Known on download (the definitions record sizes); null on upload. */
  readonly total: number | null;
}

/** A run's options: a blob's (transport, crypto, session, timing, part size) and these. */
export interface DatasetFilesOptions extends BlobOptions {
  readonly store: LocalStore;
  readonly now: () => number;
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
  const run = new UploadRun(
    options,
    work.reduce((sum, { missing }) => sum + missing.length, 0),
  );
  if (run.total > 0) run.progress();
  for (const { row, enrolled, missing } of work) {
    if (enrolled && missing.length === 0) continue;
    const uploaded = await uploadMissingFiles(options, run, missing);
    if (enrolled && uploaded.length === 0) continue;
    await recordUploadedBlobs(options, row.id, uploaded);
  }
  return { files: run.files, bytes: run.bytes, problems: [] };
}

/** What an upload run has sent so far, for its progress and its report. */
class UploadRun {
  files = 0;
  /** Sealed bytes sent. */
  bytes = 0;
  /** Plaintext bytes of the files sent. */
  plainBytes = 0;
  /** Files to send: less each one this device turns out not to hold. */
  total: number;
  /** The secret packs' nonces are derived with, made once a run when it first sends a pack. */
  secret: Uint8Array<ArrayBuffer> | null = null;

  constructor(
    private readonly options: DatasetFilesOptions,
    total: number,
  ) {
    this.total = total;
  }

  progress(): void {
    this.options.onFileProgress?.(this.files, this.total, { done: this.plainBytes, total: null });
  }
}

/**
 * Uploads a dataset's missing files, small ones in packs, a few blobs at a time; gives the blobs
 * they went up as.
 */
async function uploadMissingFiles(
  options: DatasetFilesOptions,
  run: UploadRun,
  missing: readonly string[],
): Promise<DatasetFileBlob[]> {
  const { store } = options;
  const packBytes = options.packBytes ?? BLOB_PACK_BYTES;
  const packedMax = Math.min(PACKED_FILE_MAX_BYTES, options.partBytes ?? BLOB_PART_BYTES);
  const uploaded: DatasetFileBlob[] = [];
  const inFlight = new InFlight(BLOBS_IN_FLIGHT);
  const send = (upload: () => Promise<Uploaded>) =>
    inFlight.run(async () => {
      const result = await upload();
      uploaded.push(...result.blobs);
      run.files += result.blobs.length;
      run.bytes += result.sent;
      run.plainBytes += result.plain;
      run.progress();
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
    run.secret ??= await convergentNonceSecret(options.crypto, options.session.dataKey);
    const key = run.secret;
    return send(() => uploadPack(options, key, held));
  };
  for (const fileId of missing) {
    if (inFlight.failed) break;
    // One file read at a time, and at most a few packs in memory: a dataset's files together
    // may be hundreds of megabytes.
    const file = await store.read(['datasetFiles'], (tx) => tx.get('datasetFiles', fileId));
    // A file this device does not hold is another device's to upload.
    if (file === undefined) {
      run.total--;
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
  return uploaded;
}

/** The dataset's definition takes the uploaded blobs, through the outbox. */
async function recordUploadedBlobs(
  options: DatasetFilesOptions,
  datasetId: string,
  uploaded: readonly DatasetFileBlob[],
): Promise<void> {
  const { store, session } = options;
  const nowMs = options.now();
  await store.write(['datasets', ...outboxTables], async (tx) => {
    const latest = await tx.get('datasets', datasetId);
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
    const inSync = (await tx.get('syncState', `datasets|${datasetId}`)) !== undefined;
    const outbox = await OutboxWriter.open(tx, session.deviceId, nowMs);
    await outbox.put('datasets', {
      row: { ...latest, blobs },
      ...(inSync ? { changed: ['blobs'] as const } : {}),
    });
    await outbox.close();
  });
}

/** Why a file could not be had, as the user reads it. */
function problemReason(error: unknown): string {
  return error instanceof SyncCryptoError
    ? `it failed its integrity check (${error.message}); it was altered, or not made with your key`
    : error instanceof Error
      ? error.message
      : String(error);
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
  const run = new DownloadRun(options, wanted);
  if (run.total > 0) run.progress();

  await downloadPacks(options, run, wanted);

  // Then the files sealed alone, one at a time.
  for (const listing of wanted) {
    const { blob } = listing;
    if (blob.packOffset !== undefined || run.done.has(blob.fileId)) continue;
    let fetched: { bytes: Uint8Array<ArrayBuffer>; received: number };
    try {
      fetched = await downloadFile(options, blob);
    } catch (error) {
      run.failedOnce(blob, error);
      continue;
    }
    run.bytes += fetched.received;
    await run.storeFetched([{ listing, bytes: fetched.bytes }]);
  }
  const unfetched = [...run.problems.values()];
  return {
    files: run.files,
    bytes: run.bytes,
    problems: unfetched.map(
      ({ name, reason }) => `The file ${name} of a synced dataset could not be fetched: ${reason}.`,
    ),
    unfetched,
  };
}

/** Packs first, a few at a time, each fetched once for all the files it holds. */
async function downloadPacks(
  options: DatasetFilesOptions,
  run: DownloadRun,
  wanted: readonly Listing[],
): Promise<void> {
  const packs = new Map<string, Listing[]>();
  for (const listing of wanted) {
    if (listing.blob.packOffset === undefined) continue;
    const address = listing.blob.parts[0] ?? '';
    packs.set(address, [...(packs.get(address) ?? []), listing]);
  }
  const inFlight = new InFlight(BLOBS_IN_FLIGHT);
  for (const [address, listings] of packs) {
    await inFlight.run(async () => {
      const pending = listings.filter(({ blob }) => !run.done.has(blob.fileId));
      if (pending.length === 0) return;
      let unpacked: Awaited<ReturnType<typeof downloadPack>>;
      try {
        unpacked = await downloadPack(options, address, pending);
      } catch (error) {
        for (const { blob } of pending) run.failedOnce(blob, error);
        return;
      }
      run.bytes += unpacked.received;
      // A store that cannot write stops the run, as it would for a file alone.
      await run.storeFetched(unpacked.files);
      for (const { listing, error } of unpacked.failed) run.failedOnce(listing.blob, error);
    });
  }
  await inFlight.drain();
}

/** A download run's files: those had, those that failed and why, and the progress. */
class DownloadRun {
  files = 0;
  /** Sealed bytes received. */
  bytes = 0;
  // Per file: a file two definitions list is fetched once, and a listing that fails (altered,
  // or forged by a definition) does not keep it from another listing that works.
  readonly problems = new Map<string, UnfetchedFile>();
  readonly done = new Set<string>();
  readonly total: number;
  private readonly totalBytes: number;
  private plainBytes = 0;
  // Files tried, fetched or not, for the progress: each file is tried until one listing works.
  private readonly tried = new Set<string>();

  constructor(
    private readonly options: DatasetFilesOptions,
    wanted: readonly Listing[],
  ) {
    const sizes = new Map(wanted.map(({ blob }) => [blob.fileId, blob.size]));
    this.total = sizes.size;
    this.totalBytes = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  }

  progress(): void {
    const { tried, total, plainBytes, totalBytes } = this;
    this.options.onFileProgress?.(tried.size, total, { done: plainBytes, total: totalBytes });
  }

  /** A listing of the file failed: the file's problem, unless it is had or failed already. */
  failedOnce(blob: DatasetFileBlob, error: unknown): void {
    this.tried.add(blob.fileId);
    this.progress();
    if (this.done.has(blob.fileId) || this.problems.has(blob.fileId)) return;
    this.problems.set(blob.fileId, {
      fileId: blob.fileId,
      name: blob.name,
      reason: problemReason(error),
    });
  }

  /** Stores the fetched files not had yet, in one transaction (a pack's files together). */
  async storeFetched(
    fetched: { listing: Listing; bytes: Uint8Array<ArrayBuffer> }[],
  ): Promise<void> {
    const { done } = this;
    const fresh = fetched.filter(({ listing }) => !done.has(listing.blob.fileId));
    if (fresh.length === 0) return;
    const addedAt = new Date(this.options.now()).toISOString();
    await this.options.store.write(['datasetFiles'], async (tx) => {
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
      this.tried.add(fileId);
      this.problems.delete(fileId);
      this.plainBytes += size;
      this.files++;
    }
    this.progress();
  }
}
