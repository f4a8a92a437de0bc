import type { DatasetFile, DatasetFileBlob } from '../store/local-records.ts';
import { defaultImportLimits } from '../encoding/zip-archive.ts';
import {
  openBytes,
  sealBytes,
  sealBytesConvergent,
  SyncCryptoError,
} from '../crypto/sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// One blob of a dataset's files (sync-dataset-files.ts says when each goes, and why): a file
// alone, cut into parts each sealed with a fresh nonce and bound to its place, or a pack of small
// files sealed with a nonce derived from its bytes. Sealed, addressed by the SHA-256 of the
// ciphertext and put; or fetched, checked against its address, opened, and each file checked
// against the size and SHA-256 its definition records.

/** Plaintext bytes per part: well under the server's blob limit (MAX_BLOB_BYTES). */
export const BLOB_PART_BYTES = 8 * 1024 * 1024;

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

/** Whose blobs: the user and device, and the key epoch they are sealed under. */
export interface DatasetFilesSession {
  readonly userId: string;
  readonly deviceId: string;
  readonly epoch: number;
  readonly dataKey: OpaqueCryptoKey;
}

/** What moving one blob takes: the run's options (DatasetFilesOptions) as far as a blob goes. */
export interface BlobOptions {
  readonly transport: BlobTransport;
  readonly crypto: WebCryptoPort;
  readonly session: DatasetFilesSession;
  /** Wraps the crypto work, so the run can say how long it took. */
  readonly timed?: <T>(work: () => Promise<T>) => Promise<T>;
  readonly partBytes?: number;
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
export interface Uploaded {
  readonly blobs: DatasetFileBlob[];
  /** Sealed bytes sent: 0 when the server had the pack already. */
  readonly sent: number;
  /** Plaintext bytes of the files it holds. */
  readonly plain: number;
}

export async function uploadFile(options: BlobOptions, file: DatasetFile): Promise<Uploaded> {
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
export async function uploadPack(
  options: BlobOptions,
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

export async function downloadFile(
  options: BlobOptions,
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

export interface Listing {
  readonly datasetId: string;
  readonly blob: DatasetFileBlob;
}

/**
 * Fetches and opens one pack and takes out the files its listings name, each checked against
 * the size and SHA-256 its definition records. A pack that cannot be had fails all of them.
 */
export async function downloadPack(
  options: BlobOptions,
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
