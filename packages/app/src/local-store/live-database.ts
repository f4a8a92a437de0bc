import type Dexie from 'dexie';
import { liveQuery } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LocalRows, LocalStore, TableName } from '@docket/core/store';
import {
  accountDatabaseName,
  accountIsActive,
  activeDatabaseName,
  noteDatabaseKeptOpen,
} from './account-databases.ts';
import { createDocketDatabase } from './docket-database.ts';
import { localStoreOn } from './indexeddb-local-store.ts';

// The page's live reads. The workers (import, user data, full backups) and the page's commands
// write through connections of their own; Dexie tells every connection of the same origin about
// each commit (over a BroadcastChannel), so a live read re-runs as a job moves along or a
// command lands, without polling. Screens read through the hooks of this folder (live-*.ts),
// never through Dexie: this folder is the one room that talks to the database (lint says so).

let database: Dexie | null = null;
let store: LocalStore | null = null;

/** The page's own read connection for live queries, opened on first use. */
export function liveDatabase(): Dexie {
  database ??= createDocketDatabase();
  return database;
}

/**
 * Opens the page's connection ahead of its first read (a guarded screen does so while the guard
 * waits): on a device with 50,000 bills Chromium spends about 300 ms opening the database's files.
 * A failure to open is left to the first read, which shows it where it matters.
 */
export async function warmLiveDatabase(): Promise<void> {
  // Signed out (or while a sign-in is under way) the database to open is not known yet: opening
  // the unowned one now would make the sign-in reload the page (account-databases.ts).
  if (!accountIsActive()) return;
  await liveDatabase().open();
}

/**
 * The same connection as core's `LocalStore`, so core's readers run as live reads (and tests
 * can put rows where the live reads will see them).
 */
export function liveLocalStore(): LocalStore {
  store ??= localStoreOn(liveDatabase());
  return store;
}

let accountDatabase: Dexie | null = null;
let accountStore: LocalStore | null = null;

/**
 * The account's own database (account-databases.ts `accountDatabaseName`), for what belongs to
 * the account whichever space the page works in: the page's own connection in the personal
 * space, a second one (sealed under the same vault) in a team workspace's.
 */
export function liveAccountLocalStore(): LocalStore {
  const account = accountDatabaseName();
  if (account === activeDatabaseName()) return liveLocalStore();
  if (accountDatabase === null) {
    noteDatabaseKeptOpen(account);
    accountDatabase = createDocketDatabase({ name: account });
  }
  accountStore ??= localStoreOn(accountDatabase);
  return accountStore;
}

/** One row of the account's own database by its key, live (see `useLiveRow`). */
export function useLiveAccountRow<N extends TableName>(
  table: N,
  key: string | null,
): LocalRows[N] | null | undefined {
  return useLiveQuery(
    async () =>
      key === null
        ? null
        : ((await liveAccountLocalStore().read([table], (tx) => tx.get(table, key))) ?? null),
    [table, key],
  );
}

/**
 * A live read through core's store interface: `read` runs now and again after every commit that
 * touches what it read (in this tab or another, or a worker). Undefined while the first read is
 * under way. `deps` are what `read` closes over, as for `useEffect`.
 */
export function useLiveRead<T>(
  read: (store: LocalStore) => Promise<T>,
  deps: readonly unknown[],
): T | undefined {
  return useLiveQuery(() => read(liveLocalStore()), [...deps]);
}

/** One row by its key, live: undefined while loading, null when there is no key or no such row. */
export function useLiveRow<N extends TableName>(
  table: N,
  key: string | null,
): LocalRows[N] | null | undefined {
  return useLiveRead(
    async (store) =>
      key === null ? null : ((await store.read([table], (tx) => tx.get(table, key))) ?? null),
    [table, key],
  );
}

/**
 * The same outside React: `onValue` hears the first result and each changed one until the
 * returned function is called.
 */
export function watchLiveRead<T>(
  read: (store: LocalStore) => Promise<T>,
  onValue: (value: T) => void,
  onError: (error: unknown) => void,
): () => void {
  const subscription = liveQuery(() => read(liveLocalStore())).subscribe({
    next: onValue,
    error: onError,
  });
  return () => {
    subscription.unsubscribe();
  };
}
