import { BIP39_ENGLISH_WORDS } from './bip39-english-words.ts';
import { encodeBase64 } from '../encoding/base64.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { openBound, sealBound, type SealBinding } from './sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
import { importEcdhPrivateKeyAndWipe } from './web-crypto.ts';

// An account's member key pair, for team workspaces (issue 39): ECDH on P-256, made on the
// device with WebCrypto. The public key (65 bytes, uncompressed) goes to the server beside the
// account, so a workspace's owner can seal the workspace key to it (workspace-keys.ts). The
// private key leaves the device only sealed under the account's cloud data key (the key
// `unlockCloudKeys` gives), bound to the user id and to the public key it belongs with, so it
// rides sync like every other secret and the server holds bytes it cannot open. Opened again, it
// is a non-extractable handle: nothing on the device can read its bytes back out.
//
// A password change keeps the cloud data key, so the wrapped private key stays good; a reset
// makes a new data key, after which the old private key cannot be opened and the account needs
// a new pair (and its workspaces' owners must seal their keys to it again).
//
// The server could hand an owner a public key of its own instead of a member's. The fingerprint
// (`memberKeyFingerprint`) is what catches it: a phrase of six words from the key and the user
// id, shown to both people, which differs for any other key (Bitwarden's fingerprint phrase).

/** What a workspace key operation refused: changed, not for this key, or missing. */
export type WorkspaceKeyErrorCode = 'tampered' | 'invalid-input' | 'missing-key-version';

export class WorkspaceKeyError extends Error {
  constructor(
    readonly code: WorkspaceKeyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceKeyError';
  }
}

/** An uncompressed P-256 point: 0x04, then x and y of 32 bytes each. */
export const MEMBER_PUBLIC_KEY_BYTES = 65;
/** Words in a fingerprint phrase: 6 × 11 bits = 66 bits. */
export const MEMBER_FINGERPRINT_WORDS = 6;

const P256: { name: 'ECDH'; namedCurve: 'P-256' } = { name: 'ECDH', namedCurve: 'P-256' };
const BITS_PER_WORD = 11;
const FINGERPRINT_SALT = 'docket-member-key-fingerprint/1';

/** A member's keys as a device holds them: the private key is a non-extractable handle. */
export interface MemberKeyPair {
  readonly userId: string;
  readonly publicKey: Uint8Array<ArrayBuffer>;
  readonly privateKey: OpaqueCryptoKey;
}

/** What the server keeps of a member's keys: the public key, and the private key sealed. */
export interface StoredMemberKeys {
  readonly publicKey: Uint8Array<ArrayBuffer>;
  readonly wrappedPrivateKey: Uint8Array<ArrayBuffer>;
}

function checkId(value: string, what: string): void {
  if (value.length === 0) {
    throw new WorkspaceKeyError('invalid-input', `A ${what} is needed.`);
  }
}

function privateKeyBinding(userId: string, publicKey: Uint8Array): SealBinding {
  return ['docket-member-private-key', userId, encodeBase64(publicKey)];
}

/**
 * A member's public key as WebCrypto's, refused unless it is a point of P-256 (WebCrypto checks
 * the point, so a key off the curve never reaches a key agreement).
 */
export async function importMemberPublicKey(
  crypto: WebCryptoPort,
  publicKey: Uint8Array,
): Promise<OpaqueCryptoKey> {
  if (publicKey.length !== MEMBER_PUBLIC_KEY_BYTES || publicKey[0] !== 0x04) {
    throw new WorkspaceKeyError('invalid-input', 'A member key is 65 bytes of a P-256 point.');
  }
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(publicKey), P256, true, []);
  } catch {
    throw new WorkspaceKeyError('invalid-input', 'A member key is not a point of P-256.');
  }
}

/**
 * A new key pair for an account: the public key, the private key sealed under the cloud data key
 * (for the server), and the private key as a non-extractable handle (for this device). The
 * extractable key it was made as never leaves this function, and its exported bytes are wiped.
 */
export async function createMemberKeys(
  crypto: WebCryptoPort,
  cloudDataKey: OpaqueCryptoKey,
  userId: string,
): Promise<{ stored: StoredMemberKeys; keys: MemberKeyPair }> {
  checkId(userId, 'user id');
  const pair = await crypto.subtle.generateKey(P256, true, ['deriveBits']);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  let wrappedPrivateKey: Uint8Array<ArrayBuffer>;
  try {
    wrappedPrivateKey = await sealBound(
      crypto,
      cloudDataKey,
      pkcs8,
      privateKeyBinding(userId, publicKey),
    );
  } finally {
    pkcs8.fill(0);
  }
  const stored: StoredMemberKeys = { publicKey, wrappedPrivateKey };
  // Opened again as the device will open it: the handle kept is the non-extractable one.
  return { stored, keys: await unwrapMemberPrivateKey(crypto, stored, cloudDataKey, userId) };
}

/**
 * Opens a member's private key with the cloud data key. Another data key, another user's id, a
 * public key other than the one it was sealed with, or changed bytes are refused as tampered.
 */
export async function unwrapMemberPrivateKey(
  crypto: WebCryptoPort,
  stored: StoredMemberKeys,
  cloudDataKey: OpaqueCryptoKey,
  userId: string,
): Promise<MemberKeyPair> {
  checkId(userId, 'user id');
  await importMemberPublicKey(crypto, stored.publicKey);
  let pkcs8: Uint8Array;
  try {
    pkcs8 = await openBound(
      crypto,
      cloudDataKey,
      stored.wrappedPrivateKey,
      privateKeyBinding(userId, stored.publicKey),
    );
  } catch {
    throw new WorkspaceKeyError(
      'tampered',
      'The member key does not open with this account’s key: it was changed, or is another’s.',
    );
  }
  let privateKey: OpaqueCryptoKey;
  try {
    privateKey = await importEcdhPrivateKeyAndWipe(crypto, pkcs8);
  } catch {
    throw new WorkspaceKeyError('tampered', 'The member key is not a P-256 private key.');
  }
  return { userId, publicKey: new Uint8Array(stored.publicKey), privateKey };
}

/**
 * The phrase two people compare to know that the public key one holds for the other is the
 * other's own: six words of BIP-39's English list (66 bits) from HKDF-SHA-256 over the public key,
 * with the user id as its info, so the same key listed under another account reads differently.
 */
export async function memberKeyFingerprint(
  crypto: WebCryptoPort,
  publicKey: Uint8Array,
  userId: string,
): Promise<string> {
  checkId(userId, 'user id');
  await importMemberPublicKey(crypto, publicKey);
  const material = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(publicKey),
    { name: 'HKDF' },
    false,
    ['deriveBits'],
  );
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(encodeUtf8(FINGERPRINT_SALT)),
        info: new Uint8Array(encodeUtf8(userId)),
      },
      material,
      MEMBER_FINGERPRINT_WORDS * BITS_PER_WORD + 6, // 72 bits: whole bytes
    ),
  );
  const words: string[] = [];
  for (let i = 0; i < MEMBER_FINGERPRINT_WORDS; i++) {
    let index = 0;
    for (let bit = i * BITS_PER_WORD; bit < (i + 1) * BITS_PER_WORD; bit++) {
      const byte = bits[bit >> 3] ?? 0;
      index = (index << 1) | ((byte >> (7 - (bit & 7))) & 1);
    }
    words.push(BIP39_ENGLISH_WORDS[index] ?? '');
  }
  return words.join('-');
}
