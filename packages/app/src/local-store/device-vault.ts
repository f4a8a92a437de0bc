import {
  createDeviceVault,
  deviceRowKey,
  openDeviceVault,
  SyncCryptoError,
  wrapDeviceVaultKey,
  type DeviceVaultMaterial,
  type OpaqueCryptoKey,
} from '@docket/core/crypto';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import {
  DeviceLockedError,
  keyFile,
  lockFile,
  passphraseLockFile,
  readFile,
  removeFile,
  states,
  vaultDirectory,
  writeFile,
  type VaultState,
} from './vault-files.ts';
import { vaultDatabaseOf } from './space-databases.ts';

export {
  DeviceLockedError,
  forgetEveryVault,
  forgetVault,
  lockVault,
  lockVaultsLeftOpen,
} from './vault-files.ts';

// Each account's vault on this browser (issue 38): the key its private rows are sealed under
// (core's store/sealed-rows.ts). Two files per account database, in the origin's private file
// system (OPFS), which the page, its workers and the service worker can all read:
//
// - `<database>.lock`: the vault key wrapped under the account's password (Argon2id), kept for as
//   long as the account keeps its work on the device. Alone it opens nothing.
// - `<database>.key`: the vault key itself, written when the account signs in with its password
//   and deleted when it signs out. While it exists the account is open on this device.
//
// Why files and not IndexedDB or localStorage: both keep overwritten and deleted values in their
// log files until they compact, so a key deleted there could still be read from the profile
// folder after sign-out. A deleted file is gone from the folder. The rows themselves are sealed
// as they are written (never in clear and sealed later), for the same reason.

function parseMaterial(bytes: Uint8Array): DeviceVaultMaterial {
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as DeviceVaultMaterial;
  if (typeof parsed.salt !== 'string' || typeof parsed.wrappedKey !== 'string') {
    throw new SyncCryptoError('tampered', 'This device’s locked copy is damaged.');
  }
  return parsed;
}

/** The database's lock (its vault key wrapped under the password), or null with no vault. */
export async function readMaterial(database: string): Promise<DeviceVaultMaterial | null> {
  const bytes = await readFile(lockFile(database));
  return bytes === null ? null : parseMaterial(bytes);
}

async function readState(database: string): Promise<VaultState> {
  const keyBytes = await readFile(keyFile(database));
  if (keyBytes !== null)
    return { kind: 'open', rowKey: await deviceRowKey(browserCrypto, keyBytes) };
  return (await readFile(lockFile(database))) === null ? { kind: 'none' } : { kind: 'locked' };
}

/** What the store seals this database's private rows with (see VaultState). */
export function vaultState(database: string): Promise<VaultState> {
  const vault = vaultDatabaseOf(database);
  let state = states.get(vault);
  if (state === undefined) {
    state = readState(vault);
    states.set(vault, state);
    // A failed read is tried again next time rather than kept.
    state.catch(() => states.delete(vault));
  }
  return state;
}

/**
 * The key the store seals rows with: null when the database has no vault (its rows stay in
 * clear); DeviceLockedError when it has one that is not open here.
 */
export async function vaultRowKey(database: string): Promise<OpaqueCryptoKey | null> {
  const state = await vaultState(database);
  if (state.kind === 'locked') throw new DeviceLockedError();
  return state.kind === 'open' ? state.rowKey : null;
}

export type VaultOpening = 'created' | 'opened' | 'wrong-password' | 'unavailable';

/**
 * At sign-in with the account's password: opens the database's vault (its key written where the
 * workers find it), or makes one when the database has none. 'wrong-password' when the vault
 * was locked under another password (the account's password was reset since): nothing changes.
 * 'unavailable' where the browser has no private file system: rows stay in clear.
 */
export async function openVaultAtSignIn(
  database: string,
  accountId: string,
  password: string,
): Promise<VaultOpening> {
  if ((await vaultDirectory()) === null) return 'unavailable';
  const material = await readMaterial(database);
  let keyBytes: Uint8Array<ArrayBuffer>;
  let opening: VaultOpening;
  if (material === null) {
    const made = await createDeviceVault(browserCrypto, password, accountId);
    await writeFile(lockFile(database), new TextEncoder().encode(JSON.stringify(made.material)));
    keyBytes = made.keyBytes;
    opening = 'created';
  } else {
    try {
      keyBytes = await openDeviceVault(browserCrypto, password, accountId, material);
    } catch (error) {
      if (error instanceof SyncCryptoError && error.code === 'wrong-password') {
        return 'wrong-password';
      }
      throw error;
    }
    opening = 'opened';
  }
  try {
    await writeFile(keyFile(database), keyBytes);
    states.set(
      vaultDatabaseOf(database),
      Promise.resolve({ kind: 'open', rowKey: await deviceRowKey(browserCrypto, keyBytes) }),
    );
  } finally {
    keyBytes.fill(0);
  }
  return opening;
}

/** A new account password: the same vault key, wrapped again (the vault must be open). */
export async function rewrapVault(
  database: string,
  accountId: string,
  newPassword: string,
): Promise<void> {
  const keyBytes = await readFile(keyFile(database));
  if (keyBytes === null) throw new DeviceLockedError();
  try {
    const material = await wrapDeviceVaultKey(browserCrypto, keyBytes, newPassword, accountId);
    await writeFile(lockFile(database), new TextEncoder().encode(JSON.stringify(material)));
  } finally {
    keyBytes.fill(0);
  }
}

/**
 * The vault key wrapped under the passphrase the account set for backups made while signed out,
 * or null when it set none.
 */
export async function readPassphraseMaterial(
  database: string,
): Promise<DeviceVaultMaterial | null> {
  const bytes = await readFile(passphraseLockFile(database));
  return bytes === null ? null : parseMaterial(bytes);
}

/**
 * "Passphrase for backups made while signed out": the open vault's key wrapped a second time,
 * under the passphrase (Argon2id, bound to the account), kept beside the lock. A full backup of
 * the account made signed out then opens with either. Replaces an earlier one.
 */
export async function setBackupPassphrase(
  database: string,
  accountId: string,
  passphrase: string,
): Promise<void> {
  const keyBytes = await readFile(keyFile(database));
  if (keyBytes === null) throw new DeviceLockedError();
  try {
    const material = await wrapDeviceVaultKey(browserCrypto, keyBytes, passphrase, accountId);
    await writeFile(
      passphraseLockFile(database),
      new TextEncoder().encode(JSON.stringify(material)),
    );
  } finally {
    keyBytes.fill(0);
  }
}

/** The passphrase's copy goes: backups made signed out from now on open with the password only. */
export function removeBackupPassphrase(database: string): Promise<void> {
  return removeFile(passphraseLockFile(database));
}

/** Whether the database's vault is locked on this device (it has one and its key is not here). */
export async function isVaultLocked(database: string): Promise<boolean> {
  return (await readState(database)).kind === 'locked';
}
