import type { OpaqueCryptoKey } from '@docket/core/crypto';
import { vaultDatabaseOf } from './space-databases.ts';

// The files of each account's vault on this browser (device-vault.ts says what they are and
// why files): read, written, deleted. No crypto here, so the page can lock vaults as it starts
// without loading Argon2id or WebCrypto's wrappers.

const VAULT_DIRECTORY = 'docket-vaults';

/** A vault that exists but whose key is not on the device: signed out, or never opened here. */
export class DeviceLockedError extends Error {
  constructor() {
    super(
      'This account’s work on this device is locked. Sign out, then sign in with your password to open it.',
    );
    this.name = 'DeviceLockedError';
  }
}

/**
 * A session with no password to hand (kept from an app version older than vaults, or opened in
 * another tab) found the account's database without a vault: what it wrote would be in clear.
 * The person signs in with the password once, which makes the vault and seals what is there.
 */
export class PasswordNeededError extends Error {
  constructor() {
    super('Sign in with your password once more to lock your work on this device.');
    this.name = 'PasswordNeededError';
  }
}

export type VaultState =
  | { readonly kind: 'none' }
  | { readonly kind: 'open'; readonly rowKey: OpaqueCryptoKey }
  | { readonly kind: 'locked' };

interface StorageWithDirectory {
  getDirectory?: () => Promise<FileSystemDirectoryHandle>;
}

/** The vaults' folder, or null where the browser has no private file system (tests in Node). */
export async function vaultDirectory(): Promise<FileSystemDirectoryHandle | null> {
  const storage = (globalThis.navigator as { storage?: StorageWithDirectory } | undefined)?.storage;
  if (storage?.getDirectory === undefined) return null;
  const root = await storage.getDirectory();
  return root.getDirectoryHandle(VAULT_DIRECTORY, { create: true });
}

export async function readFile(name: string): Promise<Uint8Array | null> {
  const directory = await vaultDirectory();
  if (directory === null) return null;
  try {
    const handle = await directory.getFileHandle(name);
    return new Uint8Array(await (await handle.getFile()).arrayBuffer());
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return null;
    throw error;
  }
}

export async function writeFile(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const directory = await vaultDirectory();
  if (directory === null) throw new Error('This browser cannot keep a locked copy of your work.');
  const handle = await directory.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(bytes);
  await writable.close();
}

export async function removeFile(name: string): Promise<void> {
  const directory = await vaultDirectory();
  if (directory === null) return;
  try {
    await directory.removeEntry(name);
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
  }
}

export const lockFile = (database: string) => `${vaultDatabaseOf(database)}.lock`;
export const keyFile = (database: string) => `${vaultDatabaseOf(database)}.key`;
/** The vault key wrapped under the passphrase the account set for backups made signed out. */
export const passphraseLockFile = (database: string) =>
  `${vaultDatabaseOf(database)}.passphrase-lock`;

/** How long a tab waits for another tab's sign-in to finish making the vault (Argon2id). */
const VAULT_MAKING_WAIT_MS = 5000;
const VAULT_POLL_MS = 250;

/**
 * Whether the database has no vault where the browser could keep one: no lock and no key. A
 * vault another tab is making (its sign-in's Argon2id runs after the account's database was
 * named) is waited for, up to a few seconds.
 */
export async function vaultMissing(
  database: string,
  waitMs = VAULT_MAKING_WAIT_MS,
): Promise<boolean> {
  if ((await vaultDirectory()) === null) return false;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if ((await readFile(lockFile(database))) !== null) return false;
    if ((await readFile(keyFile(database))) !== null) return false;
    if (Date.now() >= deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, VAULT_POLL_MS));
  }
}

// Each context reads each vault once (a workspace's database reads its account's: keyed by
// `vaultDatabaseOf`); sign-in and sign-out in this context replace it.
export const states = new Map<string, Promise<VaultState>>();

/** Sign-out keeping the work: the key goes; only the password opens the vault again. */
export async function lockVault(database: string): Promise<void> {
  states.set(vaultDatabaseOf(database), Promise.resolve({ kind: 'locked' }));
  await removeFile(keyFile(database));
}

/** Removal: the key and its wrapped copy go, so nothing sealed under it can be opened again. */
export async function forgetVault(database: string): Promise<void> {
  states.delete(vaultDatabaseOf(database));
  await removeFile(keyFile(database));
  await removeFile(lockFile(database));
  await removeFile(passphraseLockFile(database));
}

/**
 * At start-up: every vault's key but the active database's is deleted. A sign-out whose page was
 * gone before its key file could leave one behind; the next page finishes it.
 */
export async function lockVaultsLeftOpen(active: string | null): Promise<void> {
  const directory = await vaultDirectory();
  if (directory === null) return;
  const names: string[] = [];
  for await (const name of (
    directory as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
  ).keys()) {
    names.push(name);
  }
  for (const name of names) {
    if (name.endsWith('.key') && (active === null || name !== keyFile(active))) {
      const database = name.slice(0, -'.key'.length);
      states.set(database, Promise.resolve({ kind: 'locked' }));
      await removeFile(name);
    }
  }
}

/** "Clear this device": every vault's files. */
export async function forgetEveryVault(): Promise<void> {
  states.clear();
  const root = await (
    globalThis.navigator as { storage?: StorageWithDirectory } | undefined
  )?.storage?.getDirectory?.();
  if (root === undefined) return;
  try {
    await root.removeEntry(VAULT_DIRECTORY, { recursive: true });
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
  }
}
