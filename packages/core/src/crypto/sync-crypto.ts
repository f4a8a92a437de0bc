import { argon2id, argon2Verify } from 'hash-wasm';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
import { importRawKeyAndWipe } from './web-crypto.ts';

// End-to-end encryption of what syncs (PRODUCT.md, Sync): a random AES-256-GCM data key
// encrypts every message with a fresh nonce; the data key is wrapped (AES-KW) by a key derived
// from the cloud password with Argon2id; a separate Argon2id verifier with its own salt
// (`passwordHash`) lets a device tell a wrong password from a tampered key without asking the
// server anything. The server stores the wrapped key, the salts, the parameters and the
// verifier; never a key, never the password.
//
// Keys handed back to the app are non-extractable: a script that reads the device's storage
// gets a handle it can use on this origin, not key bytes it can carry away. Only a password
// change unwraps the data key as extractable, in memory, to wrap it again.

export interface KdfParams {
  readonly algorithm: 'argon2id';
  /** Memory in KiB. */
  readonly memoryKiB: number;
  readonly iterations: number;
  readonly parallelism: number;
}

/** OWASP's first Argon2id choice is 19 MiB, t=2; Docket spends more: 64 MiB, t=3 (~170 ms). */
export const DEFAULT_KDF: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: 64 * 1024,
  iterations: 3,
  parallelism: 1,
};

/** What the user's settings on the server carry for the cloud password; opaque to the server. */
export interface CloudKeyMaterial {
  readonly kdf: KdfParams;
  /** Salt of the key-encryption key, base64. */
  readonly kekSalt: string;
  /** The Argon2id verifier (PHC string with its own salt): its presence means a password exists. */
  readonly passwordHash: string;
  /** The data key wrapped by the key-encryption key (AES-KW), base64. */
  readonly wrappedDataKey: string;
  /** Which data key: a reset makes a new one with the next epoch. */
  readonly keyEpoch: number;
}

export interface UnlockedKeys {
  readonly dataKey: OpaqueCryptoKey;
  readonly keyEncryptionKey: OpaqueCryptoKey;
  /**
   * The key-encryption key's 32 bytes, a copy the caller owns: what a device keeps, sealed in
   * its account's store (never in clear), to open its keys after a restart without asking for
   * the password (`openCloudKeysWithBytes`). The caller wipes it once it is sealed.
   */
  readonly keyEncryptionKeyBytes: Uint8Array;
}

export type SyncCryptoErrorCode = 'wrong-password' | 'tampered' | 'invalid-input';

export class SyncCryptoError extends Error {
  constructor(
    readonly code: SyncCryptoErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SyncCryptoError';
  }
}

const SALT_BYTES = 16;
const NONCE_BYTES = 12;
const ENVELOPE_VERSION = 1;
const TAG_BYTES = 16;
/** What sealing adds to the plaintext (version byte, nonce, tag): a sealed message's size is known before sealing. */
export const SEALED_OVERHEAD_BYTES = 1 + NONCE_BYTES + TAG_BYTES;
const MIN_PASSWORD_LENGTH = 1;
const MAX_PASSWORD_LENGTH = 1024;

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new SyncCryptoError(
      'invalid-input',
      `The cloud password must be 1 to ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
}

function checkKdf(kdf: KdfParams): void {
  const whole = (n: number, min: number, max: number) =>
    Number.isInteger(n) && n >= min && n <= max;
  // Parameters arrive from the server: checked at run time whatever their type says.
  if (
    (kdf.algorithm as string) !== 'argon2id' ||
    !whole(kdf.parallelism, 1, 16) ||
    !whole(kdf.iterations, 1, 64) ||
    !whole(kdf.memoryKiB, 8 * kdf.parallelism, 4 * 1024 * 1024)
  ) {
    throw new SyncCryptoError('invalid-input', 'The key derivation parameters are not usable.');
  }
}

function randomBytes(crypto: WebCryptoPort, length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

function bytesFromBase64(value: string, what: string): Uint8Array<ArrayBuffer> {
  const bytes = decodeBase64(value);
  if (bytes === null) throw new SyncCryptoError('tampered', `The ${what} is not valid base64.`);
  return new Uint8Array(bytes);
}

async function deriveKeyEncryptionKey(
  crypto: WebCryptoPort,
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  kdf: KdfParams,
): Promise<{ key: OpaqueCryptoKey; bytes: Uint8Array }> {
  checkKdf(kdf);
  const bytes = await argon2idKeyBytes(password, salt, kdf);
  const kept = new Uint8Array(bytes);
  return { key: await importRawKeyAndWipe(crypto, bytes, 'AES-KW'), bytes: kept };
}

/** The 32 key bytes Argon2id derives from a password or passphrase with these parameters
 *  (the cloud password's key-encryption key here, a full backup's key in full-backup-crypto). */
export function argon2idKeyBytes(
  password: string,
  salt: Uint8Array,
  kdf: KdfParams,
): Promise<Uint8Array> {
  return argon2id({
    password,
    salt,
    parallelism: kdf.parallelism,
    iterations: kdf.iterations,
    memorySize: kdf.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
}

async function makeVerifier(
  crypto: WebCryptoPort,
  password: string,
  kdf: KdfParams,
): Promise<string> {
  return argon2id({
    password,
    salt: randomBytes(crypto, SALT_BYTES),
    parallelism: kdf.parallelism,
    iterations: kdf.iterations,
    memorySize: kdf.memoryKiB,
    hashLength: 32,
    outputType: 'encoded',
  });
}

async function wrapFor(
  crypto: WebCryptoPort,
  extractableDataKey: OpaqueCryptoKey,
  password: string,
  kdf: KdfParams,
): Promise<{
  kekSalt: string;
  wrappedDataKey: string;
  keyEncryptionKey: OpaqueCryptoKey;
  keyEncryptionKeyBytes: Uint8Array;
}> {
  const salt = randomBytes(crypto, SALT_BYTES);
  const derived = await deriveKeyEncryptionKey(crypto, password, salt, kdf);
  const wrapped = await crypto.subtle.wrapKey('raw', extractableDataKey, derived.key, {
    name: 'AES-KW',
  });
  return {
    kekSalt: encodeBase64(salt),
    wrappedDataKey: encodeBase64(new Uint8Array(wrapped)),
    keyEncryptionKey: derived.key,
    keyEncryptionKeyBytes: derived.bytes,
  };
}

async function unwrap(
  crypto: WebCryptoPort,
  material: CloudKeyMaterial,
  keyEncryptionKey: OpaqueCryptoKey,
  extractable: boolean,
): Promise<OpaqueCryptoKey> {
  try {
    return await crypto.subtle.unwrapKey(
      'raw',
      bytesFromBase64(material.wrappedDataKey, 'wrapped data key'),
      keyEncryptionKey,
      { name: 'AES-KW' },
      { name: 'AES-GCM', length: 256 },
      extractable,
      ['encrypt', 'decrypt'],
    );
  } catch (error) {
    if (error instanceof SyncCryptoError) throw error;
    // The verifier accepted the password, so a key that does not unwrap was changed.
    throw new SyncCryptoError(
      'tampered',
      'The stored data key does not open with the cloud password: it was changed or damaged.',
    );
  }
}

async function withUsableKey(
  crypto: WebCryptoPort,
  extractableDataKey: OpaqueCryptoKey,
  password: string,
  kdf: KdfParams,
  keyEpoch: number,
): Promise<{ material: CloudKeyMaterial; keys: UnlockedKeys }> {
  const [wrapped, passwordHash] = await Promise.all([
    wrapFor(crypto, extractableDataKey, password, kdf),
    makeVerifier(crypto, password, kdf),
  ]);
  const material: CloudKeyMaterial = {
    kdf,
    kekSalt: wrapped.kekSalt,
    passwordHash,
    wrappedDataKey: wrapped.wrappedDataKey,
    keyEpoch,
  };
  // Unwrapped again as non-extractable: that is the handle the device keeps.
  const dataKey = await unwrap(crypto, material, wrapped.keyEncryptionKey, false);
  return {
    material,
    keys: {
      dataKey,
      keyEncryptionKey: wrapped.keyEncryptionKey,
      keyEncryptionKeyBytes: wrapped.keyEncryptionKeyBytes,
    },
  };
}

/** A first cloud password, or a reset: a new random data key under a new epoch. */
export async function createCloudKeys(
  crypto: WebCryptoPort,
  password: string,
  keyEpoch: number,
  kdf: KdfParams = DEFAULT_KDF,
): Promise<{ material: CloudKeyMaterial; keys: UnlockedKeys }> {
  checkPassword(password);
  checkKdf(kdf);
  if (!Number.isInteger(keyEpoch) || keyEpoch < 0) {
    throw new SyncCryptoError('invalid-input', 'A key epoch is a whole number from 0.');
  }
  const dataKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ]);
  return withUsableKey(crypto, dataKey, password, kdf, keyEpoch);
}

/** Whether the password matches the verifier; false for a malformed verifier too. */
export async function verifyCloudPassword(
  password: string,
  passwordHash: string,
): Promise<boolean> {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) return false;
  try {
    return await argon2Verify({ password, hash: passwordHash });
  } catch {
    return false;
  }
}

/** Opens the data key with the cloud password; a wrong password and a tampered key differ. */
export async function unlockCloudKeys(
  crypto: WebCryptoPort,
  password: string,
  material: CloudKeyMaterial,
): Promise<UnlockedKeys> {
  if (!(await verifyCloudPassword(password, material.passwordHash))) {
    throw new SyncCryptoError('wrong-password', 'That is not the cloud password.');
  }
  const derived = await deriveKeyEncryptionKey(
    crypto,
    password,
    bytesFromBase64(material.kekSalt, 'key salt'),
    material.kdf,
  );
  const dataKey = await unwrap(crypto, material, derived.key, false);
  return { dataKey, keyEncryptionKey: derived.key, keyEncryptionKeyBytes: derived.bytes };
}

/**
 * A device's keys opened again from the key-encryption key's bytes it kept sealed (no password,
 * no Argon2id): the bytes are wiped, the handles are non-extractable. Bytes that do not open
 * this material's data key are refused as tampered.
 */
export async function openCloudKeysWithBytes(
  crypto: WebCryptoPort,
  material: CloudKeyMaterial,
  keyEncryptionKeyBytes: Uint8Array,
): Promise<Omit<UnlockedKeys, 'keyEncryptionKeyBytes'>> {
  if (keyEncryptionKeyBytes.length !== 32) {
    keyEncryptionKeyBytes.fill(0);
    throw new SyncCryptoError('invalid-input', 'A key-encryption key is 32 bytes.');
  }
  const keyEncryptionKey = await importRawKeyAndWipe(crypto, keyEncryptionKeyBytes, 'AES-KW');
  const dataKey = await unwrap(crypto, material, keyEncryptionKey, false);
  return { dataKey, keyEncryptionKey };
}

/**
 * A password change: the same data key (so nothing needs re-encrypting, and the epoch stays)
 * wrapped under the new password, with new salts and a new verifier.
 */
export async function changeCloudPassword(
  crypto: WebCryptoPort,
  current: { material: CloudKeyMaterial; keyEncryptionKey: OpaqueCryptoKey },
  newPassword: string,
  kdf: KdfParams = current.material.kdf,
): Promise<{ material: CloudKeyMaterial; keys: UnlockedKeys }> {
  checkPassword(newPassword);
  checkKdf(kdf);
  const extractable = await unwrap(crypto, current.material, current.keyEncryptionKey, true);
  return withUsableKey(crypto, extractable, newPassword, kdf, current.material.keyEpoch);
}

/** What a message is bound to: moved to another user, epoch or batch, it no longer opens. */
export interface EnvelopeContext {
  readonly userId: string;
  readonly epoch: number;
  readonly batchId: string;
}

/** What a sealed message is bound to, in order (a user, an epoch, a batch, a part…). */
export type SealBinding = readonly (string | number)[];

function envelopeBinding(context: EnvelopeContext): SealBinding {
  return [context.userId, context.epoch, context.batchId];
}

function associatedData(binding: SealBinding): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encodeUtf8(JSON.stringify([ENVELOPE_VERSION, ...binding])));
}

/** Encrypts one message: base64 of version byte, 12-byte nonce, ciphertext with its tag. */
export async function sealEnvelope(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  plaintext: Uint8Array,
  context: EnvelopeContext,
): Promise<string> {
  return encodeBase64(await sealBytes(crypto, dataKey, plaintext, context));
}

/** Encrypts bytes as `sealEnvelope` does, as bytes (blobs travel raw). */
export function sealBytes(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  plaintext: Uint8Array,
  context: EnvelopeContext,
): Promise<Uint8Array<ArrayBuffer>> {
  return sealBound(crypto, dataKey, plaintext, envelopeBinding(context));
}

/**
 * Encrypts bytes bound to what `binding` names (associated data): version byte, a fresh 12-byte
 * nonce, ciphertext with its tag. Backups and links bind their own things.
 */
export function sealBound(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  plaintext: Uint8Array,
  binding: SealBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  return sealWithNonce(crypto, dataKey, randomBytes(crypto, NONCE_BYTES), plaintext, binding);
}

/**
 * The secret behind `sealBytesConvergent`'s nonces, made from the data key (so only a holder of
 * the key can make it, and it changes with the key epoch). It is the encryption of 32 zero bytes
 * under a nonce of zeros that nothing else uses (random nonces meet it with odds of 2^-96) and
 * its own associated data; it never leaves the device.
 */
export async function convergentNonceSecret(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = await crypto.subtle.encrypt(
    {
      name: 'AES-GCM',
      iv: new Uint8Array(NONCE_BYTES),
      additionalData: new Uint8Array(encodeUtf8('docket-convergent-nonce-secret')),
      tagLength: 128,
    },
    dataKey,
    new Uint8Array(32),
  );
  return new Uint8Array(stream.slice(0, 32));
}

/**
 * Seals as `sealBytes` does, except that the nonce is derived from the plaintext, the context
 * and `secret` (convergentNonceSecret) instead of drawn at random, in the manner of a synthetic
 * IV: the same bytes sealed twice under the same key and context are the same ciphertext, so
 * their content address is the same and a second upload can be skipped. Different plaintexts
 * get unrelated nonces, and without the secret nobody can tell what plaintext a nonce came from.
 * What it shows beyond `sealBytes`: that two sealed messages hold the same bytes.
 */
export async function sealBytesConvergent(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  secret: Uint8Array<ArrayBuffer>,
  plaintext: Uint8Array,
  context: EnvelopeContext,
): Promise<Uint8Array<ArrayBuffer>> {
  const binding = envelopeBinding(context);
  const plainDigest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new Uint8Array(plaintext)),
  );
  const data = associatedData(binding);
  const material = new Uint8Array(secret.length + plainDigest.length + data.length);
  material.set(secret, 0);
  material.set(plainDigest, secret.length);
  material.set(data, secret.length + plainDigest.length);
  const nonce = new Uint8Array(
    (await crypto.subtle.digest('SHA-256', material)).slice(0, NONCE_BYTES),
  );
  return sealWithNonce(crypto, dataKey, nonce, plaintext, binding);
}

async function sealWithNonce(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  nonce: Uint8Array<ArrayBuffer>,
  plaintext: Uint8Array,
  binding: SealBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: associatedData(binding), tagLength: 128 },
    dataKey,
    new Uint8Array(plaintext),
  );
  const sealed = new Uint8Array(1 + NONCE_BYTES + ciphertext.byteLength);
  sealed[0] = ENVELOPE_VERSION;
  sealed.set(nonce, 1);
  sealed.set(new Uint8Array(ciphertext), 1 + NONCE_BYTES);
  return sealed;
}

/** Decrypts one message; anything changed (bytes, user, epoch, batch) is refused as tampered. */
export async function openEnvelope(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  sealed: string,
  context: EnvelopeContext,
): Promise<Uint8Array> {
  return openBytes(crypto, dataKey, bytesFromBase64(sealed, 'message'), context);
}

/** Decrypts what `sealBytes` made; anything changed is refused as tampered. */
export function openBytes(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  bytes: Uint8Array<ArrayBuffer>,
  context: EnvelopeContext,
): Promise<Uint8Array<ArrayBuffer>> {
  return openBound(crypto, dataKey, bytes, envelopeBinding(context));
}

/** Decrypts what `sealBound` made with the same binding; anything else is refused as tampered. */
export async function openBound(
  crypto: WebCryptoPort,
  dataKey: OpaqueCryptoKey,
  bytes: Uint8Array,
  binding: SealBinding,
): Promise<Uint8Array<ArrayBuffer>> {
  if (bytes.length < SEALED_OVERHEAD_BYTES || bytes[0] !== ENVELOPE_VERSION) {
    throw new SyncCryptoError('tampered', 'A synced message is not in a form this app can open.');
  }
  try {
    const plaintext = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: new Uint8Array(bytes.slice(1, 1 + NONCE_BYTES)),
        additionalData: associatedData(binding),
        tagLength: 128,
      },
      dataKey,
      new Uint8Array(bytes.slice(1 + NONCE_BYTES)),
    );
    return new Uint8Array(plaintext);
  } catch {
    throw new SyncCryptoError(
      'tampered',
      'A synced message failed its integrity check: it was changed, or belongs elsewhere.',
    );
  }
}
