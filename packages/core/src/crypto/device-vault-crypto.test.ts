import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../encoding/base64.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  createDeviceVault,
  deviceRowKey,
  openDeviceValue,
  openDeviceVault,
  sealDeviceValue,
  wrapDeviceVaultKey,
  type DeviceVaultMaterial,
} from './device-vault-crypto.ts';
import type { KdfParams } from './sync-crypto.ts';
import type { WebCryptoPort } from './web-crypto.ts';

// The device vault's key life (issue 38): made with a password, opened with it and no other,
// bound to its account, wrapped again for a new password; rows sealed under it open only with it
// and only where they were sealed.

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
// Light parameters keep the tests fast; the app uses DEFAULT_KDF.
const kdf: KdfParams = { algorithm: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 };

function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((byte, index) => haystack[start + index] === byte)) return true;
  }
  return false;
}

describe('device vault', () => {
  it('opens with the account password and gives back the same key', async () => {
    const made = await createDeviceVault(webCrypto, 'correct horse', 'user-1', kdf);
    expect(made.keyBytes).toHaveLength(32);
    const opened = await openDeviceVault(webCrypto, 'correct horse', 'user-1', made.material);
    expect(opened).toEqual(made.keyBytes);
    // What is kept on the device holds neither the key nor the password.
    const kept = JSON.stringify(made.material);
    expect(kept).not.toContain('correct horse');
    expect(kept).not.toContain(encodeBase64(made.keyBytes));
  });

  it('refuses a wrong password, another account, and changed bytes alike', async () => {
    const { material } = await createDeviceVault(webCrypto, 'correct horse', 'user-1', kdf);
    await expect(openDeviceVault(webCrypto, 'wrong horse', 'user-1', material)).rejects.toThrow(
      /does not open/,
    );
    await expect(
      openDeviceVault(webCrypto, 'correct horse', 'user-2', material),
    ).rejects.toMatchObject({ code: 'wrong-password' });
    const wrapped = decodeBase64(material.wrappedKey) ?? new Uint8Array();
    wrapped[wrapped.length - 1] = (wrapped[wrapped.length - 1] ?? 0) ^ 1;
    const changed: DeviceVaultMaterial = { ...material, wrappedKey: encodeBase64(wrapped) };
    await expect(
      openDeviceVault(webCrypto, 'correct horse', 'user-1', changed),
    ).rejects.toMatchObject({ code: 'wrong-password' });
    await expect(
      openDeviceVault(webCrypto, 'correct horse', 'user-1', { ...material, salt: '***' }),
    ).rejects.toMatchObject({ code: 'tampered' });
    await expect(openDeviceVault(webCrypto, '', 'user-1', material)).rejects.toMatchObject({
      code: 'invalid-input',
    });
  });

  it('wraps the same key again under a new password; the old one no longer opens it', async () => {
    const made = await createDeviceVault(webCrypto, 'old password', 'user-1', kdf);
    const again = await wrapDeviceVaultKey(webCrypto, made.keyBytes, 'new password', 'user-1', kdf);
    expect(await openDeviceVault(webCrypto, 'new password', 'user-1', again)).toEqual(
      made.keyBytes,
    );
    await expect(openDeviceVault(webCrypto, 'old password', 'user-1', again)).rejects.toThrow();
  });

  it('seals a row bound to its place: another key, table, row or part does not open it', async () => {
    const made = await createDeviceVault(webCrypto, 'pw', 'user-1', kdf);
    const rowKey = await deviceRowKey(webCrypto, made.keyBytes);
    // The caller's bytes are not wiped by making the row key (the vault keeps using them).
    expect(made.keyBytes.some((byte) => byte !== 0)).toBe(true);
    const sealed = await sealDeviceValue(webCrypto, rowKey, encodeUtf8('Why: jobs'), [
      'positions',
      'bill-1',
    ]);
    expect(containsBytes(sealed, encodeUtf8('jobs'))).toBe(false);
    const opened = await openDeviceValue(webCrypto, rowKey, sealed, ['positions', 'bill-1']);
    expect(decodeUtf8(opened)).toBe('Why: jobs');

    const other = await deviceRowKey(webCrypto, webCrypto.getRandomValues(new Uint8Array(32)));
    await expect(
      openDeviceValue(webCrypto, other, sealed, ['positions', 'bill-1']),
    ).rejects.toThrow();
    for (const binding of [
      ['positions', 'bill-2'],
      ['annotations', 'bill-1'],
      ['positions', 'bill-1', 'bytes'],
    ]) {
      await expect(openDeviceValue(webCrypto, rowKey, sealed, binding)).rejects.toThrow();
    }
    await expect(deviceRowKey(webCrypto, new Uint8Array(16))).rejects.toThrow(/32 bytes/);
  });
});
