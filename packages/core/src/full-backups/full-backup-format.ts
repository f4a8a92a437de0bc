import { gunzipSync, gzipSync } from 'fflate';
import type { DeviceVaultMaterial } from '../crypto/device-vault-crypto.ts';
import type { KdfParams } from '../crypto/sync-crypto.ts';
import type { FullBackup } from '../store/local-records.ts';
import type { TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';

// A full backup file: the whole local database of a device in one file, so a user can rescue
// their data from a device that is signed out, offline or about to be reset (PRODUCT.md).
//
// ## Version 2 (written by full-backup-writer.ts)
//
//   "DOCKETFB"                 8 bytes of magic: tells a full backup from anything else
//   u32 H, header              H bytes of UTF-8 JSON (FullBackupHeader): format, version,
//                              createdAt, and the passphrase's Argon2id parameters, salt and key
//                              check when the file is encrypted; nothing else is readable
//                              without the passphrase
//   { u32 L, chunk }*          the chunks, in order; every chunk is gzip'd, and when encrypted,
//                              sealed: 12-byte nonce + AES-256-GCM ciphertext with its tag
//   u32 0                      the end marker (no chunk is empty)
//   32 bytes                   SHA-256 of every byte before it
//
// A chunk, once opened and gunzipped, is `u32 J, J bytes of JSON, binary segments`. The JSON is
// `{index, kind: 'rows', table, rows, segments}`, where every Uint8Array of the rows (a dataset
// file's bytes) is written as `{"$bytes": n}` and its bytes are segment n, appended raw after
// the JSON instead of being base64'd into it. Chunks hold rows of one table, in key order, about
// a megabyte of JSON or a few megabytes of bytes each, so neither the writer nor the reader ever
// holds the database as one string; a table's chunks are consecutive. The last chunk is
// `{index, kind: 'manifest', manifest}`: what the file holds (FullBackupManifest), counted
// while writing, which the preview shows and the reader checks against what it read.
//
// What refuses what:
// - a file that does not start with the magic (nor is a version 1 file): not a full backup;
// - a missing end marker or digest, or a chunk running past the end: truncated;
// - a digest that does not match: damaged (an edited or flipped byte);
// - the key check not matching the key from the passphrase: wrong passphrase;
// - a chunk that does not open: its associated data is the header's bytes plus the chunk's index
//   and whether it is the last, so an edited header, chunks reordered, dropped or cut after a
//   chunk boundary (with the digest rewritten) all fail here;
// - rows that do not match their table's schema, or counts that differ from the manifest.
//
// Device secrets are never written: the settings under `device:cloud-keys:` hold this device's
// cloud key-encryption key (its bytes, sealed on the device; handles in older rows), which must
// not leave it. The manifest
// counts the settings left out so the preview can say so. Full backups themselves are not in
// a full backup.
//
// ## Version 1 (user-data-copy.ts)
//
// A gzip'd JSON document `{format: 'docket-full-backup', version: 1, createdAt, reason,
// scope: 'user-data', tables: {<table>: rows}}` holding only the user-made tables, the sync
// state and the outbox, which sync writes before a reset revert and a backup's restore before it
// replaces anything. It is read, previewed and restored too (only the tables it holds are replaced).

export const FULL_BACKUP_FORMAT = 'docket-full-backup';
export const FULL_BACKUP_VERSION = 2;
export const FULL_BACKUP_MAGIC = encodeUtf8('DOCKETFB');
export const FULL_BACKUP_FILE_EXTENSION = '.docket-backup';
export const DIGEST_BYTES = 32;
export const NONCE_BYTES = 12;
/** Settings with this prefix hold this device's cloud keys: never in a full backup. */
export const DEVICE_SECRET_PREFIX = 'device:cloud-keys:';
/** Settings with this prefix belong to this device: a restore keeps this device's own. */
export const DEVICE_SETTING_PREFIX = 'device:';

/** Every table a full backup holds: all but the full backups themselves. */
export const fullBackupTables: readonly TableName[] = (
  Object.keys(localTables) as TableName[]
).filter((table) => table !== 'fullBackups');

// Nothing larger is unpacked from one chunk or one version 1 file: the largest dataset file an
// import takes is 256 MB, and a hostile file must not make the reader allocate gigabytes.
const MAX_UNPACKED_BYTES = 320 * 1024 * 1024;

export type FullBackupErrorCode =
  | 'not-a-backup'
  | 'unsupported-version'
  | 'truncated'
  | 'damaged'
  | 'needs-passphrase'
  | 'wrong-passphrase'
  | 'tampered'
  | 'invalid-contents'
  | 'invalid-input'
  | 'busy'
  | 'not-found'
  | 'needs-account-password'
  | 'wrong-account-password';

/** A full backup refused for a reason the user can understand; nothing was changed. */
export class FullBackupError extends Error {
  constructor(
    readonly code: FullBackupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FullBackupError';
  }
}

export const fullBackupMessages = {
  notABackup: 'This file is not a Docket full backup.',
  truncated:
    'This full backup is incomplete: the file was cut short, perhaps by an unfinished download.',
  damaged: 'This full backup is damaged: its contents do not match their checksum.',
  needsPassphrase: 'This full backup is protected by a passphrase. Enter it to open the backup.',
  wrongPassphrase: 'That passphrase does not open this full backup. Check it and try again.',
  tampered: 'This full backup failed its integrity check: it was changed after it was made.',
  needsAccountPassword:
    "This full backup holds an account's work that was locked on its device. Enter that account's password to open it.",
  needsAccountPasswordOrPassphrase:
    "This full backup holds an account's work that was locked on its device. Enter that account's password, or the passphrase it set for backups made while signed out, to open it.",
  wrongAccountPassword:
    "That password does not open this account's work. Enter the password the account had when the backup was made.",
  wrongAccountPasswordOrPassphrase:
    "That does not open this account's work. Enter the password the account had when the backup was made, or the passphrase it set for backups made while signed out.",
} as const;

/**
 * The account a full backup made signed out of a locked account's database belongs to: its
 * private rows are in the file as they were stored, sealed under the account's vault key, and
 * this is that key wrapped under the account's password (the device's lock file). Only that
 * password opens them again.
 */
export interface FullBackupLockedAccount {
  readonly accountId: string;
  readonly vault: DeviceVaultMaterial;
  /**
   * The same vault key wrapped a second time under a passphrase the account set for this while
   * signed in ("Passphrase for backups made while signed out"): either opens the rows.
   */
  readonly passphraseVault?: DeviceVaultMaterial;
}

export interface FullBackupEncryption {
  readonly cipher: 'AES-256-GCM';
  readonly kdf: KdfParams;
  /** Salt of the Argon2id key, base64. */
  readonly salt: string;
  /** SHA-256 of a label and the derived key, base64: tells a wrong passphrase from damage. */
  readonly keyCheck: string;
}

export interface FullBackupHeader {
  readonly format: typeof FULL_BACKUP_FORMAT;
  readonly version: typeof FULL_BACKUP_VERSION;
  readonly createdAt: string;
  readonly compression: 'gzip';
  readonly encryption: FullBackupEncryption | null;
}

export interface FullBackupDatasetSummary {
  readonly id: string;
  readonly name: string;
  readonly files: number;
  readonly bytes: number;
}

/** A full backup as the list shows it: its row without the file's bytes. */
export type FullBackupSummary = Omit<FullBackup, 'bytes'>;

export function fullBackupSummary(backup: FullBackup): FullBackupSummary {
  return {
    id: backup.id,
    name: backup.name,
    createdAt: backup.createdAt,
    encrypted: backup.encrypted,
    size: backup.size,
  };
}

/** What a full backup holds, as the preview shows it. */
export interface FullBackupManifest {
  readonly name: string;
  readonly createdAt: string;
  /** The id of the device that made it, when known. */
  readonly deviceId: string | null;
  /** Why it was made: 'manual', 'before-restore', 'cloud-password-reset'. */
  readonly reason: string;
  /** 'device': every table; 'user-data': the user-made tables only (version 1). */
  readonly scope: 'device' | 'user-data';
  /** Rows per table held; a table that is absent is not in the backup (and not restored). */
  readonly tables: Partial<Record<TableName, number>>;
  readonly chunkCount: number;
  readonly datasets: readonly FullBackupDatasetSummary[];
  /** Settings left out because they are device secrets (cloud keys). */
  readonly skippedSettings: number;
  /** Present when the rows of the private tables are sealed under a locked account's vault. */
  readonly lockedAccount?: FullBackupLockedAccount;
}

export interface RowsChunk {
  readonly index: number;
  readonly kind: 'rows';
  readonly table: TableName;
  readonly rows: unknown[];
}
export interface ManifestChunk {
  readonly index: number;
  readonly kind: 'manifest';
  readonly manifest: FullBackupManifest;
}
export type DecodedChunk = RowsChunk | ManifestChunk;

// ---- Bytes ---------------------------------------------------------------------------------

export function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, false);
  return bytes;
}

export function readU32(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, false);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (bytes[index] !== prefix[index]) return false;
  }
  return true;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Gunzips with a bound on the size the stream declares, so a hostile file cannot balloon. */
export function boundedGunzip(bytes: Uint8Array, onBad: () => FullBackupError): Uint8Array {
  if (!isGzip(bytes)) throw onBad();
  // ISIZE: the last four bytes, little-endian, the size mod 2^32.
  const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    bytes.length - 4,
    true,
  );
  if (declared > MAX_UNPACKED_BYTES) throw onBad();
  try {
    const out = gunzipSync(bytes);
    if (out.length !== declared) throw onBad();
    return out;
  } catch (error) {
    if (error instanceof FullBackupError) throw error;
    throw onBad();
  }
}

// ---- Chunks --------------------------------------------------------------------------------

const BYTES_MARK = '$bytes';

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Thrown for a value JSON cannot carry (a CryptoKey, a Map…): the row is left out or refused. */
export class NotSerialisableError extends Error {
  constructor(readonly what: string) {
    super(`A ${what} cannot be written to a full backup.`);
    this.name = 'NotSerialisableError';
  }
}

/**
 * A row as JSON text, its byte arrays moved to `segments`. Throws NotSerialisableError for any
 * value JSON would silently turn into `{}`.
 */
export function encodeRow(row: unknown, segments: Uint8Array[]): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (value instanceof Uint8Array) {
      segments.push(value);
      return { [BYTES_MARK]: segments.length - 1 };
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      if (!isPlainObject(value)) {
        throw new NotSerialisableError(
          (value as { constructor?: { name?: string } }).constructor?.name ?? 'value',
        );
      }
    }
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
      throw new NotSerialisableError(typeof value);
    }
    return value;
  });
}

/** The plaintext of a rows chunk from its rows' JSON texts, gzip'd. */
export function packRowsChunk(
  index: number,
  table: TableName,
  rowTexts: readonly string[],
  segments: readonly Uint8Array[],
): Uint8Array {
  const json = `{"index":${index},"kind":"rows","table":${JSON.stringify(table)},"segments":${JSON.stringify(
    segments.map((segment) => segment.length),
  )},"rows":[${rowTexts.join(',')}]}`;
  return packChunk(json, segments);
}

export function packManifestChunk(index: number, manifest: FullBackupManifest): Uint8Array {
  return packChunk(JSON.stringify({ index, kind: 'manifest', manifest, segments: [] }), []);
}

const SAMPLE_BYTES = 64 * 1024;

/**
 * Dataset files are often zip archives, which do not shrink: deflating them again costs about
 * ten times as long as storing them. A sample of the largest decides.
 */
function levelFor(segments: readonly Uint8Array[]): 0 | 6 {
  let largest: Uint8Array | undefined;
  for (const segment of segments) if (segment.length > (largest?.length ?? 0)) largest = segment;
  if (largest === undefined || largest.length < SAMPLE_BYTES) return 6;
  const sample = largest.subarray(0, SAMPLE_BYTES);
  return gzipSync(sample, { level: 1 }).length > sample.length * 0.9 ? 0 : 6;
}

function packChunk(json: string, segments: readonly Uint8Array[]): Uint8Array {
  const text = encodeUtf8(json);
  return gzipSync(concatBytes([u32(text.length), text, ...segments]), {
    level: levelFor(segments),
  });
}

const invalid = (reason: string) =>
  new FullBackupError('invalid-contents', `This full backup cannot be read: ${reason}.`);

/** Opens a chunk's gzip'd plaintext; `expectedIndex` is its place in the file. */
export function unpackChunk(
  compressed: Uint8Array,
  expectedIndex: number,
  onBad: () => FullBackupError,
): DecodedChunk {
  const plain = boundedGunzip(compressed, onBad);
  if (plain.length < 4) throw onBad();
  const jsonLength = readU32(plain, 0);
  if (4 + jsonLength > plain.length) throw onBad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(plain.subarray(4, 4 + jsonLength)));
  } catch {
    throw onBad();
  }
  if (typeof parsed !== 'object' || parsed === null) throw onBad();
  const chunk = parsed as Record<string, unknown>;
  if (chunk.index !== expectedIndex) {
    throw new FullBackupError('tampered', fullBackupMessages.tampered);
  }
  const sizes = chunk.segments;
  if (!Array.isArray(sizes) || !sizes.every((size) => Number.isInteger(size) && size >= 0)) {
    throw onBad();
  }
  const segments: Uint8Array[] = [];
  let offset = 4 + jsonLength;
  for (const size of sizes as number[]) {
    if (offset + size > plain.length) throw onBad();
    // A copy, not a view: storing a view in IndexedDB would store the whole chunk with it.
    segments.push(plain.slice(offset, offset + size));
    offset += size;
  }
  if (offset !== plain.length) throw onBad();

  if (chunk.kind === 'manifest') {
    if (typeof chunk.manifest !== 'object' || chunk.manifest === null) throw onBad();
    return {
      index: expectedIndex,
      kind: 'manifest',
      manifest: chunk.manifest as FullBackupManifest,
    };
  }
  if (chunk.kind !== 'rows') throw onBad();
  const table = chunk.table;
  if (typeof table !== 'string' || !fullBackupTables.includes(table as TableName)) {
    throw invalid(`it names a table Docket does not have (${JSON.stringify(String(table))})`);
  }
  if (!Array.isArray(chunk.rows)) throw onBad();
  const rows =
    segments.length === 0 ? chunk.rows : (reviveBytes(chunk.rows, segments) as unknown[]);
  return { index: expectedIndex, kind: 'rows', table: table as TableName, rows };
}

/** Puts the segments back where `{"$bytes": n}` stands. */
function reviveBytes(value: unknown, segments: readonly Uint8Array[]): unknown {
  if (Array.isArray(value)) return value.map((item) => reviveBytes(item, segments));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === BYTES_MARK) {
    const segment = segments[record[BYTES_MARK] as number];
    if (segment === undefined) throw invalid('a reference to bytes that are not there');
    return segment;
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = reviveBytes(record[key], segments);
  return out;
}

/** The file name a download gets: docket-full-backup-YYYY-MM-DD.docket-backup. */
export function fullBackupFileName(createdAt: string): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(createdAt)?.[0] ?? 'undated';
  return `docket-full-backup-${day}${FULL_BACKUP_FILE_EXTENSION}`;
}
