import Dexie, { type Transaction } from 'dexie';
import type {
  IndexOf,
  IndexValue,
  LocalRows,
  LocalStore,
  LocalWriteTransaction,
  TableName,
} from '@docket/core/store';
import { derivingWrites, writeScope } from '@docket/core/store';
import {
  createDocketDatabase,
  inTransaction,
  SCHEMA_VERSION,
  type DocketDatabaseOptions,
} from './docket-database.ts';

// The device's local store on IndexedDB, through Dexie. It passes the same acceptance suite as
// core's memory store (core/local-store-acceptance.ts), under fake-indexeddb and in Chromium.
//
// A transaction body may await only the calls of the transaction it was given (see
// inTransaction): IndexedDB commits as soon as nothing is pending, so awaiting a timer, a fetch
// or crypto.subtle in the middle ends the transaction, and the next call rejects.

export type IndexedDbLocalStoreOptions = Omit<DocketDatabaseOptions, 'steps'>;

function checkLimit(limit: number | undefined): number | undefined {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new RangeError(`limit must be a non-negative integer, not ${limit}`);
  }
  return limit;
}

/**
 * The least string above every string that starts with `prefix` (its last code unit below
 * U+FFFF raised by one, after dropping trailing U+FFFFs), or null when there is none.
 */
function prefixEnd(prefix: string): string | null {
  let end = prefix.length;
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) end--;
  if (end === 0) return null;
  return prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1);
}

/** Every call is bound to `tx` (see inTransaction for why not to `db`). */
function transactionOver(tx: Transaction): LocalWriteTransaction {
  const table = <N extends TableName>(name: N) => tx.table<LocalRows[N], string>(name);
  return {
    get: async (name, key) => await table(name).get(key),
    getMany: async (name, keys) => await table(name).bulkGet([...keys]),
    where: async <N extends TableName>(name: N, index: IndexOf<N>, value: IndexValue) =>
      await table(name).where(index).equals(value).toArray(),
    all: async (name, options) => {
      const limit = checkLimit(options?.limit);
      // IndexedDB reads a count of 0 as "no limit".
      if (limit === 0) return [];
      const rows = table(name).toCollection();
      return await (limit === undefined ? rows : rows.limit(limit)).toArray();
    },
    keys: async (name) => await table(name).toCollection().primaryKeys(),
    keysBetween: async (name, lower, upper, limit) => {
      const max = checkLimit(limit) ?? 0;
      // IndexedDB reads a count of 0 as "no limit".
      if (max === 0 || lower > upper) return [];
      return await table(name)
        .where(':id')
        .between(lower, upper, true, true)
        .limit(max)
        .primaryKeys();
    },
    count: async (name) => await table(name).count(),
    put: async (name, row) => {
      await table(name).put(row);
    },
    putMany: async (name, rows) => {
      await table(name).bulkPut([...rows]);
    },
    delete: async (name, key) => {
      await table(name).delete(key);
    },
    deleteMany: async (name, keys) => {
      await table(name).bulkDelete([...keys]);
    },
    deletePrefix: async (name, prefix) => {
      // A primary-key range with no filter: Dexie deletes it with one IDBObjectStore.delete.
      const end = prefixEnd(prefix);
      const keys = table(name).where(':id');
      await (
        end === null ? keys.aboveOrEqual(prefix) : keys.between(prefix, end, true, false)
      ).delete();
    },
  };
}

/**
 * Opens (creating or upgrading as needed) the device's database. Awaiting the open here makes a
 * database that cannot be used (a newer version left by a later build, storage refused) fail at
 * start-up rather than at the first read.
 */
export async function openIndexedDbLocalStore(
  options: IndexedDbLocalStoreOptions = {},
): Promise<LocalStore> {
  const db = createDocketDatabase(options);
  // Another tab is upgrading (or deleting) the database. Step aside for good rather than let
  // Dexie reopen it: this build's code must not write into a newer schema. Transactions from
  // here on reject with DatabaseClosedError, and the app should ask for a reload.
  db.on('versionchange', () => {
    db.close();
    return false;
  });
  await db.open();
  // Dexie opens a newer database than it declares (it falls back to the version on disk);
  // refuse instead, for the same reason. Dexie's versions are a tenth of IndexedDB's.
  const onDisk = db.backendDB().version / 10;
  if (onDisk > SCHEMA_VERSION) {
    db.close();
    throw new Dexie.VersionError(
      `the local database is at version ${onDisk}, newer than this build's ${SCHEMA_VERSION}: reload to get the newer build`,
    );
  }
  return localStoreOn(db);
}

/**
 * Core's `LocalStore` on a Dexie connection as it is, opened or not (Dexie opens it on the first
 * call). The page's live reads use this on their own connection (live-database.ts).
 */
export function localStoreOn(db: Dexie): LocalStore {
  return {
    read: (tables, body) => inTransaction(db, 'r', tables, (tx) => body(transactionOver(tx))),
    // A write's derived fields (a bill's deck keys) are kept true by core's derivingWrites.
    write: (tables, body) =>
      inTransaction(db, 'rw', writeScope(tables), (tx) =>
        body(derivingWrites(transactionOver(tx))),
      ),
    close: () => {
      db.close();
    },
  };
}
