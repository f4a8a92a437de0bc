import Dexie, { type Transaction } from 'dexie';
import {
  DECK_ORDER_FILLING_SETTING,
  isSealedRow,
  localTables,
  type TableName,
} from '@docket/core/store';
import {
  activeDatabaseName,
  noteDatabaseKeptOpen,
  UNOWNED_DATABASE_NAME,
} from './account-databases.ts';

// The one module that knows the IndexedDB schema. Every device that ever ran Docket holds a
// database at one of the versions below, so this history is only ever appended to.
//
// To change the schema (a table, a key or an index in core's `localTables`):
//   1. Change `localTables` and the row schemas in core (local-records.ts).
//   2. Append a step: the next version, that version's COMPLETE store list (the failing test
//      'the newest step is what localTables describes' prints it; a table to drop is `null`),
//      and, when rows already stored must change shape, an `upgrade`:
//
//        {
//          version: 2,
//          stores: { ...every table..., tags: 'id, name, updatedAt' },
//          upgrade: async (tx) => {
//            await tx.table('tags').toCollection().modify((tag: { name: string }) => {
//              tag.name = tag.name.trim();
//            });
//          },
//        },
//
//      Dexie runs each step's upgrade, in order, for every version a device is behind. An upgrade
//      runs inside Dexie's versionchange transaction: await only calls on `tx`, nothing else.
//      Rows written before the upgrade may be old-shaped: read them loosely, write them in the
//      new shape, and let the zod schemas check what comes out.
//   3. Never edit or remove a step that has shipped.
//   4. Copy the test 'opens a version-1 database with rows in it' in docket-database.test.ts for
//      the new version, with rows in the old shape.

/**
 * Frozen: the database every device used before accounts were kept apart, now the one no account
 * owns (account-databases.ts); each account's is named by the registry there.
 */
export const DOCKET_DATABASE_NAME = UNOWNED_DATABASE_NAME;

export interface SchemaStep {
  readonly version: number;
  /** Dexie's store syntax: primary key first, then indexes; `*` marks a multiEntry index. */
  readonly stores: Readonly<Record<string, string | null>>;
  readonly upgrade?: (tx: Transaction) => Promise<void>;
}

// Each version's stores are whole (what a database of that version holds), each written as the
// one before it plus what changed, so no table's line is written twice.
const version1Stores = Object.freeze({
  bills: 'id, *datasetIds, jurisdiction, status, statusDate',
  datasets: 'id, createdAt',
  datasetFiles: 'id, datasetId',
  jobs: 'id, subjectId, status, createdAt',
  tags: 'id, name',
  billTags: 'id, billId, tagId',
  positions: 'billId, position',
  decisions: 'billId, decision',
  annotations: 'id, billId',
  backups: 'id, createdAt',
  fullBackups: 'id, createdAt',
  trace: 'id, kind, at',
  settings: 'key',
  outbox: 'id, table',
  importStaging: 'id, jobId',
});
// Sync's per-field state of the synced rows (core's sync-merge.ts); a new, empty table.
const version2Stores = Object.freeze({ ...version1Stores, syncState: 'id' });
// The deck seeks into the bills of a status or a jurisdiction from a given id (a key range on
// [field+id]) instead of counting through them. No upgrade: IndexedDB fills a new index from
// the stored rows itself, once, which reads every bill (about 15 s for 50,000 on a slow
// machine), while the database is opening.
const version3Stores = Object.freeze({
  ...version2Stores,
  bills: 'id, *datasetIds, jurisdiction, status, statusDate, [jurisdiction+id], [status+id]',
});
// What changed: each import's changes to bills the dataset already provided (derived, never
// synced) and the user's seen marks (synced). Two new, empty tables; no upgrade.
const version4Stores = Object.freeze({
  ...version3Stores,
  billChanges: 'id, billId, at',
  seenMarks: 'billId',
});

// The bills' text versions as this device fetched them ("Get text"): derived, never synced. A
// new, empty table; no upgrade.
const version5Stores = Object.freeze({ ...version4Stores, versionTexts: 'id, billId' });

// The user's API keys, one per source (core's sources/api-keys.ts): synced. A new, empty table;
// no upgrade.
const version6Stores = Object.freeze({ ...version5Stores, apiKeys: 'source' });

// The deck's "Most recent activity first" walks one multiEntry index of keys the store derives
// from each bill it writes (core's deck-order-keys.ts). No upgrade rewrites the bills already
// stored: IndexedDB builds the new index while the database opens (it reads every bill, as
// version 3 did, and finds no keys in them yet), and the page then gives those bills their keys
// a few hundred at a time in the background (deck-order-backfill.ts); until every bill has them,
// the deck deals in id order.
const version7Stores = Object.freeze({
  ...version6Stores,
  bills:
    'id, *datasetIds, jurisdiction, status, statusDate, [jurisdiction+id], [status+id], *deckKeys',
});

// A bill's History: values of the user's that changes from other devices overwrote (core's
// sync/bill-history.ts): synced. A new, empty table; no upgrade.
const version9Stores = Object.freeze({ ...version7Stores, billHistory: 'id, billId, rowId' });

// Who voted how (issue 41): the member directory, derived from datasets like bills and never
// synced. A new, empty table; no upgrade (bills already stored get their members at the next
// import of their dataset).
const version10Stores = Object.freeze({ ...version9Stores, members: 'id, *datasetIds' });

// Tags are no longer looked up by name: a sealed tag keeps only its id in clear (issue 38;
// core's sealed-rows.ts), and an index on the name would hold every tag's name in clear.
const version11Stores = Object.freeze({ ...version10Stores, tags: 'id' });

// Positions are no longer looked up by their stance: a sealed position keeps only its bill's id
// in clear (issue 38), where before its stance (support, oppose, watch) stayed readable beside
// the sealed row, and an index on it listed every stance. The upgrade drops the stance kept in
// clear from the rows already sealed (the sealed part holds the whole row; a row in clear, on a
// device without a vault, stays as it is).
const version12Stores = Object.freeze({ ...version11Stores, positions: 'billId' });

async function dropPositionsInClear(tx: Transaction): Promise<void> {
  await tx
    .table('positions')
    .toCollection()
    .modify((row: Record<string, unknown>) => {
      if (isSealedRow(row)) delete row.position;
    });
}

/**
 * Versions 7 and 8's upgrade: a device that holds bills is told to give them their keys (the
 * backfill).
 */
async function markDeckOrderFilling(tx: Transaction): Promise<void> {
  const anyBill = await tx.table('bills').limit(1).primaryKeys();
  if (anyBill.length > 0) {
    await tx.table('settings').put({ key: DECK_ORDER_FILLING_SETTING, value: true });
  }
}

export const schemaSteps: readonly SchemaStep[] = Object.freeze([
  ...[
    version1Stores,
    version2Stores,
    version3Stores,
    version4Stores,
    version5Stores,
    version6Stores,
  ].map((stores, index) => Object.freeze({ version: index + 1, stores })),
  Object.freeze({ version: 7, stores: version7Stores, upgrade: markDeckOrderFilling }),
  // The same stores; a bill's keys in the recent order depend on its decision now (a tracked or
  // dismissed bill has none, one put off for later is only in the lists "Include later" walks),
  // so the deck never walks past the bills a user has decided. The bills stored before are
  // given their new keys in the background, as version 7's were (deck-order-backfill.ts).
  Object.freeze({ version: 8, stores: version7Stores, upgrade: markDeckOrderFilling }),
  Object.freeze({ version: 9, stores: version9Stores }),
  Object.freeze({ version: 10, stores: version10Stores }),
  Object.freeze({ version: 11, stores: version11Stores }),
  Object.freeze({ version: 12, stores: version12Stores, upgrade: dropPositionsInClear }),
]);

/** The version a database opened by this build ends up at. */
export const SCHEMA_VERSION = schemaSteps.reduce(
  (newest, step) => Math.max(newest, step.version),
  0,
);

/** What `localTables` says the stores should be, in Dexie's syntax. */
export function storesFromLocalTables(): Record<TableName, string> {
  const stores = {} as Record<TableName, string>;
  for (const table of Object.keys(localTables) as TableName[]) {
    const { key, indexes } = localTables[table];
    stores[table] = [key, ...indexes].join(', ');
  }
  return stores;
}

export interface DocketDatabaseOptions {
  /**
   * Another name keeps tests apart. The app's default is the active account's database (or, in
   * a worker, the one its name carries; account-databases.ts), and the connection counts as one
   * the page keeps open.
   */
  name?: string;
  /** Another IndexedDB (fake-indexeddb in tests); the browser's by default. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** For upgrade tests only: open with this history instead of the real one. */
  steps?: readonly SchemaStep[];
}

export function createDocketDatabase(options: DocketDatabaseOptions = {}): Dexie {
  const name = options.name ?? activeDatabaseName();
  if (options.name === undefined) noteDatabaseKeptOpen(name);
  const db = new Dexie(name, {
    ...(options.indexedDB === undefined ? {} : { indexedDB: options.indexedDB }),
    ...(options.IDBKeyRange === undefined ? {} : { IDBKeyRange: options.IDBKeyRange }),
  });
  for (const step of options.steps ?? schemaSteps) {
    const version = db.version(step.version).stores({ ...step.stores });
    if (step.upgrade !== undefined) version.upgrade(step.upgrade);
  }
  return db;
}

/**
 * Runs a body in one IndexedDB transaction over the named tables. The body must await only
 * calls on `tx`: IndexedDB commits a transaction as soon as it has no request pending, and
 * Dexie's transaction zone does not survive other awaits, so after a timer, a fetch or
 * crypto.subtle the transaction is gone (Dexie then rejects with TransactionInactiveError or
 * PrematureCommitError). Call tables through `tx.table(…)`, not `db.table(…)`: a call bound to
 * the transaction fails loudly when the transaction is gone, where a `db` call would quietly
 * run in a transaction of its own and break atomicity.
 */
export function inTransaction<T>(
  db: Dexie,
  mode: 'r' | 'rw',
  tables: readonly TableName[],
  body: (tx: Transaction) => Promise<T>,
): Promise<T> {
  // Dexie would let a transaction started inside another's body join it; outside the body's
  // scope each transaction stands alone, the same as in the memory store.
  // A table named twice (two lists of tables spread together) is one table of the transaction.
  return Dexie.ignoreTransaction(() =>
    db.transaction(mode, [...new Set(tables)], (tx) => body(tx)),
  );
}
