import { createSHA256 } from 'hash-wasm';
import { newBackupKey } from './full-backup-crypto.ts';
import { sealChunk } from './full-backup-crypto.ts';
import {
  DEVICE_SECRET_PREFIX,
  FULL_BACKUP_FORMAT,
  FULL_BACKUP_MAGIC,
  FULL_BACKUP_VERSION,
  NotSerialisableError,
  concatBytes,
  encodeRow,
  fullBackupTables,
  packManifestChunk,
  packRowsChunk,
  u32,
  type FullBackupDatasetSummary,
  type FullBackupHeader,
  type FullBackupLockedAccount,
  type FullBackupManifest,
} from './full-backup-format.ts';
import type { Dataset, DatasetFile, Setting } from '../store/local-records.ts';
import type { LocalRows, LocalStore, TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';
import type { KdfParams } from '../crypto/sync-crypto.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// Writes a version 2 full backup (format in full-backup-format.ts) of the store, table by
// table. The small tables (what the user made, jobs, settings, the outbox, sync state, trace)
// are read in one transaction, so they agree with each other; the large ones (bills, dataset
// files, import staging) a page at a time, with progress in between. Only imports change
// those, and the app holds the imports' lock while a backup runs. Rows are turned into JSON
// one at a time and gzip'd a chunk at a time: the output is a list of compressed chunks, never
// one string of the whole database.

/** Read a page at a time: the first is rows per page, the second its weight in the estimate. */
const pagedTables: Partial<Record<TableName, number>> = {
  bills: 500,
  datasetFiles: 1,
  importStaging: 20,
};

export interface WriteFullBackupOptions {
  readonly name: string;
  readonly nowMs: number;
  /** 'manual', 'before-restore'… shown by the preview. */
  readonly reason: string;
  readonly crypto: WebCryptoPort;
  /** Encrypts the file when given (non-empty). */
  readonly passphrase?: string;
  /** Argon2id parameters; the cloud password's by default (tests pass cheaper ones). */
  readonly kdf?: KdfParams;
  /** The id of the device writing it, for the preview. */
  readonly deviceId: string | null;
  /**
   * The store is a locked account's database read as stored: its private rows go in sealed,
   * with the account's wrapped vault key in the manifest (full-backup-format.ts).
   */
  readonly lockedAccount?: FullBackupLockedAccount;
  /** Jobs left out: the job writing this backup is not finished yet. */
  readonly excludeJobIds?: readonly string[];
  readonly onProgress?: (progress: { written: number; total: number }) => Promise<void>;
  /** How much JSON text (characters) and how many bytes of files go in one chunk. */
  readonly chunkText?: number;
  readonly chunkBinary?: number;
}

export interface WrittenFullBackup {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly manifest: FullBackupManifest;
  readonly encrypted: boolean;
}

function keyOf(table: TableName, row: unknown): string {
  return String((row as Record<string, unknown>)[localTables[table].key]);
}

export async function writeFullBackup(
  store: LocalStore,
  options: WriteFullBackupOptions,
): Promise<WrittenFullBackup> {
  const createdAt = new Date(options.nowMs).toISOString();
  const passphrase = options.passphrase ?? '';
  const sealing =
    passphrase === '' ? null : await newBackupKey(options.crypto, passphrase, options.kdf);
  const header: FullBackupHeader = {
    format: FULL_BACKUP_FORMAT,
    version: FULL_BACKUP_VERSION,
    createdAt,
    compression: 'gzip',
    encryption: sealing?.encryption ?? null,
  };
  const headerBytes = encodeUtf8(JSON.stringify(header));
  const hasher = await createSHA256();
  hasher.init();
  const parts: Uint8Array[] = [];
  const append = (part: Uint8Array) => {
    hasher.update(part);
    parts.push(part);
  };
  append(FULL_BACKUP_MAGIC);
  append(u32(headerBytes.length));
  append(headerBytes);

  const excluded = new Set(options.excludeJobIds ?? []);
  const { counts, small } = await readSmallTables(store);
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);

  const packer = new ChunkPacker(
    {
      ...(sealing === null ? {} : { key: sealing.key }),
      crypto: options.crypto,
      header: headerBytes,
      text: options.chunkText ?? 1024 * 1024,
      binary: options.chunkBinary ?? 8 * 1024 * 1024,
    },
    append,
  );
  const tally: BackupTally = {
    excluded,
    held: {},
    written: 0,
    skippedSettings: 0,
    fileStats: new Map(),
  };
  const datasets = await packTables(store, options, small, packer, tally, total);

  const manifest = backupManifest(options, createdAt, tally, packer.chunkCount, datasets);
  await packer.finish(manifest);
  append(u32(0));
  const digest = hasher.digest('binary');
  parts.push(digest);
  return { bytes: concatBytes(parts), manifest, encrypted: sealing !== null };
}

/** Every table's count, and the small tables' rows, read in one transaction so they agree. */
async function readSmallTables(store: LocalStore): Promise<{
  counts: Map<TableName, number>;
  small: Map<TableName, unknown[]>;
}> {
  const smallTables = fullBackupTables.filter((table) => pagedTables[table] === undefined);
  return store.read(fullBackupTables, async (tx) => {
    const counts = new Map<TableName, number>();
    for (const table of fullBackupTables) counts.set(table, await tx.count(table));
    const small = new Map<TableName, unknown[]>();
    for (const table of smallTables) small.set(table, await tx.all(table));
    return { counts, small };
  });
}

/** What went into the file so far, for the progress and the manifest. */
interface BackupTally {
  /** Jobs left out (see WriteFullBackupOptions). */
  readonly excluded: ReadonlySet<string>;
  /** Rows in the file, per table. */
  readonly held: Partial<Record<TableName, number>>;
  /** Rows read, whether they went in or not. */
  written: number;
  skippedSettings: number;
  /** Each dataset's files and their bytes. */
  readonly fileStats: Map<string, { files: number; bytes: number }>;
}

/**
 * Packs every table in the file's order: the small ones from what was read, the large ones a
 * page at a time with progress in between. Gives the datasets, which the manifest summarises.
 */
async function packTables(
  store: LocalStore,
  options: WriteFullBackupOptions,
  small: ReadonlyMap<TableName, unknown[]>,
  packer: ChunkPacker,
  tally: BackupTally,
  total: number,
): Promise<Dataset[]> {
  let datasets: Dataset[] = [];
  for (const table of fullBackupTables) {
    tally.held[table] = 0;
    const pageSize = pagedTables[table];
    if (pageSize === undefined) {
      const rows = small.get(table) ?? [];
      if (table === 'datasets') datasets = rows as Dataset[];
      await takeRows(packer, tally, table, rows);
    } else {
      const keys = await store.read([table], (tx) => tx.keys(table));
      for (let start = 0; start < keys.length; start += pageSize) {
        const page = keys.slice(start, start + pageSize);
        const rows = await store.read([table], (tx) => tx.getMany(table, page));
        await takeRows(
          packer,
          tally,
          table,
          rows.filter((row): row is LocalRows[TableName] => row !== undefined),
        );
        await options.onProgress?.({ written: tally.written, total });
      }
    }
    await packer.endTable();
    await options.onProgress?.({ written: tally.written, total });
  }
  return datasets;
}

/** Packs a table's rows but for this device's secrets and the jobs left out, counting them. */
async function takeRows(
  packer: ChunkPacker,
  tally: BackupTally,
  table: TableName,
  rows: readonly unknown[],
): Promise<void> {
  const { held, fileStats } = tally;
  for (const row of rows) {
    tally.written++;
    if (table === 'settings') {
      const setting = row as Setting;
      if (setting.key.startsWith(DEVICE_SECRET_PREFIX)) {
        tally.skippedSettings++;
        continue;
      }
    }
    if (table === 'jobs' && tally.excluded.has(keyOf(table, row))) continue;
    if (table === 'datasetFiles') {
      const file = row as DatasetFile;
      const stats = fileStats.get(file.datasetId) ?? { files: 0, bytes: 0 };
      fileStats.set(file.datasetId, { files: stats.files + 1, bytes: stats.bytes + file.size });
    }
    try {
      await packer.add(table, row);
    } catch (error) {
      // A setting holding what JSON cannot carry (a key handle) is this device's own: left
      // out and counted. Anywhere else it is a bug, and the backup must not pretend.
      if (error instanceof NotSerialisableError && table === 'settings') {
        tally.skippedSettings++;
        continue;
      }
      throw error;
    }
    held[table] = (held[table] ?? 0) + 1;
  }
}

/** The file's manifest: what it holds, table by table and dataset by dataset. */
function backupManifest(
  options: WriteFullBackupOptions,
  createdAt: string,
  tally: BackupTally,
  chunkCount: number,
  datasets: readonly Dataset[],
): FullBackupManifest {
  const { fileStats } = tally;
  const datasetSummaries: FullBackupDatasetSummary[] = datasets.map((dataset) => ({
    id: dataset.id,
    name: dataset.name,
    files: fileStats.get(dataset.id)?.files ?? 0,
    bytes: fileStats.get(dataset.id)?.bytes ?? 0,
  }));
  return {
    name: options.name,
    createdAt,
    deviceId: options.deviceId,
    reason: options.reason,
    scope: 'device',
    tables: tally.held,
    chunkCount,
    datasets: datasetSummaries,
    skippedSettings: tally.skippedSettings,
    ...(options.lockedAccount === undefined ? {} : { lockedAccount: options.lockedAccount }),
  };
}

/** Gathers rows into chunks of one table and writes each, sealed when there is a key. */
class ChunkPacker {
  private table: TableName | null = null;
  private texts: string[] = [];
  private textSize = 0;
  private segments: Uint8Array[] = [];
  private binarySize = 0;
  private index = 0;

  constructor(
    private readonly settings: {
      key?: OpaqueCryptoKey;
      crypto: WebCryptoPort;
      header: Uint8Array;
      text: number;
      binary: number;
    },
    private readonly append: (part: Uint8Array) => void,
  ) {}

  get chunkCount(): number {
    return this.index;
  }

  async add(table: TableName, row: unknown): Promise<void> {
    if (this.table !== table) await this.endTable();
    this.table = table;
    // The row's byte arrays join the chunk's list, so their numbers are the chunk's.
    const before = this.segments.length;
    let text: string;
    try {
      text = encodeRow(row, this.segments);
    } catch (error) {
      this.segments.length = before;
      throw error;
    }
    this.texts.push(text);
    this.textSize += text.length;
    for (const segment of this.segments.slice(before)) this.binarySize += segment.length;
    if (this.textSize >= this.settings.text || this.binarySize >= this.settings.binary) {
      await this.flush();
    }
  }

  async endTable(): Promise<void> {
    await this.flush();
    this.table = null;
  }

  private async flush(): Promise<void> {
    if (this.table === null || this.texts.length === 0) return;
    const plain = packRowsChunk(this.index, this.table, this.texts, this.segments);
    this.texts = [];
    this.segments = [];
    this.textSize = 0;
    this.binarySize = 0;
    await this.write(plain, false);
  }

  async finish(manifest: FullBackupManifest): Promise<void> {
    await this.flush();
    await this.write(packManifestChunk(this.index, manifest), true);
  }

  private async write(plain: Uint8Array, last: boolean): Promise<void> {
    const { key, crypto, header } = this.settings;
    const chunk =
      key === undefined
        ? plain
        : await sealChunk(crypto, key, plain, { header, index: this.index, last });
    this.append(u32(chunk.length));
    this.append(chunk);
    this.index++;
  }
}
