import { describe, expect, it } from 'vitest';
import { BIP39_ENGLISH_WORDS } from './bip39-english-words.ts';
import {
  createMemberKeys,
  importMemberPublicKey,
  MEMBER_FINGERPRINT_WORDS,
  MEMBER_PUBLIC_KEY_BYTES,
  memberKeyFingerprint,
  unwrapMemberPrivateKey,
  WorkspaceKeyError,
  type StoredMemberKeys,
} from './member-keys.ts';
import { createCloudKeys, unlockCloudKeys, type KdfParams } from './sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';

// Node's WebCrypto is the browser's API. A cloud data key is an AES-256-GCM key; most tests make
// one directly, one goes through the cloud password (small Argon2id parameters, as in
// sync-crypto.test.ts) to show the key `unlockCloudKeys` gives is the one that opens.
const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
const quickKdf: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: 256,
  iterations: 1,
  parallelism: 1,
};

function cloudDataKey(): Promise<OpaqueCryptoKey> {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function expectCode(promise: Promise<unknown>, code: WorkspaceKeyError['code']) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WorkspaceKeyError);
  expect((error as WorkspaceKeyError).code).toBe(code);
}

function flipped(bytes: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
  const copy = bytes.slice();
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
}

describe('member keys: made', () => {
  it('are a P-256 public key of 65 bytes and a private key the device cannot export', async () => {
    const { stored, keys } = await createMemberKeys(webCrypto, await cloudDataKey(), 'alice');
    expect(stored.publicKey).toHaveLength(MEMBER_PUBLIC_KEY_BYTES);
    expect(stored.publicKey[0]).toBe(0x04);
    expect(keys.userId).toBe('alice');
    expect(keys.publicKey).toEqual(stored.publicKey);
    expect(keys.privateKey.extractable).toBe(false);
    expect(keys.privateKey.usages).toEqual(['deriveBits']);
    await expect(webCrypto.subtle.exportKey('pkcs8', keys.privateKey)).rejects.toThrow();
  });

  it('are new each time', async () => {
    const key = await cloudDataKey();
    const a = await createMemberKeys(webCrypto, key, 'alice');
    const b = await createMemberKeys(webCrypto, key, 'alice');
    expect(a.stored.publicKey).not.toEqual(b.stored.publicKey);
    expect(a.stored.wrappedPrivateKey).not.toEqual(b.stored.wrappedPrivateKey);
  });

  it('need a user id', async () => {
    await expectCode(createMemberKeys(webCrypto, await cloudDataKey(), ''), 'invalid-input');
  });
});

describe('member keys: wrapped under the cloud data key and unwrapped', () => {
  it('open on another device that unlocked the cloud password', async () => {
    const first = await createCloudKeys(webCrypto, 'correct horse', 0, quickKdf);
    const { stored } = await createMemberKeys(webCrypto, first.keys.dataKey, 'alice');
    // What the server keeps holds no private key bytes: the sealed form only.
    expect(stored.wrappedPrivateKey.length).toBeGreaterThan(100);
    const second = await unlockCloudKeys(webCrypto, 'correct horse', first.material);
    const opened = await unwrapMemberPrivateKey(webCrypto, stored, second.dataKey, 'alice');
    expect(opened.privateKey.extractable).toBe(false);
    expect(opened.publicKey).toEqual(stored.publicKey);
  });

  it('refuse another cloud data key (a wrong key)', async () => {
    const { stored } = await createMemberKeys(webCrypto, await cloudDataKey(), 'alice');
    await expectCode(
      unwrapMemberPrivateKey(webCrypto, stored, await cloudDataKey(), 'alice'),
      'tampered',
    );
  });

  it('refuse another user’s binding: a wrapped key copied to another account', async () => {
    const key = await cloudDataKey();
    const { stored } = await createMemberKeys(webCrypto, key, 'alice');
    await expectCode(unwrapMemberPrivateKey(webCrypto, stored, key, 'mallory'), 'tampered');
  });

  it('refuse a swapped public key beside the wrapped private key', async () => {
    const key = await cloudDataKey();
    const alice = await createMemberKeys(webCrypto, key, 'alice');
    const other = await createMemberKeys(webCrypto, key, 'alice');
    const swapped: StoredMemberKeys = {
      publicKey: other.stored.publicKey,
      wrappedPrivateKey: alice.stored.wrappedPrivateKey,
    };
    await expectCode(unwrapMemberPrivateKey(webCrypto, swapped, key, 'alice'), 'tampered');
  });

  it('refuse changed bytes, and a public key that is not a P-256 point', async () => {
    const key = await cloudDataKey();
    const { stored } = await createMemberKeys(webCrypto, key, 'alice');
    const last = stored.wrappedPrivateKey.length - 1;
    for (const index of [0, 1, 20, last]) {
      const changed = { ...stored, wrappedPrivateKey: flipped(stored.wrappedPrivateKey, index) };
      await expectCode(unwrapMemberPrivateKey(webCrypto, changed, key, 'alice'), 'tampered');
    }
    const offCurve = { ...stored, publicKey: flipped(stored.publicKey, 40) };
    await expectCode(unwrapMemberPrivateKey(webCrypto, offCurve, key, 'alice'), 'invalid-input');
    const short = { ...stored, publicKey: stored.publicKey.slice(0, 33) };
    await expectCode(unwrapMemberPrivateKey(webCrypto, short, key, 'alice'), 'invalid-input');
  });
});

describe('member key fingerprints', () => {
  it('are six words of the BIP-39 list, the same for the same key and user', async () => {
    const { stored } = await createMemberKeys(webCrypto, await cloudDataKey(), 'bob');
    const phrase = await memberKeyFingerprint(webCrypto, stored.publicKey, 'bob');
    const words = phrase.split('-');
    expect(words).toHaveLength(MEMBER_FINGERPRINT_WORDS);
    for (const word of words) expect(BIP39_ENGLISH_WORDS).toContain(word);
    expect(await memberKeyFingerprint(webCrypto, stored.publicKey.slice(), 'bob')).toBe(phrase);
  });

  it('differ for a swapped public key: what the owner is shown is not what the member reads', async () => {
    const key = await cloudDataKey();
    const bob = await createMemberKeys(webCrypto, key, 'bob');
    // The server lists a key pair of its own as Bob's.
    const impostor = await createMemberKeys(webCrypto, key, 'bob');
    const onBobsScreen = await memberKeyFingerprint(webCrypto, bob.keys.publicKey, 'bob');
    const onOwnersScreen = await memberKeyFingerprint(webCrypto, impostor.stored.publicKey, 'bob');
    expect(onOwnersScreen).not.toBe(onBobsScreen);
  });

  it('differ for another user id with the same key', async () => {
    const { stored } = await createMemberKeys(webCrypto, await cloudDataKey(), 'bob');
    expect(await memberKeyFingerprint(webCrypto, stored.publicKey, 'carol')).not.toBe(
      await memberKeyFingerprint(webCrypto, stored.publicKey, 'bob'),
    );
  });

  it('spread over the list: 40 keys give 40 phrases and use many words', async () => {
    const key = await cloudDataKey();
    const phrases = new Set<string>();
    const words = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const { stored } = await createMemberKeys(webCrypto, key, 'bob');
      const phrase = await memberKeyFingerprint(webCrypto, stored.publicKey, 'bob');
      phrases.add(phrase);
      for (const word of phrase.split('-')) words.add(word);
    }
    expect(phrases.size).toBe(40);
    // 240 draws from 2048 words: about 227 distinct expected; a stuck bit would show far fewer.
    expect(words.size).toBeGreaterThan(180);
  });

  it('refuse a key that is not a P-256 point', async () => {
    const { stored } = await createMemberKeys(webCrypto, await cloudDataKey(), 'bob');
    await expectCode(
      memberKeyFingerprint(webCrypto, flipped(stored.publicKey, 40), 'bob'),
      'invalid-input',
    );
    await expectCode(importMemberPublicKey(webCrypto, new Uint8Array(65)), 'invalid-input');
  });
});
