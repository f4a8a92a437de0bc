import { SyncCryptoError, type SyncCryptoErrorCode } from '@docket/core/crypto';
import { wrap, type Remote } from 'comlink';
import type { CloudKeyApi } from './cloud-key-worker.ts';

// The page's handle on the cloud key worker, started on first use.

let remote: Remote<CloudKeyApi> | null = null;

function worker(): Remote<CloudKeyApi> {
  remote ??= wrap<CloudKeyApi>(
    new Worker(new URL('./cloud-key-worker.ts', import.meta.url), {
      type: 'module',
      name: 'docket-cloud-keys',
    }),
  );
  return remote;
}

const codes: readonly SyncCryptoErrorCode[] = ['wrong-password', 'tampered', 'invalid-input'];

/** Gives a refusal from the worker back its class, so callers can tell it from a failure. */
async function restored<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof Error) {
      const separator = error.message.indexOf(':');
      const code = error.message.slice(0, separator) as SyncCryptoErrorCode;
      if (separator > 0 && codes.includes(code)) {
        throw new SyncCryptoError(code, error.message.slice(separator + 1));
      }
    }
    throw error;
  }
}

/** The cloud key operations, run off the page. */
export const cloudKeys: CloudKeyApi = {
  create: (password, keyEpoch) => restored(worker().create(password, keyEpoch)),
  unlock: (password, material) => restored(worker().unlock(password, material)),
  change: (current, newPassword) => restored(worker().change(current, newPassword)),
};
