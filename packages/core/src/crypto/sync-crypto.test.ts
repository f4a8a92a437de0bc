import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import {
  changeCloudPassword,
  convergentNonceSecret,
  createCloudKeys,
  openCloudKeysWithBytes,
  openBytes,
  openEnvelope,
  sealBytesConvergent,
  sealEnvelope,
  SyncCryptoError,
  unlockCloudKeys,
  verifyCloudPassword,
  type KdfParams,
} from './sync-crypto.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import type { WebCryptoPort } from './web-crypto.ts';

// Node's WebCrypto is the browser's API; Argon2id runs with small parameters to keep tests quick
// (the production parameters are a constant, DEFAULT_KDF).
const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
const quickKdf: KdfParams = {
  algorithm: 'argon2id',
  memoryKiB: 256,
  iterations: 1,
  parallelism: 1,
};
const context = { userId: 'user-1', epoch: 0, batchId: 'batch-1' };
const text = encodeUtf8;
const read = decodeUtf8;

async function expectCode(promise: Promise<unknown>, code: SyncCryptoError['code']) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SyncCryptoError);
  expect((error as SyncCryptoError).code).toBe(code);
  return error as SyncCryptoError;
}

describe('cloud keys', () => {
  it('seal with one device and open with another that knows the password', async () => {
    const first = await createCloudKeys(webCrypto, 'correct horse', 0, quickKdf);
    const sealed = await sealEnvelope(webCrypto, first.keys.dataKey, text('tag: Housing'), context);
    const second = await unlockCloudKeys(webCrypto, 'correct horse', first.material);
    expect(read(await openEnvelope(webCrypto, second.dataKey, sealed, context))).toBe(
      'tag: Housing',
    );
  });

  it('keeps keys on the device non-extractable', async () => {
    const { keys, material } = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    expect(keys.dataKey.extractable).toBe(false);
    expect(keys.keyEncryptionKey.extractable).toBe(false);
    const unlocked = await unlockCloudKeys(webCrypto, 'pw', material);
    expect(unlocked.dataKey.extractable).toBe(false);
  });

  it("opens a device's keys again from the key-encryption key's bytes, and wipes them", async () => {
    const made = await createCloudKeys(webCrypto, 'correct horse', 0, quickKdf);
    const sealed = await sealEnvelope(webCrypto, made.keys.dataKey, text('Why: Housing'), context);
    const kept = new Uint8Array(made.keys.keyEncryptionKeyBytes);
    const reopened = await openCloudKeysWithBytes(webCrypto, made.material, kept);
    expect(kept.every((byte) => byte === 0)).toBe(true);
    expect(reopened.dataKey.extractable).toBe(false);
    expect(reopened.keyEncryptionKey.extractable).toBe(false);
    expect(read(await openEnvelope(webCrypto, reopened.dataKey, sealed, context))).toBe(
      'Why: Housing',
    );
    // Unlocked with the password, the same bytes come back.
    const unlocked = await unlockCloudKeys(webCrypto, 'correct horse', made.material);
    expect(unlocked.keyEncryptionKeyBytes).toEqual(made.keys.keyEncryptionKeyBytes);
  });

  it("refuses another password's key-encryption key bytes, and bytes of the wrong length", async () => {
    const made = await createCloudKeys(webCrypto, 'correct horse', 0, quickKdf);
    const other = await createCloudKeys(webCrypto, 'battery staple', 0, quickKdf);
    await expectCode(
      openCloudKeysWithBytes(webCrypto, made.material, other.keys.keyEncryptionKeyBytes),
      'tampered',
    );
    const short = new Uint8Array(16).fill(7);
    await expectCode(openCloudKeysWithBytes(webCrypto, made.material, short), 'invalid-input');
    expect(short.every((byte) => byte === 0)).toBe(true);
  });

  it('stores no password and no key bytes in the material the server keeps', async () => {
    const { material } = await createCloudKeys(webCrypto, 'a very secret phrase', 3, quickKdf);
    expect(JSON.stringify(material)).not.toContain('a very secret phrase');
    expect(material.keyEpoch).toBe(3);
    expect(material.passwordHash).toMatch(/^\$argon2id\$/);
    // AES-KW of a 32-byte key is 40 bytes.
    expect(decodeBase64(material.wrappedDataKey)).toHaveLength(40);
  });

  it('tells a wrong password from a tampered key', async () => {
    const { material } = await createCloudKeys(webCrypto, 'right', 0, quickKdf);
    const wrong = await expectCode(unlockCloudKeys(webCrypto, 'wrong', material), 'wrong-password');
    expect(wrong.message).toBe('That is not the cloud password.');
    const bytes = decodeBase64(material.wrappedDataKey) ?? new Uint8Array();
    bytes[5] = (bytes[5] ?? 0) ^ 1;
    const tampered = { ...material, wrappedDataKey: encodeBase64(bytes) };
    await expectCode(unlockCloudKeys(webCrypto, 'right', tampered), 'tampered');
    await expectCode(
      unlockCloudKeys(webCrypto, 'right', { ...material, kekSalt: 'AAAAAAAAAAAAAAAAAAAAAA==' }),
      'tampered',
    );
  });

  it('verifies the password against the verifier, and refuses a malformed verifier', async () => {
    const { material } = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    expect(await verifyCloudPassword('pw', material.passwordHash)).toBe(true);
    expect(await verifyCloudPassword('pW', material.passwordHash)).toBe(false);
    expect(await verifyCloudPassword('pw', 'not a hash')).toBe(false);
    expect(await verifyCloudPassword('', material.passwordHash)).toBe(false);
  });

  it('changes the password without changing the data key or the epoch', async () => {
    const first = await createCloudKeys(webCrypto, 'old', 2, quickKdf);
    const sealed = await sealEnvelope(webCrypto, first.keys.dataKey, text('kept'), {
      ...context,
      epoch: 2,
    });
    const changed = await changeCloudPassword(
      webCrypto,
      { material: first.material, keyEncryptionKey: first.keys.keyEncryptionKey },
      'new',
    );
    expect(changed.material.keyEpoch).toBe(2);
    expect(changed.material.kekSalt).not.toBe(first.material.kekSalt);
    await expectCode(unlockCloudKeys(webCrypto, 'old', changed.material), 'wrong-password');
    const other = await unlockCloudKeys(webCrypto, 'new', changed.material);
    expect(
      read(await openEnvelope(webCrypto, other.dataKey, sealed, { ...context, epoch: 2 })),
    ).toBe('kept');
  });

  it('refuses an empty password and unusable parameters', async () => {
    await expectCode(createCloudKeys(webCrypto, '', 0, quickKdf), 'invalid-input');
    await expectCode(
      createCloudKeys(webCrypto, 'pw', 0, { ...quickKdf, memoryKiB: 1 }),
      'invalid-input',
    );
    await expectCode(createCloudKeys(webCrypto, 'pw', -1, quickKdf), 'invalid-input');
  });
});

describe('envelopes', () => {
  it('use a fresh nonce for every message', async () => {
    const { keys } = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const nonces = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const sealed = decodeBase64(
        await sealEnvelope(webCrypto, keys.dataKey, text('same'), context),
      );
      nonces.add(encodeBase64((sealed ?? new Uint8Array()).slice(1, 13)));
    }
    expect(nonces.size).toBe(500);
  });

  it('refuse a changed byte, another user, epoch or batch, and garbage, as tampered', async () => {
    const { keys } = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const sealed = await sealEnvelope(webCrypto, keys.dataKey, text('secret note'), context);
    const bytes = decodeBase64(sealed) ?? new Uint8Array();
    for (const index of [0, 1, 13, bytes.length - 1]) {
      const changed = bytes.slice();
      changed[index] = (changed[index] ?? 0) ^ 0x80;
      await expectCode(
        openEnvelope(webCrypto, keys.dataKey, encodeBase64(changed), context),
        'tampered',
      );
    }
    for (const moved of [
      { ...context, userId: 'user-2' },
      { ...context, epoch: 1 },
      { ...context, batchId: 'batch-2' },
    ]) {
      await expectCode(openEnvelope(webCrypto, keys.dataKey, sealed, moved), 'tampered');
    }
    await expectCode(openEnvelope(webCrypto, keys.dataKey, 'not base64!', context), 'tampered');
    await expectCode(openEnvelope(webCrypto, keys.dataKey, 'AQID', context), 'tampered');
  });

  it('do not open with another data key', async () => {
    const a = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const b = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const sealed = await sealEnvelope(webCrypto, a.keys.dataKey, text('x'), context);
    await expectCode(openEnvelope(webCrypto, b.keys.dataKey, sealed, context), 'tampered');
  });
});

describe('convergent sealing (packs of dataset files)', () => {
  it('seals the same bytes to the same ciphertext under one key, and nothing else alike', async () => {
    const a = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const b = await createCloudKeys(webCrypto, 'pw', 0, quickKdf);
    const secretA = await convergentNonceSecret(webCrypto, a.keys.dataKey);
    expect(await convergentNonceSecret(webCrypto, a.keys.dataKey)).toEqual(secretA);
    const secretB = await convergentNonceSecret(webCrypto, b.keys.dataKey);
    expect(secretB).not.toEqual(secretA);

    const seal = (
      secret: Uint8Array<ArrayBuffer>,
      key = a.keys.dataKey,
      plain = 'pack',
      at = context,
    ) => sealBytesConvergent(webCrypto, key, secret, text(plain), at);
    const once = await seal(secretA);
    expect(await seal(secretA)).toEqual(once);
    const nonceOf = (sealed: Uint8Array) => encodeBase64(sealed.slice(1, 13));
    const others = [
      await seal(secretA, a.keys.dataKey, 'pack!'),
      await seal(secretA, a.keys.dataKey, 'pack', { ...context, epoch: 1 }),
      await seal(secretA, a.keys.dataKey, 'pack', { ...context, userId: 'user-2' }),
      await seal(secretB, b.keys.dataKey),
    ];
    expect(new Set([once, ...others].map(nonceOf)).size).toBe(5);

    // It opens as any sealed message does, bound to its context.
    expect(read(await openBytes(webCrypto, a.keys.dataKey, once, context))).toBe('pack');
    await expectCode(openBytes(webCrypto, b.keys.dataKey, once, context), 'tampered');
    await expectCode(
      openBytes(webCrypto, a.keys.dataKey, once, { ...context, batchId: 'other' }),
      'tampered',
    );
  });
});
