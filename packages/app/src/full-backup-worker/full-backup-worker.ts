import { randomIdSource } from '@docket/core/commands';
import { ensureDeviceId } from '@docket/core/device';
import { expose } from 'comlink';
import { FullBackupError } from '@docket/core/full-backups';
import { openIndexedDbLocalStore, rowsAsStored } from '../local-store/indexeddb-local-store.ts';
import { localJobLocks, webJobLocks } from '../import-worker/job-locks.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import {
  createFullBackupRunner,
  type FullBackupApi,
  type LockedAccountRef,
  type LockedSource,
} from './full-backup-runner.ts';

// The full-backup worker: its own connection to the device's database. Compressing, Argon2id
// and AES-GCM over a whole database happen here, so the page stays responsive.

/** A locked account's database, read as stored, with its lock file's wrapped vault key. */
async function openLocked({ database, accountId }: LockedAccountRef): Promise<LockedSource> {
  const { readMaterial, readPassphraseMaterial } = await import('../local-store/device-vault.ts');
  const vault = await readMaterial(database);
  if (vault === null) {
    throw new FullBackupError('not-found', 'This account keeps nothing locked on this browser.');
  }
  // The second copy of the key, under the passphrase the account set for these backups.
  const passphraseVault = await readPassphraseMaterial(database);
  const store = await openIndexedDbLocalStore({ name: database, vault: rowsAsStored });
  return {
    store,
    account: { accountId, vault, ...(passphraseVault === null ? {} : { passphraseVault }) },
    close: () => {
      store.close();
    },
  };
}

async function start(): Promise<FullBackupApi> {
  const store = await openIndexedDbLocalStore();
  const newId = randomIdSource((bytes) => crypto.getRandomValues(bytes));
  return createFullBackupRunner({
    store,
    crypto: browserCrypto,
    locks: 'locks' in navigator ? webJobLocks(navigator.locks) : localJobLocks(),
    deviceId: () => ensureDeviceId(store, newId),
    now: () => Date.now(),
    newId,
    openLocked,
  });
}

const started = start();
started.catch((error: unknown) => {
  console.error('[docket] The full-backup worker could not start:', error);
});

const api: FullBackupApi = {
  create: async (request) => (await started).create(request),
  createLocked: async (request, account) => (await started).createLocked(request, account),
  preview: async (source, passphrase, accountPassword) =>
    (await started).preview(source, passphrase, accountPassword),
  restore: async (source, passphrase, mode, accountPassword) =>
    (await started).restore(source, passphrase, mode, accountPassword),
};
expose(api);
