import {
  changeCloudPassword,
  type CloudKeyMaterial,
  createCloudKeys,
  type OpaqueCryptoKey,
  unlockCloudKeys,
  type UnlockedKeys,
} from '@docket/core/crypto';
import { expose } from 'comlink';
import { browserCrypto } from '../crypto/browser-crypto.ts';

// Argon2id with 64 MiB and three passes takes a few hundred milliseconds on a laptop and
// seconds on a slow phone; run on the page it would freeze the app (the spinner would not even
// turn). Here it runs beside the page. CryptoKeys cross back by structured clone, which keeps
// non-extractable keys non-extractable.

export interface CloudKeyApi {
  create(
    password: string,
    keyEpoch: number,
  ): Promise<{ material: CloudKeyMaterial; keys: UnlockedKeys }>;
  unlock(password: string, material: CloudKeyMaterial): Promise<UnlockedKeys>;
  change(
    current: { material: CloudKeyMaterial; keyEncryptionKey: OpaqueCryptoKey },
    newPassword: string,
  ): Promise<{ material: CloudKeyMaterial; keys: UnlockedKeys }>;
}

/** A SyncCryptoError loses its class crossing the worker boundary; its code and message travel. */
async function carried<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && 'code' in error) {
      throw new Error(`${String(error.code)}:${error.message}`);
    }
    throw error;
  }
}

const api: CloudKeyApi = {
  create: (password, keyEpoch) => carried(() => createCloudKeys(browserCrypto, password, keyEpoch)),
  unlock: (password, material) => carried(() => unlockCloudKeys(browserCrypto, password, material)),
  change: (current, newPassword) =>
    carried(() => changeCloudPassword(browserCrypto, current, newPassword)),
};

expose(api);
