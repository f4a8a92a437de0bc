// One local database per account (issue 38). Each account that signs in on this browser gets a
// database of its own, named `docket-` and random hex (never the e-mail); the registry below,
// kept in localStorage, says which is whose. The page, its workers and the service worker open
// the *active* account's database and no other, so nothing of one account can be shown, edited or
// queued for sync while another is signed in.
//
// `docket` (the name every device used before) is the database no account owns: data made
// before accounts were kept apart, or restored from a backup while signed out. The first account
// to sign in takes it whole (no copy: the registry points that account at it), unless the person
// said no on the sign-in page; the next unowned database is then `docket-000…1`, and so on.
//
// The page opens its connections lazily, once, and keeps them; changing the active account
// therefore reloads the page when one is already open (see `enterAccountDatabase`), and
// sign-out always ends with a full load of /login, so nothing of one account stays in memory.

import { takeHeldPassword } from '../auth/held-password.ts';
import { requestDone } from './idb-request.ts';
import {
  activeSpaceOf,
  forgetEverySpace,
  forgetSpacesOf,
  isSpaceDatabaseName,
  leaveSpace,
  openDatabaseOf,
  spaceDatabasesOf,
  vaultDatabaseOf,
} from './space-databases.ts';

/** Frozen: the database every device used before accounts were kept apart (see above). */
export const UNOWNED_DATABASE_NAME = 'docket';

export const REGISTRY_KEY = 'docket.accounts';
export const ACTIVE_KEY = 'docket.database';
/** Set on the sign-in page when the person said the unowned data is not theirs. */
const LEAVE_UNOWNED_KEY = 'docket.leave-unowned';
/**
 * Databases locked under a password their account no longer has (see openVaultWithHeldPassword),
 * each with its account, so that they go when the account is removed.
 */
const SET_ASIDE_KEY = 'docket.set-aside';
/** Databases of accounts removed at sign-out, deleted by the next page (nothing holds them). */
const REMOVE_KEY = 'docket.remove';
/** The service worker cannot read localStorage: the active account's database is told it here. */
const SHARED_RECORD_DATABASE = 'docket-accounts';
const SHARED_RECORD_STORE = 'active';
/** A worker's name carries the database it opens, after this mark. */
const WORKER_NAME_MARK = ' @ ';

type Registry = Record<string, string>;

function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readRegistry(): Registry {
  const raw = local()?.getItem(REGISTRY_KEY) ?? null;
  if (raw === null) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === 'string' && isAccountDatabaseName(entry[1]),
      ),
    );
  } catch {
    return {};
  }
}

function writeRegistry(registry: Registry): void {
  local()?.setItem(REGISTRY_KEY, JSON.stringify(registry));
}

/** Whether a database of this origin is one of Docket's device databases. */
export function isDocketDatabaseName(name: string): boolean {
  return isAccountDatabaseName(name) || isSpaceDatabaseName(name);
}

/** Whether the name is an account's (or the unowned) database, not a workspace's. */
function isAccountDatabaseName(name: string): boolean {
  return name === UNOWNED_DATABASE_NAME || /^docket-[0-9a-f]{32}$/.test(name);
}

function newAccountDatabaseName(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `docket-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The database no account owns now: the first of `docket`, `docket-000…1`, … none has taken. */
export function unownedDatabaseName(registry: Registry = readRegistry()): string {
  const taken = new Set(Object.values(registry));
  if (!taken.has(UNOWNED_DATABASE_NAME)) return UNOWNED_DATABASE_NAME;
  for (let n = 1; ; n++) {
    const name = `docket-${n.toString(16).padStart(32, '0')}`;
    if (!taken.has(name)) return name;
  }
}

/** The databases of the accounts that keep one on this browser. */
export function accountDatabaseNames(): string[] {
  return Object.values(readRegistry());
}

/** Each account with a database on this browser, and that database (its vault is bound to the id). */
export function accountDatabaseEntries(): {
  readonly accountId: string;
  readonly database: string;
}[] {
  return Object.entries(readRegistry()).map(([accountId, database]) => ({ accountId, database }));
}

/** The account's database, or undefined when it has none on this browser. */
export function accountDatabaseOf(userId: string): string | undefined {
  return readRegistry()[userId];
}

/**
 * The database this context opens when none is named: a worker's is in its name (the page
 * starts it with `workerName`); the page's is the active account's, or the unowned one while
 * no account is active (signed out: the sign-in page, a full backup restored without signing in).
 */
export function activeDatabaseName(): string {
  const workerName = (globalThis as { name?: unknown }).name;
  if (typeof window === 'undefined' && typeof workerName === 'string') {
    const mark = workerName.lastIndexOf(WORKER_NAME_MARK);
    if (mark >= 0) return workerName.slice(mark + WORKER_NAME_MARK.length);
  }
  const active = local()?.getItem(ACTIVE_KEY) ?? null;
  // The active account's database, or the workspace's it entered (space-databases.ts).
  return active !== null && isAccountDatabaseName(active)
    ? openDatabaseOf(active)
    : unownedDatabaseName();
}

/** The active account's own database; null while none is active (signed out). */
export function activeAccountDatabase(): string | null {
  const active = local()?.getItem(ACTIVE_KEY) ?? null;
  return active !== null && isAccountDatabaseName(active) ? active : null;
}

/** The team workspace whose database this page opens (space-databases.ts); null: none. */
export function activeWorkspaceId(): string | null {
  const active = activeAccountDatabase();
  return active === null ? null : activeSpaceOf(active);
}

/** Whether the active account ever entered a team workspace's space on this device. */
export function activeAccountHasSpaces(): boolean {
  const active = local()?.getItem(ACTIVE_KEY) ?? null;
  return active !== null && isAccountDatabaseName(active) && spaceDatabasesOf(active).length > 0;
}

/**
 * The active account's own database, whichever space the page works in: what belongs to the
 * account rather than to a space (this device's cloud keys) is kept there.
 */
export function accountDatabaseName(): string {
  return vaultDatabaseOf(activeDatabaseName());
}

/** Whether an account is active (its database is the one this page opens). */
export function accountIsActive(): boolean {
  return local()?.getItem(ACTIVE_KEY) != null;
}

// The databases this page has opened connections to that it keeps (the live reads', the
// commands', the workers'). A switch to another account's database must reload the page.
const keptOpen = new Set<string>();

/** Notes that the page keeps a connection to `name` open. */
export function noteDatabaseKeptOpen(name: string): void {
  if (typeof window !== 'undefined') keptOpen.add(name);
}

/** A worker's name that carries the active database: the worker opens that one and no other. */
export function workerName(role: string): string {
  const name = activeDatabaseName();
  noteDatabaseKeptOpen(name);
  return `${role}${WORKER_NAME_MARK}${name}`;
}

// Plain IndexedDB rather than Dexie here: this module is read at start-up, before the first
// paint of the sign-in page, which does not load Dexie.

async function withSharedRecord<T>(
  mode: IDBTransactionMode,
  body: (records: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const open = indexedDB.open(SHARED_RECORD_DATABASE, 1);
  open.onupgradeneeded = () => {
    open.result.createObjectStore(SHARED_RECORD_STORE);
  };
  const db = await requestDone(open);
  try {
    return await requestDone(
      body(db.transaction(SHARED_RECORD_STORE, mode).objectStore(SHARED_RECORD_STORE)),
    );
  } finally {
    db.close();
  }
}

/** Tells the service worker which database belongs to the signed-in user (or that none is). */
async function writeSharedRecord(record: { userId: string; database: string } | null) {
  if (typeof indexedDB === 'undefined') return;
  if (record === null) await withSharedRecord('readwrite', (records) => records.delete('active'));
  else await withSharedRecord('readwrite', (records) => records.put(record, 'active'));
}

/** The service worker's read of the record above: the database of `userId`, if it is active. */
export async function sharedActiveDatabase(userId: string): Promise<string | null> {
  const record = (await withSharedRecord('readonly', (records) => records.get('active'))) as
    { userId?: unknown; database?: unknown } | undefined;
  return record?.userId === userId &&
    typeof record.database === 'string' &&
    isDocketDatabaseName(record.database)
    ? record.database
    : null;
}

/** The names of Docket's device databases in this browser (the unowned one and every account's). */
export async function docketDatabaseNames(): Promise<string[]> {
  const databases = await indexedDB.databases();
  return databases
    .map((database) => database.name)
    .filter((name): name is string => name !== undefined && isDocketDatabaseName(name));
}

/** What a database holds, read only at sign-in and removal (database-contents.ts). */
const databaseContents = () => import('./database-contents.ts');

/** On the sign-in page: whether the unowned data goes to the next account that signs in. */
export function setUnownedDataGoesToNextAccount(yes: boolean): void {
  if (yes) local()?.removeItem(LEAVE_UNOWNED_KEY);
  else local()?.setItem(LEAVE_UNOWNED_KEY, 'yes');
}

export function unownedDataGoesToNextAccount(): boolean {
  return local()?.getItem(LEAVE_UNOWNED_KEY) !== 'yes';
}

/**
 * Makes `userId`'s database the active one: its own if it has one on this browser; else the
 * unowned database if one exists, no account owns it and the person did not decline it on the
 * sign-in page; else a new one. Answers whether the page must reload (it keeps a connection to
 * another database open).
 */
export async function enterAccountDatabase(userId: string): Promise<{ reload: boolean }> {
  const registry = readRegistry();
  let name = registry[userId];
  if (name === undefined) {
    const unowned = unownedDatabaseName(registry);
    name =
      unownedDataGoesToNextAccount() &&
      !isBeingRemoved(unowned) &&
      (await (await databaseContents()).holdsData(unowned, await docketDatabaseNames()))
        ? unowned
        : newAccountDatabaseName();
    // Full backups of locked accounts kept there are theirs: not handed over with the rest.
    if (name === unowned) await (await databaseContents()).deleteLockedBackups(unowned, () => true);
    writeRegistry({ ...readRegistry(), [userId]: name });
    local()?.removeItem(LEAVE_UNOWNED_KEY);
  }
  name = await openVaultWithHeldPassword(userId, name);
  local()?.setItem(ACTIVE_KEY, name);
  return { reload: await tellActiveDatabase(userId) };
}

/**
 * The database this page now opens told to the service worker; answers whether the page must
 * reload (it keeps a connection to another database open).
 */
export async function tellActiveDatabase(userId: string): Promise<boolean> {
  const database = activeDatabaseName();
  await writeSharedRecord({ userId, database }).catch((error: unknown) => {
    console.error('[docket] Could not tell the service worker the active account:', error);
  });
  return [...keptOpen].some((open) => open !== database);
}

/**
 * A sign-in with the password (the form held it: auth/held-password.ts) opens the account's
 * vault, or makes it (local-store/account-vault.ts). When the vault was locked under a password
 * the account no longer has (it was reset), that work stays on the device, set aside and locked,
 * and the account starts a new database here; answers the database to enter.
 */
async function openVaultWithHeldPassword(userId: string, name: string): Promise<string> {
  const password = takeHeldPassword();
  await locking;
  if (password === null) {
    // A session without the password (an app version older than vaults kept it): nothing may be
    // written in clear, so the person signs in with the password first.
    const { PasswordNeededError, vaultMissing } = await import('./vault-files.ts');
    if (await vaultMissing(name)) throw new PasswordNeededError();
    return name;
  }
  try {
    const { openAccountVault } = await import('./account-vault.ts');
    if ((await openAccountVault(name, userId, password)) === 'open') return name;
    const entry: SetAside = { accountId: userId, database: name };
    local()?.setItem(SET_ASIDE_KEY, JSON.stringify([...setAside(), entry]));
    const fresh = newAccountDatabaseName();
    writeRegistry({ ...readRegistry(), [userId]: fresh });
    await openAccountVault(fresh, userId, password);
    return fresh;
  } catch (error) {
    console.error('[docket] Could not open this account’s vault on this device:', error);
    return name;
  }
}

/** A database set aside, and its account (null: set aside before the account was kept with it). */
interface SetAside {
  readonly accountId: string | null;
  readonly database: string;
}

function setAside(): SetAside[] {
  try {
    const parsed: unknown = JSON.parse(local()?.getItem(SET_ASIDE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((entry: unknown): SetAside[] => {
      if (typeof entry === 'string') return [{ accountId: null, database: entry }];
      if (typeof entry !== 'object' || entry === null) return [];
      const { accountId, database } = entry as Record<string, unknown>;
      return typeof accountId === 'string' && typeof database === 'string'
        ? [{ accountId, database }]
        : [];
    });
  } catch {
    return [];
  }
}

/** The databases set aside from this account's earlier passwords (see openVaultWithHeldPassword). */
export function setAsideDatabasesOf(userId: string): string[] {
  return setAside()
    .filter((entry) => entry.accountId === userId && isDocketDatabaseName(entry.database))
    .map((entry) => entry.database);
}

/**
 * The lock a sign-out started (its key file deleted), never failing. A sign-in that follows at
 * once must not have its new key file deleted by it, nor may "Clear this device" delete the
 * vaults' folder while a file in it is being deleted (the browser refuses both at once).
 */
let locking: Promise<void> = Promise.resolve();

/** Sign-out (or a session the server no longer knows): no account is active. */
export function leaveAccountDatabase(): void {
  const active = local()?.getItem(ACTIVE_KEY) ?? null;
  // The vault's key goes with the session; the page that loads next makes sure of it
  // (`lockVaultsLeftOpen`), should this page be gone before the file is. What touches the vaults
  // next waits for it (`locking`).
  if (active !== null) {
    locking = locking
      .then(() => import('./vault-files.ts'))
      .then(({ lockVault }) => lockVault(active))
      .catch((error: unknown) => {
        console.error('[docket] Could not lock the account’s work on this device:', error);
      });
  }
  local()?.removeItem(ACTIVE_KEY);
  leaveSpace();
  writeSharedRecord(null).catch((error: unknown) => {
    console.error('[docket] Could not tell the service worker of the sign-out:', error);
  });
}

/**
 * Deletes the database. The page's and its workers' connections close on the deletion's
 * versionchange (Dexie's default, and openIndexedDbLocalStore's handler), so it is not blocked
 * for long; while blocked, the deletion waits.
 */
async function deleteDatabase(name: string): Promise<void> {
  await requestDone(indexedDB.deleteDatabase(name));
}

function pendingRemovals(): string[] {
  try {
    const parsed: unknown = JSON.parse(local()?.getItem(REMOVE_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (name): name is string => typeof name === 'string' && isDocketDatabaseName(name),
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * "Remove from this device", chosen at sign-out: the account leaves the registry now (nothing
 * can open its database any more) and its database is deleted by the next page load, which
 * holds no connection to it (`finishRemovals`), as this page's live reads would reopen it; so
 * are the databases set aside from its earlier passwords, and the full backups made of any of
 * them while it was locked.
 */
export function removeAccountAtSignOut(userId: string): void {
  const registry = readRegistry();
  const name = registry[userId];
  const asideNames = setAsideDatabasesOf(userId);
  if (name === undefined && asideNames.length === 0) return;
  writeRegistry(Object.fromEntries(Object.entries(registry).filter(([id]) => id !== userId)));
  // With each database go its workspaces' (space-databases.ts).
  const removing = [...asideNames, ...(name === undefined ? [] : [name])].flatMap((database) => [
    database,
    ...spaceDatabasesOf(database),
  ]);
  for (const database of removing) forgetSpacesOf(database);
  local()?.setItem(REMOVE_KEY, JSON.stringify([...new Set([...pendingRemovals(), ...removing])]));
  local()?.setItem(
    SET_ASIDE_KEY,
    JSON.stringify(setAside().filter((entry) => entry.accountId !== userId)),
  );
  if (name !== undefined && local()?.getItem(ACTIVE_KEY) === name) leaveAccountDatabase();
}

/** Whether the database is waiting to be deleted (it counts as gone). */
export function isBeingRemoved(name: string): boolean {
  return pendingRemovals().includes(name);
}

/**
 * Deletes the databases of accounts removed at sign-out, and their vaults; locks every vault
 * but the active account's (a sign-out whose page went before its key file did). The page calls
 * it as it starts.
 */
export async function finishRemovals(): Promise<void> {
  await locking;
  const { forgetVault, lockVaultsLeftOpen } = await import('./vault-files.ts');
  await lockVaultsLeftOpen(local()?.getItem(ACTIVE_KEY) ?? null);
  for (const name of pendingRemovals()) {
    await forgetVault(name);
    await (await databaseContents()).deleteLockedBackupsOf([name], await docketDatabaseNames());
    await deleteDatabase(name);
    local()?.setItem(
      REMOVE_KEY,
      JSON.stringify(pendingRemovals().filter((pending) => pending !== name)),
    );
  }
}

/** "Clear this device": every account's database, the unowned ones and the registry. */
export async function removeEveryDatabase(): Promise<void> {
  await locking;
  const { forgetEveryVault } = await import('./vault-files.ts');
  await forgetEveryVault();
  for (const name of await docketDatabaseNames()) await deleteDatabase(name);
  await deleteDatabase(SHARED_RECORD_DATABASE);
  local()?.removeItem(REGISTRY_KEY);
  local()?.removeItem(ACTIVE_KEY);
  local()?.removeItem(LEAVE_UNOWNED_KEY);
  local()?.removeItem(REMOVE_KEY);
  local()?.removeItem(SET_ASIDE_KEY);
  forgetEverySpace();
}
