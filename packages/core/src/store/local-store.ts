import type {
  Annotation,
  ApiKey,
  BillHistory,
  BackupIndexEntry,
  BillChange,
  BillTag,
  Dataset,
  DatasetFile,
  Decision,
  FullBackup,
  ImportStagingRow,
  Job,
  OutboxEntry,
  Position,
  SeenMark,
  Setting,
  StoredBill,
  SyncState,
  Tag,
  TraceEntry,
  VersionText,
} from './local-records.ts';
import type { StoredMember } from './stored-member.ts';

// The small storage interface the domain code runs against. The app implements it on IndexedDB
// (Dexie, packages/app/src/local-store), core on memory (memory-local-store.ts); one acceptance
// suite (local-store-acceptance.ts) is run against both, so they cannot drift apart.

/** The row type of each table. */
export interface LocalRows {
  bills: StoredBill;
  datasets: Dataset;
  datasetFiles: DatasetFile;
  jobs: Job;
  tags: Tag;
  billTags: BillTag;
  positions: Position;
  decisions: Decision;
  annotations: Annotation;
  backups: BackupIndexEntry;
  fullBackups: FullBackup;
  trace: TraceEntry;
  settings: Setting;
  outbox: OutboxEntry;
  importStaging: ImportStagingRow;
  syncState: SyncState;
  billChanges: BillChange;
  seenMarks: SeenMark;
  apiKeys: ApiKey;
  versionTexts: VersionText;
  billHistory: BillHistory;
  members: StoredMember;
}
export type TableName = keyof LocalRows;

/**
 * Each table's primary key and the fields it can be looked up by. A `*` marks a field holding a
 * list whose every item is indexed (IndexedDB's multiEntry). Keys are strings everywhere.
 *
 * `[field+key]` is a compound index of a plain field and the table's key: the field's rows in key
 * order again, but as one key, so a key range can start in the middle of them. The app's Dexie
 * readers use it to seek (the deck walks the bills of a status from a given id) instead of
 * counting through the field's list. `where` never takes one (IndexOf leaves them out): it uses
 * the plain field's index, which must be declared too; the memory store has nothing to seek.
 */
export const localTables = {
  bills: {
    key: 'id',
    indexes: [
      '*datasetIds',
      'jurisdiction',
      'status',
      'statusDate',
      '[jurisdiction+id]',
      '[status+id]',
      '*deckKeys',
    ],
  },
  datasets: { key: 'id', indexes: ['createdAt'] },
  datasetFiles: { key: 'id', indexes: ['datasetId'] },
  jobs: { key: 'id', indexes: ['subjectId', 'status', 'createdAt'] },
  tags: { key: 'id', indexes: [] },
  billTags: { key: 'id', indexes: ['billId', 'tagId'] },
  positions: { key: 'billId', indexes: [] },
  decisions: { key: 'billId', indexes: ['decision'] },
  annotations: { key: 'id', indexes: ['billId'] },
  backups: { key: 'id', indexes: ['createdAt'] },
  fullBackups: { key: 'id', indexes: ['createdAt'] },
  trace: { key: 'id', indexes: ['kind', 'at'] },
  settings: { key: 'key', indexes: [] },
  outbox: { key: 'id', indexes: ['table'] },
  importStaging: { key: 'id', indexes: ['jobId'] },
  syncState: { key: 'id', indexes: [] },
  billChanges: { key: 'id', indexes: ['billId', 'at'] },
  seenMarks: { key: 'billId', indexes: [] },
  apiKeys: { key: 'source', indexes: [] },
  versionTexts: { key: 'id', indexes: ['billId'] },
  billHistory: { key: 'id', indexes: ['billId', 'rowId'] },
  members: { key: 'id', indexes: ['*datasetIds'] },
} as const satisfies Record<TableName, { key: string; indexes: readonly string[] }>;

type IndexSpec<N extends TableName> = (typeof localTables)[N]['indexes'][number];
// Distributes over the specs, so a table without indexes has none (never) and, inside generic
// code, an index is still known to be a string.
type IndexField<S extends string> = S extends `[${string}]`
  ? never
  : S extends `*${infer F}`
    ? F
    : S;
/** The fields of table N that `where` can look up. */
export type IndexOf<N extends TableName> = IndexField<IndexSpec<N>>;
export type IndexValue = string | number;

export interface LocalReadTransaction {
  get<N extends TableName>(table: N, key: string): Promise<LocalRows[N] | undefined>;
  getMany<N extends TableName>(
    table: N,
    keys: readonly string[],
  ): Promise<(LocalRows[N] | undefined)[]>;
  /** Rows whose index field equals the value (or, for a list field, contains it), by key. */
  where<N extends TableName>(
    table: N,
    index: IndexOf<N>,
    value: IndexValue,
  ): Promise<LocalRows[N][]>;
  /** Every row, in key order; `limit` keeps the first ones. */
  all<N extends TableName>(table: N, options?: { limit?: number }): Promise<LocalRows[N][]>;
  /** Every key, in key order. */
  keys(table: TableName): Promise<string[]>;
  /**
   * Keys from `lower` to `upper`, both included, in key order, at most `limit` of them. Reads no
   * row: the cheap way to learn which of a sorted batch of keys exist when most do not.
   */
  keysBetween(table: TableName, lower: string, upper: string, limit: number): Promise<string[]>;
  count(table: TableName): Promise<number>;
}

export interface LocalWriteTransaction extends LocalReadTransaction {
  put<N extends TableName>(table: N, row: LocalRows[N]): Promise<void>;
  putMany<N extends TableName>(table: N, rows: readonly LocalRows[N][]): Promise<void>;
  delete(table: TableName, key: string): Promise<void>;
  deleteMany(table: TableName, keys: readonly string[]): Promise<void>;
  /**
   * Deletes every row whose key starts with `prefix` (UTF-16 code units; '' is every row). One
   * key-range delete: no row is read, which matters for the thousands of rows of an import's
   * staging.
   */
  deletePrefix(table: TableName, prefix: string): Promise<void>;
}

/**
 * The device's store. A transaction's body may only await the transaction's own calls (no timers,
 * no fetch): IndexedDB commits a transaction as soon as it has nothing left to do. A body that
 * throws rolls back everything it wrote.
 */
export interface LocalStore {
  read<T>(tables: readonly TableName[], body: (tx: LocalReadTransaction) => Promise<T>): Promise<T>;
  write<T>(
    tables: readonly TableName[],
    body: (tx: LocalWriteTransaction) => Promise<T>,
  ): Promise<T>;
  close(): void;
}
