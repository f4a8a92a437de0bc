import { randomIdSource } from '@docket/core/commands';
import { ensureDeviceId } from '@docket/core/device';
import { expose } from 'comlink';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import { localJobLocks, webJobLocks } from '../import-worker/job-locks.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { createFullBackupRunner, type FullBackupApi } from './full-backup-runner.ts';

// The full-backup worker: its own connection to the device's database. Compressing, Argon2id
// and AES-GCM over a whole database happen here, so the page stays responsive.

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
  });
}

const started = start();
started.catch((error: unknown) => {
  console.error('[docket] The full-backup worker could not start:', error);
});

const api: FullBackupApi = {
  create: async (request) => (await started).create(request),
  preview: async (source, passphrase) => (await started).preview(source, passphrase),
  restore: async (source, passphrase, mode) => (await started).restore(source, passphrase, mode),
};
expose(api);
