import type { z } from 'zod';
import { digestOf, openBackupKey, openChunk, usableKdf } from './full-backup-crypto.ts';
import {
  DIGEST_BYTES,
  FULL_BACKUP_FORMAT,
  FULL_BACKUP_MAGIC,
  FULL_BACKUP_VERSION,
  FullBackupError,
  boundedGunzip,
  fullBackupMessages,
  fullBackupTables,
  isGzip,
  readU32,
  startsWith,
  unpackChunk,
  type FullBackupEncryption,
  type FullBackupLockedAccount,
  type FullBackupManifest,
  type FullBackupDatasetSummary,
} from './full-backup-format.ts';
import {
  deviceRowKey,
  openDeviceVault,
  type DeviceVaultMaterial,
} from '../crypto/device-vault-crypto.ts';
import { SyncCryptoError } from '../crypto/sync-crypto.ts';
import { openRow } from '../store/sealed-rows.ts';
import { isSealedTable, type SealedTable } from '../store/sealed-tables.ts';
import { localRowSchemas, type Dataset } from '../store/local-records.ts';
import type { LocalRows, TableName } from '../store/local-store.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// Reads a full backup file of either version (full-backup-format.ts) into an OpenedFullBackup:
// the file checked from end to end (structure, digest, passphrase, every chunk opened, every
// row against its table's schema, the counts against the manifest) before anyone can act on
// it. A locked account's file (made signed out from its sealed database) opens only with that
// account's password: its private rows are opened here, before they are checked. What stays in memory is each chunk's compressed plaintext, about the size of the file;
// `chunks()` unpacks them again one at a time for the restore.

type BackupTable = Exclude<TableName, 'fullBackups'>;

const rowSchemas: { [N in BackupTable]: z.ZodType<LocalRows[N]> } = localRowSchemas;

/** What the file says before it is opened: enough to know whether to ask for a passphrase. */
export interface FullBackupInfo {
  readonly version: 1 | 2;
  readonly encrypted: boolean;
  readonly createdAt: string | null;
}

export interface TableRows {
  readonly table: TableName;
  readonly rows: readonly unknown[];
}

export interface OpenedFullBackup extends FullBackupInfo {
  readonly manifest: FullBackupManifest;
  /** The tables the backup holds (and a restore replaces), with how many rows. */
  readonly tables: readonly { table: TableName; rows: number }[];
  /** The rows, chunk by chunk, in file order (a table's chunks are consecutive); checked. */
  chunks(): Generator<TableRows>;
}

export interface OpenFullBackupOptions {
  readonly crypto: WebCryptoPort;
  /** Needed when the file is encrypted. */
  readonly passphrase?: string;
  /** Needed when the file holds a locked account's sealed rows (`manifest.lockedAccount`). */
  readonly accountPassword?: string;
  /** Rows checked so far, of the total the manifest promises. */
  readonly onProgress?: (progress: { checked: number; total: number }) => Promise<void>;
}

const notABackup = () => new FullBackupError('not-a-backup', fullBackupMessages.notABackup);
const truncated = () => new FullBackupError('truncated', fullBackupMessages.truncated);
const damaged = () => new FullBackupError('damaged', fullBackupMessages.damaged);

/** Reads the header only: which version, encrypted or not, when it was made. */
export function inspectFullBackup(bytes: Uint8Array): FullBackupInfo {
  if (isGzip(bytes)) {
    const document = readVersion1(bytes);
    return { version: 1, encrypted: false, createdAt: document.createdAt };
  }
  const { header } = readVersion2Header(bytes);
  return { version: 2, encrypted: header.encryption !== null, createdAt: header.createdAt };
}

/** Checks the whole file and opens it; throws FullBackupError with the reason otherwise. */
export async function openFullBackup(
  bytes: Uint8Array,
  options: OpenFullBackupOptions,
): Promise<OpenedFullBackup> {
  if (isGzip(bytes)) return openVersion1(bytes);
  return openVersion2(bytes, options);
}

// ---- Version 2 ----------------------------------------------------------------------------

interface Version2Header {
  createdAt: string;
  encryption: FullBackupEncryption | null;
}

function readVersion2Header(bytes: Uint8Array): {
  header: Version2Header;
  headerBytes: Uint8Array;
  bodyStart: number;
} {
  if (!startsWith(bytes, FULL_BACKUP_MAGIC)) {
    // A prefix of the magic is a file cut short, not some other file.
    if (bytes.length < FULL_BACKUP_MAGIC.length && startsWith(FULL_BACKUP_MAGIC, bytes)) {
      throw bytes.length === 0 ? notABackup() : truncated();
    }
    throw notABackup();
  }
  const start = FULL_BACKUP_MAGIC.length;
  if (bytes.length < start + 4) throw truncated();
  const length = readU32(bytes, start);
  if (bytes.length < start + 4 + length) throw truncated();
  const headerBytes = bytes.subarray(start + 4, start + 4 + length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(headerBytes));
  } catch {
    throw damaged();
  }
  const header = parsed as Partial<Record<string, unknown>> | null;
  if (typeof header !== 'object' || header === null || header.format !== FULL_BACKUP_FORMAT) {
    throw damaged();
  }
  if (typeof header.version !== 'number' || header.version > FULL_BACKUP_VERSION) {
    throw new FullBackupError(
      'unsupported-version',
      `This full backup was made by a newer version of Docket (format version ${String(header.version)}). Update Docket to open it.`,
    );
  }
  if (header.version !== FULL_BACKUP_VERSION || typeof header.createdAt !== 'string') {
    throw damaged();
  }
  const encryption = header.encryption;
  if (encryption !== null && typeof encryption !== 'object') {
    throw damaged();
  }
  return {
    header: { createdAt: header.createdAt, encryption: encryption as FullBackupEncryption | null },
    headerBytes,
    bodyStart: start + 4 + length,
  };
}

/** The chunks' byte ranges, up to the end marker; then the digest must be all that is left. */
function frameChunks(bytes: Uint8Array, bodyStart: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let offset = bodyStart;
  for (;;) {
    if (offset + 4 > bytes.length) throw truncated();
    const length = readU32(bytes, offset);
    offset += 4;
    if (length === 0) break;
    if (offset + length > bytes.length) throw truncated();
    chunks.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  if (offset + DIGEST_BYTES > bytes.length) throw truncated();
  if (offset + DIGEST_BYTES < bytes.length) throw damaged();
  return chunks;
}

async function openVersion2(
  bytes: Uint8Array,
  options: OpenFullBackupOptions,
): Promise<OpenedFullBackup> {
  const { header, headerBytes, bodyStart } = readVersion2Header(bytes);
  const framed = frameChunks(bytes, bodyStart);
  const end = bytes.length - DIGEST_BYTES;
  const digest = await digestOf([bytes.subarray(0, end)]);
  if (digest.some((byte, index) => byte !== bytes[end + index])) throw damaged();
  if (framed.length === 0) throw truncated();

  const encryption = header.encryption;
  const key =
    encryption === null
      ? null
      : await openBackupKey(options.crypto, options.passphrase ?? '', encryption);
  // From here every failure of structure is the file's: after a matching digest and, when
  // encrypted, a chunk that opened, it was made that way on purpose or by a broken writer.
  const bad = () =>
    key === null ? damaged() : new FullBackupError('tampered', fullBackupMessages.tampered);

  const plain = await openChunks(options.crypto, key, framed, headerBytes);
  const lastIndex = framed.length - 1;

  const manifestChunk = unpackChunk(plain[lastIndex] as Uint8Array, lastIndex, bad);
  if (manifestChunk.kind !== 'manifest') throw truncated();
  const manifest = checkManifest(manifestChunk.manifest, lastIndex);
  // A locked account's sealed rows, opened once here and handed out by chunks().
  const openedRows = await checkRowChunks(plain, manifest, options, bad);

  return {
    version: 2,
    encrypted: key !== null,
    createdAt: header.createdAt,
    manifest,
    tables: tableCounts(manifest),
    *chunks() {
      for (let index = 0; index < lastIndex; index++) {
        const chunk = unpackChunk(plain[index] as Uint8Array, index, bad);
        if (chunk.kind === 'rows') {
          yield { table: chunk.table, rows: openedRows.get(index) ?? chunk.rows };
        }
      }
    },
  };
}

/** Each framed chunk's compressed plaintext: opened with the key when the file is encrypted. */
async function openChunks(
  crypto: WebCryptoPort,
  key: OpaqueCryptoKey | null,
  framed: readonly Uint8Array[],
  headerBytes: Uint8Array,
): Promise<Uint8Array[]> {
  const plain: Uint8Array[] = [];
  const lastIndex = framed.length - 1;
  for (const [index, chunk] of framed.entries()) {
    plain.push(
      key === null
        ? chunk
        : await openChunk(crypto, key, chunk, {
            header: headerBytes,
            index,
            last: index === lastIndex,
          }),
    );
  }
  return plain;
}

/**
 * Checks the row chunks (all but the last, the manifest's): each table's chunks together, every
 * row against its table's schema, the counts against the manifest. Gives a locked account's
 * sealed rows, opened with its password, by chunk index.
 */
async function checkRowChunks(
  plain: readonly Uint8Array[],
  manifest: FullBackupManifest,
  options: OpenFullBackupOptions,
  bad: () => FullBackupError,
): Promise<Map<number, unknown[]>> {
  const lastIndex = plain.length - 1;
  const total = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);

  const rowKey =
    manifest.lockedAccount === undefined
      ? null
      : await openLockedAccount(options, manifest.lockedAccount);
  const openedRows = new Map<number, unknown[]>();

  const seen = new Map<TableName, number>();
  let previous: TableName | null = null;
  let checked = 0;
  for (let index = 0; index < lastIndex; index++) {
    const chunk = unpackChunk(plain[index] as Uint8Array, index, bad);
    if (chunk.kind !== 'rows') throw bad();
    if (chunk.table !== previous && seen.has(chunk.table)) throw bad();
    previous = chunk.table;
    if (rowKey !== null && isSealedTable(chunk.table)) {
      openedRows.set(index, await openSealedRows(options.crypto, rowKey, chunk.table, chunk.rows));
    }
    checkRows(chunk.table, openedRows.get(index) ?? chunk.rows);
    seen.set(chunk.table, (seen.get(chunk.table) ?? 0) + chunk.rows.length);
    checked += chunk.rows.length;
    await options.onProgress?.({ checked, total });
  }
  for (const [table, count] of Object.entries(manifest.tables)) {
    if ((seen.get(table as TableName) ?? 0) !== count) throw bad();
  }
  for (const table of seen.keys()) {
    if (manifest.tables[table] === undefined) throw bad();
  }
  return openedRows;
}

/** The vault key of the account whose locked work the file holds, opened with its password. */
async function openLockedAccount(
  options: OpenFullBackupOptions,
  locked: FullBackupLockedAccount,
): Promise<OpaqueCryptoKey> {
  const password = options.accountPassword ?? '';
  if (password === '') {
    throw new FullBackupError(
      'needs-account-password',
      locked.passphraseVault === undefined
        ? fullBackupMessages.needsAccountPassword
        : fullBackupMessages.needsAccountPasswordOrPassphrase,
    );
  }
  // The account's password first, then the passphrase set for backups, when the file has one.
  const locks = [
    locked.vault,
    ...(locked.passphraseVault === undefined ? [] : [locked.passphraseVault]),
  ];
  for (const lock of locks) {
    let keyBytes: Uint8Array;
    try {
      keyBytes = await openDeviceVault(options.crypto, password, locked.accountId, lock);
    } catch (error) {
      if (error instanceof SyncCryptoError && error.code === 'wrong-password') continue;
      throw new FullBackupError('tampered', fullBackupMessages.tampered);
    }
    return deviceRowKey(options.crypto, keyBytes);
  }
  throw new FullBackupError(
    'wrong-account-password',
    locked.passphraseVault === undefined
      ? fullBackupMessages.wrongAccountPassword
      : fullBackupMessages.wrongAccountPasswordOrPassphrase,
  );
}

async function openSealedRows(
  crypto: WebCryptoPort,
  rowKey: OpaqueCryptoKey,
  table: SealedTable,
  rows: readonly unknown[],
): Promise<unknown[]> {
  try {
    return await Promise.all(rows.map((row) => openRow(crypto, rowKey, table, row)));
  } catch {
    throw new FullBackupError('tampered', fullBackupMessages.tampered);
  }
}

/** The locked account a manifest names, checked; anything malformed is a changed file. */
function checkLockedAccount(value: unknown): FullBackupLockedAccount | undefined {
  if (value === undefined) return undefined;
  const bad = () => new FullBackupError('tampered', fullBackupMessages.tampered);
  if (typeof value !== 'object' || value === null) throw bad();
  const { accountId, vault, passphraseVault } = value as Partial<Record<string, unknown>>;
  if (typeof accountId !== 'string') throw bad();
  return {
    accountId,
    vault: checkVaultMaterial(vault),
    ...(passphraseVault === undefined
      ? {}
      : { passphraseVault: checkVaultMaterial(passphraseVault) }),
  };
}

/** A wrapped vault key from a manifest, checked; anything malformed is a changed file. */
function checkVaultMaterial(value: unknown): DeviceVaultMaterial {
  if (typeof value !== 'object' || value === null) {
    throw new FullBackupError('tampered', fullBackupMessages.tampered);
  }
  const { kdf, salt, wrappedKey } = value as Partial<Record<string, unknown>>;
  if (typeof salt !== 'string' || typeof wrappedKey !== 'string') {
    throw new FullBackupError('tampered', fullBackupMessages.tampered);
  }
  // Bounded as a passphrase's are: a hostile file must not ask for gigabytes of memory.
  return { kdf: usableKdf(kdf), salt, wrappedKey };
}

function checkManifest(value: FullBackupManifest, chunkCount: number): FullBackupManifest {
  const bad = () => new FullBackupError('tampered', fullBackupMessages.tampered);
  const tables: Partial<Record<TableName, number>> = {};
  if (typeof value.tables !== 'object' || (value.tables as unknown) === null) throw bad();
  for (const [table, count] of Object.entries(value.tables)) {
    if (!fullBackupTables.includes(table as TableName)) throw bad();
    if (!Number.isInteger(count) || count < 0) throw bad();
    tables[table as TableName] = count;
  }
  if (value.chunkCount !== chunkCount) throw bad();
  const datasets: FullBackupDatasetSummary[] = Array.isArray(value.datasets)
    ? (value.datasets as unknown[]).map((item) => {
        const dataset = (item ?? {}) as Partial<Record<string, unknown>>;
        return {
          id: String(dataset.id),
          name: String(dataset.name),
          files: Number(dataset.files) || 0,
          bytes: Number(dataset.bytes) || 0,
        };
      })
    : [];
  return {
    name: typeof value.name === 'string' ? value.name.slice(0, 200) : 'Full backup',
    createdAt: typeof value.createdAt === 'string' ? value.createdAt : '',
    deviceId: typeof value.deviceId === 'string' ? value.deviceId : null,
    reason: typeof value.reason === 'string' ? value.reason : 'manual',
    scope: value.scope === 'user-data' ? 'user-data' : 'device',
    tables,
    chunkCount,
    datasets,
    skippedSettings: Number.isInteger(value.skippedSettings) ? value.skippedSettings : 0,
    ...lockedPart(checkLockedAccount(value.lockedAccount)),
  };
}

function lockedPart(locked: FullBackupLockedAccount | undefined) {
  return locked === undefined ? {} : { lockedAccount: locked };
}

function checkRows(table: TableName, rows: readonly unknown[]): void {
  if (table === 'fullBackups') throw invalidRow(table, 0, 'full backups are not restored');
  const schema = rowSchemas[table];
  rows.forEach((row, index) => {
    const result = schema.safeParse(row);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw invalidRow(
        table,
        index,
        issue === undefined ? 'it is not valid' : `${issue.path.join('.')}: ${issue.message}`,
      );
    }
  });
}

function invalidRow(table: TableName, index: number, reason: string): FullBackupError {
  return new FullBackupError(
    'invalid-contents',
    `This full backup holds a row Docket cannot use (${table}, row ${index + 1}: ${reason.slice(0, 200)}).`,
  );
}

function tableCounts(manifest: FullBackupManifest): { table: TableName; rows: number }[] {
  return fullBackupTables
    .filter((table) => manifest.tables[table] !== undefined)
    .map((table) => ({ table, rows: manifest.tables[table] ?? 0 }));
}

// ---- Version 1 ----------------------------------------------------------------------------

interface Version1Document {
  createdAt: string | null;
  reason: string;
  tables: Map<TableName, unknown[]>;
}

function readVersion1(bytes: Uint8Array): Version1Document {
  const plain = boundedGunzip(bytes, () => {
    // A gzip stream cut short fails to inflate; say so, since a v1 file is always gzip.
    return truncated();
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(plain));
  } catch {
    throw notABackup();
  }
  const document = parsed as Partial<Record<string, unknown>> | null;
  if (typeof document !== 'object' || document === null || document.format !== FULL_BACKUP_FORMAT) {
    throw notABackup();
  }
  if (document.version !== 1) {
    throw new FullBackupError(
      'unsupported-version',
      `This full backup has a format version Docket does not know (${String(document.version)}).`,
    );
  }
  const tables = new Map<TableName, unknown[]>();
  const given = document.tables;
  if (typeof given !== 'object' || given === null) throw damaged();
  for (const [table, rows] of Object.entries(given)) {
    if (!fullBackupTables.includes(table as TableName) || !Array.isArray(rows)) throw damaged();
    tables.set(table as TableName, rows as unknown[]);
  }
  return {
    createdAt: typeof document.createdAt === 'string' ? document.createdAt : null,
    reason: typeof document.reason === 'string' ? document.reason : 'cloud-password-reset',
    tables,
  };
}

function openVersion1(bytes: Uint8Array): OpenedFullBackup {
  const document = readVersion1(bytes);
  for (const [table, rows] of document.tables) checkRows(table, rows);
  const counts: Partial<Record<TableName, number>> = {};
  for (const [table, rows] of document.tables) counts[table] = rows.length;
  const datasets = (document.tables.get('datasets') ?? []) as Dataset[];
  const manifest: FullBackupManifest = {
    name:
      document.reason === 'cloud-password-reset'
        ? 'Before the cloud password reset'
        : 'Full backup',
    createdAt: document.createdAt ?? '',
    deviceId: null,
    reason: document.reason,
    scope: 'user-data',
    tables: counts,
    chunkCount: document.tables.size,
    datasets: datasets.map((dataset) => ({
      id: dataset.id,
      name: dataset.name,
      files: 0,
      bytes: 0,
    })),
    skippedSettings: 0,
  };
  return {
    version: 1,
    encrypted: false,
    createdAt: document.createdAt,
    manifest,
    tables: tableCounts(manifest),
    *chunks() {
      for (const table of fullBackupTables) {
        const rows = document.tables.get(table);
        if (rows !== undefined && rows.length > 0) yield { table, rows };
      }
    },
  };
}
