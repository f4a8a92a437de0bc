import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  accountDatabaseOf,
  activeDatabaseName,
  docketDatabaseNames,
  enterAccountDatabase,
  finishRemovals,
  isBeingRemoved,
  leaveAccountDatabase,
  removeAccountAtSignOut,
  removeEveryDatabase,
  setUnownedDataGoesToNextAccount,
  UNOWNED_DATABASE_NAME,
  unownedDatabaseName,
} from './account-databases.ts';
import { holdPasswordForDevice } from '../auth/held-password.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';
import { putTag, tagNames } from './web-test-tags.ts';
import { openVaultAtSignIn } from './device-vault.ts';
import { readDeviceHoldings } from './device-holdings.ts';
import { lockedBackupId } from './locked-backups.ts';

// One database per account, on Chromium's own IndexedDB and localStorage (vitest.web.config.ts):
// which database each account opens, who takes the data no account owns, and what removal and
// "Clear this device" leave behind.

Dexie.debug = false;

/** A full backup kept in `name`, and its job, as the full-backup worker leaves them. */
async function putFullBackup(name: string, id: string): Promise<void> {
  const at = '2026-11-29T00:00:00.000Z';
  const store = await openIndexedDbLocalStore({ name });
  try {
    await store.write(['fullBackups', 'jobs'], async (tx) => {
      await tx.put('fullBackups', {
        id,
        name: 'Locked account 1 2026-11-29',
        createdAt: at,
        encrypted: false,
        size: 1,
        bytes: new Uint8Array([1]),
      });
      await tx.put('jobs', {
        id: `job-${id}`,
        kind: 'full-backup',
        subjectId: id,
        label: 'Locked account 1 2026-11-29',
        status: 'done',
        createdAt: at,
        startedAt: at,
        finishedAt: at,
        progress: { recordsRead: 1, written: 1, skipped: 0, total: 1 },
        result: null,
        errors: [],
        message: null,
      });
    });
  } finally {
    store.close();
  }
}

/** The ids of the database's full backups and of its jobs' subjects. */
async function fullBackupsOf(name: string): Promise<{ backups: string[]; jobs: string[] }> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    return await store.read(['fullBackups', 'jobs'], async (tx) => ({
      backups: (await tx.all('fullBackups')).map((backup) => backup.id),
      jobs: (await tx.all('jobs')).map((job) => job.subjectId),
    }));
  } finally {
    store.close();
  }
}

const PASSWORD = 'correct horse battery staple 7';

/** A sign-in with the password, as the sign-in form makes it: the account's vault opens. */
function signIn(userId: string): ReturnType<typeof enterAccountDatabase> {
  holdPasswordForDevice(PASSWORD);
  return enterAccountDatabase(userId);
}

describe('one database per account', () => {
  beforeEach(async () => {
    await removeEveryDatabase();
    localStorage.clear();
  });

  it('gives each account its own database, never named by its e-mail, and opens it again', async () => {
    await signIn('user-x');
    const x = activeDatabaseName();
    expect(x).toMatch(/^docket-[0-9a-f]{32}$/);
    await putTag(x, 'Whistleblower J.D.');
    leaveAccountDatabase();
    expect(activeDatabaseName()).toBe(UNOWNED_DATABASE_NAME);

    await signIn('user-y');
    const y = activeDatabaseName();
    expect(y).not.toBe(x);
    expect(await tagNames(y)).toEqual([]);
    leaveAccountDatabase();

    await signIn('user-x');
    expect(activeDatabaseName()).toBe(x);
    expect(await tagNames(x)).toEqual(['Whistleblower J.D.']);
    expect(JSON.stringify(localStorage)).not.toContain('@');
  });

  it('gives the data no account owns to the first account that signs in, and only to it', async () => {
    await putTag(UNOWNED_DATABASE_NAME, 'Made signed out');
    await signIn('first');
    expect(activeDatabaseName()).toBe(UNOWNED_DATABASE_NAME);
    expect(await tagNames(activeDatabaseName())).toEqual(['Made signed out']);
    leaveAccountDatabase();

    // Signed out again, the page's unowned database is a new one: the first account's stays its.
    expect(unownedDatabaseName()).not.toBe(UNOWNED_DATABASE_NAME);
    expect(activeDatabaseName()).toBe(unownedDatabaseName());
    await signIn('second');
    expect(await tagNames(activeDatabaseName())).toEqual([]);
  });

  it('leaves the unowned data alone when the person said it is not theirs, or when it is empty', async () => {
    await putTag(UNOWNED_DATABASE_NAME, 'Someone else’s');
    setUnownedDataGoesToNextAccount(false);
    await signIn('declined');
    expect(activeDatabaseName()).not.toBe(UNOWNED_DATABASE_NAME);
    leaveAccountDatabase();
    expect(await tagNames(unownedDatabaseName())).toEqual(['Someone else’s']);

    await removeEveryDatabase();
    // An empty unowned database (a signed-out page opened it) is given to nobody.
    const empty = await openIndexedDbLocalStore({ name: UNOWNED_DATABASE_NAME });
    empty.close();
    await signIn('fresh');
    expect(activeDatabaseName()).not.toBe(UNOWNED_DATABASE_NAME);
  });

  it('asks for a reload when the page holds another database open', async () => {
    expect((await signIn('user-x')).reload).toBe(false);
    leaveAccountDatabase();
    // A connection the page keeps (as the live reads' is) on X's database.
    const { createDocketDatabase } = await import('./docket-database.ts');
    await signIn('user-x');
    const kept = createDocketDatabase();
    leaveAccountDatabase();
    expect((await signIn('user-y')).reload).toBe(true);
    kept.close();
  });

  it('removes an account at sign-out: gone from the registry at once, its database at the next start', async () => {
    await signIn('user-x');
    const x = activeDatabaseName();
    await putTag(x, 'Private');
    await signIn('user-y');
    const y = activeDatabaseName();
    await putTag(y, 'Other');

    removeAccountAtSignOut('user-y');
    expect(accountDatabaseOf('user-y')).toBeUndefined();
    expect(activeDatabaseName()).not.toBe(y);
    expect(isBeingRemoved(y)).toBe(true);
    expect((await readDeviceHoldings()).accounts).toHaveLength(1);

    await finishRemovals();
    expect(await docketDatabaseNames()).toEqual([x]);
    // X's work stays, locked until X's password opens it.
    await expect(tagNames(x)).rejects.toMatchObject({ name: 'DeviceLockedError' });
    await signIn('user-x');
    expect(await tagNames(x)).toEqual(['Private']);
    // Signing in again as Y starts empty.
    await signIn('user-y');
    expect(await tagNames(activeDatabaseName())).toEqual([]);
  });

  it('keeps a locked account’s full backup as that account’s: not handed on, removed with it', async () => {
    await signIn('user-x');
    const x = activeDatabaseName();
    await putTag(x, 'X');
    leaveAccountDatabase();
    // Signed out: "Back up locked account 1" keeps X's locked work in the unowned database.
    const unowned = unownedDatabaseName();
    const backup = lockedBackupId(x, 'b-1');
    await putFullBackup(unowned, backup);
    // It is not data no account owns: the sign-in page counts none, the next account starts anew.
    expect((await readDeviceHoldings()).unowned?.fullBackups).toBe(0);
    await signIn('user-y');
    expect(activeDatabaseName()).not.toBe(unowned);
    leaveAccountDatabase();
    expect(await fullBackupsOf(unowned)).toEqual({ backups: [backup], jobs: [backup] });

    // X removed: its backup goes with its database, and its job.
    await signIn('user-x');
    removeAccountAtSignOut('user-x');
    await finishRemovals();
    expect(await docketDatabaseNames()).not.toContain(x);
    expect(await fullBackupsOf(unowned)).toEqual({ backups: [], jobs: [] });
  });

  it('hands the unowned data on without the locked accounts’ full backups kept with it', async () => {
    await signIn('user-x');
    const x = activeDatabaseName();
    leaveAccountDatabase();
    const unowned = unownedDatabaseName();
    await putTag(unowned, 'Made signed out');
    await putFullBackup(unowned, 'own-backup');
    await putFullBackup(unowned, lockedBackupId(x, 'b-1'));
    await signIn('user-z');
    expect(activeDatabaseName()).toBe(unowned);
    expect(await tagNames(unowned)).toEqual(['Made signed out']);
    expect(await fullBackupsOf(unowned)).toEqual({ backups: ['own-backup'], jobs: ['own-backup'] });
  });

  it('"Clear this device" deletes every account’s database, the unowned one and the registry', async () => {
    await putTag(UNOWNED_DATABASE_NAME, 'Unowned');
    setUnownedDataGoesToNextAccount(false);
    await signIn('user-x');
    await putTag(activeDatabaseName(), 'X');
    leaveAccountDatabase();
    const holdings = await readDeviceHoldings();
    expect(holdings.accounts.map((summary) => summary.tags)).toEqual([1]);
    expect(holdings.unowned?.tags).toBe(1);

    await removeEveryDatabase();
    expect(await docketDatabaseNames()).toEqual([]);
    expect(accountDatabaseOf('user-x')).toBeUndefined();
    expect(await readDeviceHoldings()).toEqual({ accounts: [], unowned: null });
  });

  it('ignores a registry someone tampered with: only Docket’s own names are opened', async () => {
    localStorage.setItem('docket.accounts', JSON.stringify({ evil: 'other-app-db', bad: 42 }));
    localStorage.setItem('docket.database', 'other-app-db');
    expect(activeDatabaseName()).toBe(UNOWNED_DATABASE_NAME);
    expect(accountDatabaseOf('evil')).toBeUndefined();
    localStorage.setItem('docket.accounts', '{not json');
    await signIn('user-x');
    expect(activeDatabaseName()).toMatch(/^docket-[0-9a-f]{32}$/);
  });

  it('refuses a session without the password while the account’s work has no vault, and writes nothing', async () => {
    const started = Date.now();
    await expect(enterAccountDatabase('old-session')).rejects.toMatchObject({
      name: 'PasswordNeededError',
    });
    // It waited for another tab's sign-in to make the vault before it refused.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    // No account is active: nothing of the session's can be written anywhere.
    expect(localStorage.getItem('docket.database')).toBeNull();
    // Once the password made the vault, the same session enters.
    await signIn('old-session');
    expect(activeDatabaseName()).toBe(accountDatabaseOf('old-session'));
    leaveAccountDatabase();
    await expect(enterAccountDatabase('old-session')).resolves.toHaveProperty('reload');
  }, 15_000);

  it('waits for the vault another tab is making, then enters without the password', async () => {
    await signIn('two-tabs');
    const name = accountDatabaseOf('two-tabs') ?? '';
    leaveAccountDatabase();
    await removeEveryDatabase();
    localStorage.clear();
    // The first tab named the database and is still running Argon2id when this tab enters.
    localStorage.setItem('docket.accounts', JSON.stringify({ 'two-tabs': name }));
    const entering = enterAccountDatabase('two-tabs');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await openVaultAtSignIn(name, 'two-tabs', PASSWORD)).toBe('created');
    await expect(entering).resolves.toHaveProperty('reload');
    expect(activeDatabaseName()).toBe(name);
  }, 15_000);
});
