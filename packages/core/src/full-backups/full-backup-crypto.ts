import { createSHA256 } from 'hash-wasm';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import {
  FULL_BACKUP_FORMAT,
  FULL_BACKUP_VERSION,
  FullBackupError,
  NONCE_BYTES,
  concatBytes,
  fullBackupMessages,
  type FullBackupEncryption,
} from './full-backup-format.ts';
import { argon2idKeyBytes, DEFAULT_KDF, type KdfParams } from '../crypto/sync-crypto.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';
import { importRawKeyAndWipe } from '../crypto/web-crypto.ts';

// The passphrase of a full backup: Argon2id with the cloud password's parameters
// (sync-crypto.ts DEFAULT_KDF) makes a 256-bit AES-GCM key; a fresh random salt per file means
// a fresh key per file. Each chunk is sealed with a random nonce, and its associated data binds
// it to the file's header and its place in the file (see full-backup-format.ts).

const SALT_BYTES = 16;
const CHECK_LABEL = encodeUtf8('docket-full-backup key check');
const MAX_PASSPHRASE_LENGTH = 1024;

export { DEFAULT_KDF };

export function checkPassphrase(passphrase: string): void {
  if (passphrase.length === 0 || passphrase.length > MAX_PASSPHRASE_LENGTH) {
    throw new FullBackupError(
      'invalid-input',
      `A passphrase is 1 to ${MAX_PASSPHRASE_LENGTH} characters.`,
    );
  }
}

/** Parameters read from a file are bounded: a hostile file must not ask for 4 GB of memory. */
export function usableKdf(kdf: unknown): KdfParams {
  const value = kdf as Partial<Record<keyof KdfParams, unknown>> | null;
  const whole = (n: unknown, min: number, max: number): n is number =>
    typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
  if (
    typeof value !== 'object' ||
    value === null ||
    value.algorithm !== 'argon2id' ||
    !whole(value.parallelism, 1, 16) ||
    !whole(value.iterations, 1, 64) ||
    !whole(value.memoryKiB, 8 * value.parallelism, 1024 * 1024)
  ) {
    throw new FullBackupError('invalid-contents', fullBackupMessages.notABackup);
  }
  return {
    algorithm: 'argon2id',
    parallelism: value.parallelism,
    iterations: value.iterations,
    memoryKiB: value.memoryKiB,
  };
}

async function sha256(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const hasher = await createSHA256();
  hasher.init();
  for (const part of parts) hasher.update(part);
  return hasher.digest('binary');
}

function deriveBytes(passphrase: string, salt: Uint8Array, kdf: KdfParams): Promise<Uint8Array> {
  return argon2idKeyBytes(passphrase, salt, kdf);
}

function importAesKey(crypto: WebCryptoPort, bytes: Uint8Array): Promise<OpaqueCryptoKey> {
  return importRawKeyAndWipe(crypto, bytes, 'AES-GCM');
}

/** A new key for a new file, and what its header says about it. */
export async function newBackupKey(
  crypto: WebCryptoPort,
  passphrase: string,
  kdf: KdfParams = DEFAULT_KDF,
): Promise<{ key: OpaqueCryptoKey; encryption: FullBackupEncryption }> {
  checkPassphrase(passphrase);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const bytes = await deriveBytes(passphrase, salt, kdf);
  const keyCheck = encodeBase64(await sha256([CHECK_LABEL, bytes]));
  return {
    key: await importAesKey(crypto, bytes),
    encryption: { cipher: 'AES-256-GCM', kdf, salt: encodeBase64(salt), keyCheck },
  };
}

/** The key of an existing file, or 'wrong-passphrase'. */
export async function openBackupKey(
  crypto: WebCryptoPort,
  passphrase: string,
  encryption: FullBackupEncryption,
): Promise<OpaqueCryptoKey> {
  if (passphrase.length === 0) {
    throw new FullBackupError('needs-passphrase', fullBackupMessages.needsPassphrase);
  }
  checkPassphrase(passphrase);
  const kdf = usableKdf(encryption.kdf);
  // From the file: checked at run time whatever the type says.
  const given = encryption as Partial<Record<keyof FullBackupEncryption, unknown>>;
  if (typeof given.salt !== 'string' || typeof given.keyCheck !== 'string') {
    throw new FullBackupError('invalid-contents', fullBackupMessages.notABackup);
  }
  const salt = decodeBase64(given.salt);
  const expected = decodeBase64(given.keyCheck);
  if (salt === null || expected === null || salt.length < 8) {
    throw new FullBackupError('invalid-contents', fullBackupMessages.notABackup);
  }
  const bytes = await deriveBytes(passphrase, salt, kdf);
  const check = await sha256([CHECK_LABEL, bytes]);
  if (check.length !== expected.length || check.some((byte, index) => byte !== expected[index])) {
    bytes.fill(0);
    throw new FullBackupError('wrong-passphrase', fullBackupMessages.wrongPassphrase);
  }
  return importAesKey(crypto, bytes);
}

function associatedData(header: Uint8Array, index: number, last: boolean): Uint8Array<ArrayBuffer> {
  return concatBytes([
    encodeUtf8(`${FULL_BACKUP_FORMAT}|${FULL_BACKUP_VERSION}|${index}|${last ? 'last' : 'more'}|`),
    header,
  ]);
}

export async function sealChunk(
  crypto: WebCryptoPort,
  key: OpaqueCryptoKey,
  plaintext: Uint8Array,
  place: { header: Uint8Array; index: number; last: boolean },
): Promise<Uint8Array> {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await crypto.subtle.encrypt(
    {
      name: 'AES-GCM',
      iv: nonce,
      additionalData: associatedData(place.header, place.index, place.last),
      tagLength: 128,
    },
    key,
    new Uint8Array(plaintext),
  );
  return concatBytes([nonce, new Uint8Array(sealed)]);
}

export async function openChunk(
  crypto: WebCryptoPort,
  key: OpaqueCryptoKey,
  sealed: Uint8Array,
  place: { header: Uint8Array; index: number; last: boolean },
): Promise<Uint8Array> {
  const tampered = () => new FullBackupError('tampered', fullBackupMessages.tampered);
  if (sealed.length < NONCE_BYTES + 16) throw tampered();
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: sealed.slice(0, NONCE_BYTES),
          additionalData: associatedData(place.header, place.index, place.last),
          tagLength: 128,
        },
        key,
        sealed.slice(NONCE_BYTES),
      ),
    );
  } catch {
    throw tampered();
  }
}

/** SHA-256 over the parts, for the file's trailing digest. */
export async function digestOf(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  return sha256(parts);
}
