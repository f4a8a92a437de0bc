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
import type { OpaqueCryptoKey } from '@docket/core/crypto';
import { isSealedRow, isSealedTable, type SealedTable } from '@docket/core/store';
import { DeviceLockedError } from './vault-files.ts';
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

export type IndexedDbLocalStoreOptions = Omit<DocketDatabaseOptions, 'steps'> & {
  /** What seals the private rows; by default the database's vault on this browser (device-vault.ts). */
  readonly vault?: RowVault;
};

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

/** The sealing code, loaded with the first private row read or written (row-sealing.ts). */
const rowSealing = () => import('./row-sealing.ts');

/**
 * What the store seals a database's private rows with (core's sealed-rows.ts): the row key while
 * the account's vault is open, null while the database has no vault (rows stay in clear); a
 * locked vault throws. `known` is the answer once it is settled, so a database without a vault
 * pays nothing per call.
 */
export interface RowVault {
  rowKey(): Promise<OpaqueCryptoKey | null>;
  known(): OpaqueCryptoKey | null | undefined;
  /** Rows are read as they are stored, sealed ones left sealed (a locked account's backup). */
  readonly asStored?: boolean;
}

/**
 * A locked database read as it is stored: its sealed rows are handed out sealed, for a full
 * backup that keeps them so (core's full-backup-format.ts, `lockedAccount`). Never written.
 */
export const rowsAsStored: RowVault = {
  rowKey: () => Promise.resolve(null),
  known: () => null,
  asStored: true,
};

/** The vault of the named database, as device-vault.ts keeps it on this browser. */
export function deviceRowVault(database: string): RowVault {
  let settled: OpaqueCryptoKey | null | undefined;
  return {
    rowKey: async () => {
      const key = await (await rowSealing()).vaultRowKey(database);
      settled = key;
      return key;
    },
    known: () => settled,
  };
}

/**
 * Rows of a sealed table read straight through Dexie (a live read that walks an index), opened.
 * Call it after the reads: it awaits WebCrypto, which ends any transaction it runs in.
 */
export async function openStoredRows<N extends SealedTable>(
  db: Dexie,
  name: N,
  rows: readonly LocalRows[N][],
  options: { readonly bytes?: boolean } = {},
): Promise<LocalRows[N][]> {
  if (!rows.some(isSealedRow)) return [...rows];
  const { browserCrypto, openRow, vaultRowKey } = await rowSealing();
  const key = await vaultRowKey(db.name);
  if (key === null) throw new DeviceLockedError();
  return Promise.all(rows.map((row) => openRow(browserCrypto, key, name, row, options)));
}

/**
 * Waits for work that is not the transaction's own (WebCrypto) without letting IndexedDB commit
 * the transaction meanwhile: Dexie's `Transaction.waitFor` (what the public `Dexie.waitFor` calls
 * when it finds the transaction in its zone, which our bodies' native awaits do not keep) asks
 * the transaction for nothing until the work is done, and resumes in the transaction's zone.
 */
/** Each transaction's latest wait for WebCrypto (see keptAlive). */
const waitsInProgress = new WeakMap<Transaction, Promise<void>>();

function keptAlive<T>(tx: Transaction, work: Promise<T>): Promise<T> {
  const waiting = tx as Transaction & { waitFor?: (promise: Promise<T>) => Promise<T> };
  const waitFor = waiting.waitFor;
  if (typeof waitFor !== 'function') {
    throw new Error('This version of Dexie cannot keep a transaction open for WebCrypto.');
  }
  // One wait at a time per transaction: Dexie's waits, overlapping, stop keeping the transaction
  // alive as soon as the newest settles, and an older one still running then never resumes (the
  // body hangs; found with a restore's reads settling out of order). A later wait starts once the
  // one before it resumed, still inside the same IndexedDB event, so the transaction never idles.
  const previous = waitsInProgress.get(tx);
  const waited =
    previous === undefined ? waitFor.call(tx, work) : previous.then(() => waitFor.call(tx, work));
  const settled = waited.then(
    () => undefined,
    () => undefined,
  );
  waitsInProgress.set(tx, settled);
  void settled.then(() => {
    if (waitsInProgress.get(tx) === settled) waitsInProgress.delete(tx);
  });
  return waited;
}

/** Rows read from a sealed table, opened inside the transaction (rows stay as they are read
 *  from other tables, from a store read as stored, or when none is sealed). */
async function openedRows<N extends TableName, R extends LocalRows[N] | undefined>(
  tx: Transaction,
  vault: RowVault,
  name: N,
  rows: R[],
): Promise<R[]> {
  if (vault.asStored === true || !isSealedTable(name) || !rows.some(isSealedRow)) return rows;
  return keptAlive(
    tx,
    (async () => {
      const key = await vault.rowKey();
      if (key === null) throw new DeviceLockedError();
      const { browserCrypto, openRow } = await rowSealing();
      return Promise.all(
        rows.map(async (row) =>
          row === undefined ? row : ((await openRow(browserCrypto, key, name, row)) as R),
        ),
      );
    })(),
  );
}

/** Rows as a sealed table stores them, sealed inside the transaction while the vault has a
 *  key (rows of other tables, or of a database without a vault, are stored as they are). */
async function storedRows<N extends TableName>(
  tx: Transaction,
  vault: RowVault,
  name: N,
  rows: readonly LocalRows[N][],
): Promise<readonly unknown[]> {
  if (!isSealedTable(name) || vault.known() === null) return rows;
  return keptAlive(
    tx,
    (async () => {
      const key = await vault.rowKey();
      if (key === null) return rows;
      const { browserCrypto, sealRow } = await rowSealing();
      return Promise.all(
        rows.map((row) => sealRow(browserCrypto, key, name, row as LocalRows[typeof name])),
      );
    })(),
  );
}

/**
 * Every call is bound to `tx` (see inTransaction for why not to `db`). Rows of the sealed tables
 * are sealed and opened here, with WebCrypto, inside the transaction (`keptAlive`), so a body
 * can still read, change and write a row in one transaction.
 */
function transactionOver(tx: Transaction, vault: RowVault): LocalWriteTransaction {
  const table = <N extends TableName>(name: N) => tx.table<LocalRows[N], string>(name);

  const opened = <N extends TableName, R extends LocalRows[N] | undefined>(name: N, rows: R[]) =>
    openedRows(tx, vault, name, rows);
  const stored = <N extends TableName>(name: N, rows: readonly LocalRows[N][]) =>
    storedRows(tx, vault, name, rows);

  const one = async <N extends TableName>(name: N, row: LocalRows[N] | undefined) =>
    (await opened(name, [row]))[0];

  return {
    get: async (name, key) => await one(name, await table(name).get(key)),
    getMany: async (name, keys) => await opened(name, await table(name).bulkGet([...keys])),
    where: async <N extends TableName>(name: N, index: IndexOf<N>, value: IndexValue) =>
      await opened(name, await table(name).where(index).equals(value).toArray()),
    all: async (name, options) => {
      const limit = checkLimit(options?.limit);
      // IndexedDB reads a count of 0 as "no limit".
      if (limit === 0) return [];
      const rows = table(name).toCollection();
      return await opened(name, await (limit === undefined ? rows : rows.limit(limit)).toArray());
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
      const [sealed] = await stored(name, [row]);
      await tx.table(name).put(sealed);
    },
    putMany: async (name, rows) => {
      await tx.table(name).bulkPut([...(await stored(name, rows))]);
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
  return localStoreOn(db, options.vault);
}

/**
 * Core's `LocalStore` on a Dexie connection as it is, opened or not (Dexie opens it on the first
 * call). The page's live reads use this on their own connection (live-database.ts).
 */
export function localStoreOn(db: Dexie, vault: RowVault = deviceRowVault(db.name)): LocalStore {
  return {
    read: (tables, body) =>
      inTransaction(db, 'r', tables, (tx) => body(transactionOver(tx, vault))),
    // A write's derived fields (a bill's deck keys) are kept true by core's derivingWrites.
    write: (tables, body) =>
      inTransaction(db, 'rw', writeScope(tables), (tx) =>
        body(derivingWrites(transactionOver(tx, vault))),
      ),
    close: () => {
      db.close();
    },
  };
}
