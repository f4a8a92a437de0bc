import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import {
  argon2idKeyBytes,
  DEFAULT_KDF,
  type KdfParams,
  openBound,
  sealBound,
  type SealBinding,
  SyncCryptoError,
} from './sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
import { importRawKeyAndWipe } from './web-crypto.ts';

// The device vault (issue 38): what one account keeps on a shared browser is written sealed
// under a key of its own, the vault key, so a person holding the browser's profile folder reads
// none of it while the account is signed out. The vault key is 32 random bytes, wrapped under a
// key Argon2id derives from the account's password (the same parameters as the cloud password),
// bound to the account's id: only that account's password opens it, and a wrapped key copied to
// another account's entry does not open there. While the account is signed in the app keeps the
// bytes where its workers can read them (local-store/device-vault.ts); at sign-out it forgets
// them, and the wrapped copy is all that is left.
//
// Each private row's words are sealed with the vault key (AES-256-GCM, a fresh nonce) bound to
// the row's table, its key and the part of the row, so a sealed value moved to another row, or
// another table, no longer opens.

export interface DeviceVaultMaterial {
  readonly kdf: KdfParams;
  /** Salt of the key-encryption key, base64. */
  readonly salt: string;
  /** The vault key sealed under the key-encryption key, bound to the account, base64. */
  readonly wrappedKey: string;
}

const VAULT_KEY_BYTES = 32;
const SALT_BYTES = 16;

function vaultBinding(accountId: string): SealBinding {
  return ['docket-device-vault', accountId];
}

function rowBinding(binding: SealBinding): SealBinding {
  return ['docket-device-row', ...binding];
}

async function keyEncryptionKey(
  crypto: WebCryptoPort,
  password: string,
  salt: Uint8Array,
  kdf: KdfParams,
): Promise<OpaqueCryptoKey> {
  if (password.length === 0) {
    throw new SyncCryptoError('invalid-input', 'A password is needed to open this device’s copy.');
  }
  return importRawKeyAndWipe(crypto, await argon2idKeyBytes(password, salt, kdf), 'AES-GCM');
}

/** The vault key wrapped under the password (a new salt each time): a first vault, or a new password. */
export async function wrapDeviceVaultKey(
  crypto: WebCryptoPort,
  keyBytes: Uint8Array,
  password: string,
  accountId: string,
  kdf: KdfParams = DEFAULT_KDF,
): Promise<DeviceVaultMaterial> {
  if (keyBytes.length !== VAULT_KEY_BYTES) {
    throw new SyncCryptoError('invalid-input', 'A vault key is 32 bytes.');
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const kek = await keyEncryptionKey(crypto, password, salt, kdf);
  const wrapped = await sealBound(crypto, kek, keyBytes, vaultBinding(accountId));
  return { kdf, salt: encodeBase64(salt), wrappedKey: encodeBase64(wrapped) };
}

/** A new vault for an account: its random key (the caller keeps it while signed in) and its wrapped copy. */
export async function createDeviceVault(
  crypto: WebCryptoPort,
  password: string,
  accountId: string,
  kdf: KdfParams = DEFAULT_KDF,
): Promise<{ material: DeviceVaultMaterial; keyBytes: Uint8Array<ArrayBuffer> }> {
  const keyBytes = crypto.getRandomValues(new Uint8Array(VAULT_KEY_BYTES));
  const material = await wrapDeviceVaultKey(crypto, keyBytes, password, accountId, kdf);
  return { material, keyBytes };
}

/**
 * The vault key's bytes, opened with the account's password. A wrong password, another account's
 * material or changed bytes are refused alike ('wrong-password'): AES-GCM cannot tell them apart,
 * and none of them opens anything.
 */
export async function openDeviceVault(
  crypto: WebCryptoPort,
  password: string,
  accountId: string,
  material: DeviceVaultMaterial,
): Promise<Uint8Array<ArrayBuffer>> {
  const salt = decodeBase64(material.salt);
  const wrapped = decodeBase64(material.wrappedKey);
  if (salt === null || wrapped === null) {
    throw new SyncCryptoError('tampered', 'This device’s locked copy is damaged.');
  }
  const kek = await keyEncryptionKey(crypto, password, salt, material.kdf);
  try {
    return await openBound(crypto, kek, wrapped, vaultBinding(accountId));
  } catch {
    throw new SyncCryptoError(
      'wrong-password',
      'That password does not open what this device keeps for the account.',
    );
  }
}

/** The key rows are sealed with, from the vault key's bytes (a copy is wiped, not the caller's). */
export async function deviceRowKey(
  crypto: WebCryptoPort,
  keyBytes: Uint8Array,
): Promise<OpaqueCryptoKey> {
  if (keyBytes.length !== VAULT_KEY_BYTES) {
    throw new SyncCryptoError('invalid-input', 'A vault key is 32 bytes.');
  }
  return await importRawKeyAndWipe(crypto, new Uint8Array(keyBytes), 'AES-GCM');
}

/** Seals one part of a row, bound to what `binding` names (its table, key and part). */
export function sealDeviceValue(
  crypto: WebCryptoPort,
  rowKey: OpaqueCryptoKey,
  plaintext: Uint8Array,
  binding: SealBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  return sealBound(crypto, rowKey, plaintext, rowBinding(binding));
}

/** Opens what `sealDeviceValue` sealed under the same binding; anything else is refused as tampered. */
export function openDeviceValue(
  crypto: WebCryptoPort,
  rowKey: OpaqueCryptoKey,
  sealed: Uint8Array,
  binding: SealBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  return openBound(crypto, rowKey, sealed, rowBinding(binding));
}
