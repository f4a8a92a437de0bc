import Dexie from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import { holdPasswordForDevice } from '../auth/held-password.ts';
import {
  accountDatabaseOf,
  enterAccountDatabase,
  finishRemovals,
  leaveAccountDatabase,
  removeAccountAtSignOut,
  removeEveryDatabase,
} from './account-databases.ts';
import { createDocketDatabase } from './docket-database.ts';
import { openDeviceVault } from '@docket/core/crypto';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import {
  DeviceLockedError,
  isVaultLocked,
  openVaultAtSignIn,
  readMaterial,
  readPassphraseMaterial,
  removeBackupPassphrase,
  setBackupPassphrase,
} from './device-vault.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';
import { readFile } from './vault-files.ts';

// Each account's vault on Chromium's own private file system (OPFS) and IndexedDB: made at the
// first sign-in with the password, its key gone at sign-out, opened again only by that password,
// forgotten with the account. The rows it seals are tested in sealed-store.test.ts.

Dexie.debug = false;

const PASSWORD = 'correct horse battery staple';
const at = '2026-11-29T00:00:00.000Z';

/** The bytes of every row of the database, read around the store, as text. */
async function rawRows(name: string): Promise<string> {
  const db = createDocketDatabase({ name });
  try {
    const rows = await Promise.all(db.tables.map((table) => table.toArray()));
    return JSON.stringify(rows, (_key, value: unknown) =>
      value instanceof Uint8Array ? new TextDecoder('latin1').decode(value) : value,
    );
  } finally {
    db.close();
  }
}

async function putTag(name: string, tagName: string): Promise<void> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    await store.write(['tags'], (tx) =>
      tx.put('tags', {
        // Ids are random in the app, and in clear by design; the name is what must not be.
        id: crypto.randomUUID(),
        name: tagName,
        color: '#3366cc',
        createdAt: at,
        updatedAt: at,
      }),
    );
  } finally {
    store.close();
  }
}

async function tagNames(name: string): Promise<string[]> {
  const store = await openIndexedDbLocalStore({ name });
  try {
    return (await store.read(['tags'], (tx) => tx.all('tags'))).map((tag) => tag.name).sort();
  } finally {
    store.close();
  }
}

describe('device vaults (Chromium)', () => {
  beforeEach(async () => {
    await removeEveryDatabase();
  });

  it('a sign-in with the password seals what was in clear; signed out, nothing opens; signed in, all of it', async () => {
    // Work made before the account had a vault (an earlier version), in clear.
    const user = `user-${String(Date.now())}`;
    // This version refuses a session without the password there (nothing is written in clear),
    // but the database is named for the account; an earlier version wrote into it in clear.
    await expect(enterAccountDatabase(user)).rejects.toMatchObject({ name: 'PasswordNeededError' });
    const name = accountDatabaseOf(user) ?? '';
    await putTag(name, 'Kestrel sources');
    expect(await rawRows(name)).toContain('Kestrel sources');
    leaveAccountDatabase();

    // Signed in with the password: the vault is made and the row sealed at once.
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    expect(await rawRows(name)).not.toContain('Kestrel sources');
    await putTag(name, 'Harbourline');
    expect(await rawRows(name)).not.toContain('Harbourline');
    expect(await tagNames(name)).toEqual(['Harbourline', 'Kestrel sources']);

    // Signed out: the key file goes (the next page makes sure of it), and nothing opens.
    leaveAccountDatabase();
    await finishRemovals();
    expect(await readFile(`${name}.key`)).toBeNull();
    expect(await isVaultLocked(name)).toBe(true);
    await expect(tagNames(name)).rejects.toThrow(DeviceLockedError);

    // A wrong password opens nothing and changes nothing.
    expect(await openVaultAtSignIn(name, user, 'not the password')).toBe('wrong-password');
    expect(await isVaultLocked(name)).toBe(true);
    // Another account's id with the right password opens nothing either.
    expect(await openVaultAtSignIn(name, 'someone-else', PASSWORD)).toBe('wrong-password');

    // Signed in again with the password: everything back.
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    expect(await tagNames(name)).toEqual(['Harbourline', 'Kestrel sources']);
  });

  it('a password reset since: the locked work is set aside, untouched, and the account starts afresh', async () => {
    const user = `user-${String(Date.now())}`;
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    const first = accountDatabaseOf(user) ?? '';
    await putTag(first, 'Before the reset');
    leaveAccountDatabase();
    await finishRemovals();

    holdPasswordForDevice('a brand new password after the reset');
    await enterAccountDatabase(user);
    const second = accountDatabaseOf(user) ?? '';
    expect(second).not.toBe(first);
    expect(await tagNames(second)).toEqual([]);
    // The first is still there, still locked under the earlier password.
    expect(await openVaultAtSignIn(first, user, PASSWORD)).toBe('opened');
    expect(await tagNames(first)).toEqual(['Before the reset']);
  });

  it('removal deletes the databases set aside after a password reset too', async () => {
    const user = `user-${String(Date.now())}`;
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    const first = accountDatabaseOf(user) ?? '';
    await putTag(first, 'Before the reset');
    leaveAccountDatabase();
    await finishRemovals();
    holdPasswordForDevice('a brand new password after the reset');
    await enterAccountDatabase(user);
    const second = accountDatabaseOf(user) ?? '';
    expect(second).not.toBe(first);

    removeAccountAtSignOut(user);
    await finishRemovals();
    const left = (await indexedDB.databases()).map((db) => db.name);
    expect(left).not.toContain(first);
    expect(left).not.toContain(second);
    expect(await readFile(`${first}.lock`)).toBeNull();
  });

  it('a passphrase for backups made signed out wraps the same key; only while open; removable', async () => {
    const user = `user-${String(Date.now())}`;
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    const name = accountDatabaseOf(user) ?? '';
    expect(await readPassphraseMaterial(name)).toBeNull();
    await setBackupPassphrase(name, user, 'a passphrase for the backups');
    const byPassphrase = await readPassphraseMaterial(name);
    const byPassword = await readMaterial(name);
    if (byPassphrase === null || byPassword === null) throw new Error('no lock');
    // Both copies hold the one vault key, each bound to the account.
    const one = await openDeviceVault(browserCrypto, PASSWORD, user, byPassword);
    const two = await openDeviceVault(
      browserCrypto,
      'a passphrase for the backups',
      user,
      byPassphrase,
    );
    expect([...two]).toEqual([...one]);
    await expect(
      openDeviceVault(browserCrypto, 'a passphrase for the backups', 'someone-else', byPassphrase),
    ).rejects.toMatchObject({ code: 'wrong-password' });
    await removeBackupPassphrase(name);
    expect(await readPassphraseMaterial(name)).toBeNull();
    // Signed out, the key is not here to wrap: nothing is set.
    leaveAccountDatabase();
    await expect.poll(() => readFile(`${name}.key`)).toBeNull();
    await expect(setBackupPassphrase(name, user, 'too late')).rejects.toBeInstanceOf(
      DeviceLockedError,
    );
    expect(await readPassphraseMaterial(name)).toBeNull();
  }, 30_000);

  it('removal forgets the vault: its files are gone with the database', async () => {
    const user = `user-${String(Date.now())}`;
    holdPasswordForDevice(PASSWORD);
    await enterAccountDatabase(user);
    const name = accountDatabaseOf(user) ?? '';
    await putTag(name, 'Gone soon');
    await setBackupPassphrase(name, user, 'a passphrase for the backups');
    expect(await readFile(`${name}.lock`)).not.toBeNull();
    removeAccountAtSignOut(user);
    await finishRemovals();
    expect(await readFile(`${name}.lock`)).toBeNull();
    expect(await readFile(`${name}.passphrase-lock`)).toBeNull();
    expect(await readFile(`${name}.key`)).toBeNull();
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(name);
  });
});
