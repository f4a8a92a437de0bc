import { describe, expect, it } from 'vitest';
import { checkKeyConfirmation, sealKeyConfirmation } from './key-confirmation.ts';
import { createMemberKeys } from './member-keys.ts';
import type { WebCryptoPort } from './web-crypto.ts';

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

function cloudDataKey() {
  return webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

async function publicKeyOf(userId: string): Promise<Uint8Array> {
  return (await createMemberKeys(webCrypto, await cloudDataKey(), userId)).keys.publicKey;
}

const context = { workspaceId: 'ws-1', memberUserId: 'member-1', confirmerUserId: 'owner-1' };

describe('an owner’s record of a confirmed key', () => {
  it('matches the key that was confirmed, and holds no readable key', async () => {
    const ownerKey = await cloudDataKey();
    const memberKey = await publicKeyOf('member-1');
    const sealed = await sealKeyConfirmation(webCrypto, ownerKey, context, memberKey);
    expect(sealed.length).toBeGreaterThan(memberKey.length);
    expect(await checkKeyConfirmation(webCrypto, ownerKey, context, sealed, memberKey)).toBe(
      'matches',
    );
  });

  it('says "differs" for a key swapped after confirmation', async () => {
    const ownerKey = await cloudDataKey();
    const confirmed = await publicKeyOf('member-1');
    const swapped = await publicKeyOf('member-1');
    const sealed = await sealKeyConfirmation(webCrypto, ownerKey, context, confirmed);
    expect(await checkKeyConfirmation(webCrypto, ownerKey, context, sealed, swapped)).toBe(
      'differs',
    );
  });

  it('cannot be made or opened with another key, moved, or changed', async () => {
    const ownerKey = await cloudDataKey();
    const memberKey = await publicKeyOf('member-1');
    const sealed = await sealKeyConfirmation(webCrypto, ownerKey, context, memberKey);
    // Sealed with a key that is not the owner's (a server making a record of its own).
    const forged = await sealKeyConfirmation(webCrypto, await cloudDataKey(), context, memberKey);
    const check = (record: Uint8Array, where = context) =>
      checkKeyConfirmation(webCrypto, ownerKey, where, record, memberKey);
    expect(await check(forged)).toBe('unreadable');
    expect(await check(sealed, { ...context, memberUserId: 'member-2' })).toBe('unreadable');
    expect(await check(sealed, { ...context, workspaceId: 'ws-2' })).toBe('unreadable');
    expect(await check(sealed, { ...context, confirmerUserId: 'owner-2' })).toBe('unreadable');
    const changed = new Uint8Array(sealed);
    changed[changed.length - 1] = (changed[changed.length - 1] ?? 0) ^ 1;
    expect(await check(changed)).toBe('unreadable');
    expect(await check(new Uint8Array(3))).toBe('unreadable');
  });

  it('says "none" when there is no record', async () => {
    const memberKey = await publicKeyOf('member-1');
    expect(
      await checkKeyConfirmation(webCrypto, await cloudDataKey(), context, null, memberKey),
    ).toBe('none');
  });
});
