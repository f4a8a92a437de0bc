import { describe, expect, it } from 'vitest';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  createMemberKeys,
  memberKeyFingerprint,
  unwrapMemberPrivateKey,
  WorkspaceKeyError,
  type MemberKeyPair,
} from './member-keys.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
import {
  createWorkspaceKey,
  openSealedWorkspaceKey,
  openWorkspaceChange,
  rotateWorkspaceKey,
  sealWorkspaceChange,
  sealWorkspaceKeyTo,
  workspaceKeyVersionOf,
  type WorkspaceChangeContext,
  type WorkspaceKey,
  type WorkspaceMember,
} from './workspace-keys.ts';

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;
const change: WorkspaceChangeContext = {
  workspaceId: 'ws-1',
  authorUserId: 'alice',
  batchId: 'batch-1',
};

async function member(userId: string): Promise<MemberKeyPair> {
  const cloudDataKey = await webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  return (await createMemberKeys(webCrypto, cloudDataKey, userId)).keys;
}

function listed(keys: MemberKeyPair): WorkspaceMember {
  return { userId: keys.userId, publicKey: keys.publicKey };
}

async function expectCode(promise: Promise<unknown>, code: WorkspaceKeyError['code']) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WorkspaceKeyError);
  expect((error as WorkspaceKeyError).code).toBe(code);
}

/** A team of three, and the workspace's first key sealed to all of them. */
async function team() {
  const [alice, bob, carol] = await Promise.all([member('alice'), member('bob'), member('carol')]);
  const first = await createWorkspaceKey(webCrypto, 'ws-1', [alice, bob, carol].map(listed));
  const sealedFor = (userId: string) => {
    const sealed = first.sealedKeys.find((copy) => copy.memberUserId === userId);
    if (sealed === undefined) throw new Error(`no sealed key for ${userId}`);
    return sealed;
  };
  return { alice, bob, carol, first, sealedFor };
}

async function seal(key: WorkspaceKey, text: string, context = change) {
  return sealWorkspaceChange(webCrypto, key, encodeUtf8(text), context);
}

async function open(keyring: readonly WorkspaceKey[], sealed: Uint8Array, context = change) {
  return decodeUtf8(await openWorkspaceChange(webCrypto, keyring, sealed, context));
}

describe('workspace keys: made', () => {
  it('are version 1, non-extractable, and sealed once to each member', async () => {
    const { first } = await team();
    expect(first.key.version).toBe(1);
    expect(first.key.workspaceId).toBe('ws-1');
    expect(first.key.key.extractable).toBe(false);
    await expect(webCrypto.subtle.exportKey('raw', first.key.key)).rejects.toThrow();
    expect(first.sealedKeys.map((copy) => [copy.memberUserId, copy.keyVersion])).toEqual([
      ['alice', 1],
      ['bob', 1],
      ['carol', 1],
    ]);
    // Each copy has its own ephemeral key, so no two copies share bytes.
    const ephemeral = new Set(first.sealedKeys.map((copy) => copy.sealed.slice(1, 66).join()));
    expect(ephemeral.size).toBe(3);
  });

  it('refuse no members, a member listed twice, a key off the curve, and no workspace id', async () => {
    const alice = await member('alice');
    await expectCode(createWorkspaceKey(webCrypto, 'ws-1', []), 'invalid-input');
    await expectCode(
      createWorkspaceKey(webCrypto, 'ws-1', [listed(alice), listed(alice)]),
      'invalid-input',
    );
    const offCurve = alice.publicKey.slice();
    offCurve[40] = (offCurve[40] ?? 0) ^ 1;
    await expectCode(
      createWorkspaceKey(webCrypto, 'ws-1', [{ userId: 'alice', publicKey: offCurve }]),
      'invalid-input',
    );
    await expectCode(createWorkspaceKey(webCrypto, '', [listed(alice)]), 'invalid-input');
  });
});

describe('workspace keys: sealed to a member and opened', () => {
  it('open for each member, and what one seals the others read', async () => {
    const { alice, bob, first, sealedFor } = await team();
    const bobsKey = await openSealedWorkspaceKey(webCrypto, sealedFor('bob').sealed, bob, {
      workspaceId: 'ws-1',
      keyVersion: 1,
    });
    expect(bobsKey.key.extractable).toBe(false);
    const alicesKey = await openSealedWorkspaceKey(webCrypto, sealedFor('alice').sealed, alice, {
      workspaceId: 'ws-1',
      keyVersion: 1,
    });
    const sealed = await seal(alicesKey, 'tag: Housing');
    expect(await open([bobsKey], sealed)).toBe('tag: Housing');
    expect(await open([first.key], await seal(bobsKey, 'note'))).toBe('note');
  });

  it('refuse another member’s private key (a wrong member key)', async () => {
    const { carol, sealedFor } = await team();
    // Carol tries Bob's copy, as herself and posing as Bob with her own private key.
    const at = { workspaceId: 'ws-1', keyVersion: 1 };
    await expectCode(
      openSealedWorkspaceKey(webCrypto, sealedFor('bob').sealed, carol, at),
      'tampered',
    );
    await expectCode(
      openSealedWorkspaceKey(webCrypto, sealedFor('bob').sealed, { ...carol, userId: 'bob' }, at),
      'tampered',
    );
  });

  it('refuse a sealed key replayed to another workspace, member or version', async () => {
    const { bob, sealedFor } = await team();
    const sealed = sealedFor('bob').sealed;
    await expectCode(
      openSealedWorkspaceKey(webCrypto, sealed, bob, { workspaceId: 'ws-2', keyVersion: 1 }),
      'tampered',
    );
    await expectCode(
      openSealedWorkspaceKey(webCrypto, sealed, bob, { workspaceId: 'ws-1', keyVersion: 2 }),
      'tampered',
    );
    // Bob's own private key, but the copy is labelled for another user id.
    await expectCode(
      openSealedWorkspaceKey(
        webCrypto,
        sealed,
        { ...bob, userId: 'carol' },
        { workspaceId: 'ws-1', keyVersion: 1 },
      ),
      'tampered',
    );
  });

  it('refuse tampered bytes anywhere, and bytes too short to be a sealed key', async () => {
    const { bob, sealedFor } = await team();
    const sealed = sealedFor('bob').sealed;
    const at = { workspaceId: 'ws-1', keyVersion: 1 };
    // Format byte, ephemeral key, inner version byte, nonce, ciphertext, tag.
    for (const index of [0, 1, 30, 66, 67, 80, sealed.length - 1]) {
      const changed = sealed.slice();
      changed[index] = (changed[index] ?? 0) ^ 0x01;
      await expectCode(openSealedWorkspaceKey(webCrypto, changed, bob, at), 'tampered');
    }
    await expectCode(openSealedWorkspaceKey(webCrypto, sealed.slice(0, 66), bob, at), 'tampered');
    await expectCode(
      openSealedWorkspaceKey(webCrypto, sealed, bob, { ...at, keyVersion: 0 }),
      'invalid-input',
    );
  });

  it('a new member gets the same key version from a holder’s own copy', async () => {
    const { alice, first, sealedFor } = await team();
    const dana = await member('dana');
    const forDana = await sealWorkspaceKeyTo(
      webCrypto,
      { sealed: sealedFor('alice'), keys: alice },
      listed(dana),
    );
    expect([forDana.memberUserId, forDana.keyVersion]).toEqual(['dana', 1]);
    const danasKey = await openSealedWorkspaceKey(webCrypto, forDana.sealed, dana, {
      workspaceId: 'ws-1',
      keyVersion: 1,
    });
    expect(await open([danasKey], await seal(first.key, 'welcome'))).toBe('welcome');
    // Only one's own copy can be resealed.
    await expectCode(
      sealWorkspaceKeyTo(webCrypto, { sealed: sealedFor('bob'), keys: alice }, listed(dana)),
      'invalid-input',
    );
  });

  it('a server that swaps a member’s public key gets the key, and the fingerprints differ', async () => {
    const { alice, sealedFor } = await team();
    const dana = await member('dana');
    const mallory = await member('mallory');
    // Alice asks the server for Dana's key and is handed Mallory's, listed as Dana's.
    const swapped = { userId: 'dana', publicKey: mallory.publicKey };
    const forDana = await sealWorkspaceKeyTo(
      webCrypto,
      { sealed: sealedFor('alice'), keys: alice },
      swapped,
    );
    const at = { workspaceId: 'ws-1', keyVersion: 1 };
    // The real Dana cannot open it; the key's holder can, posing as Dana: the attack works...
    await expectCode(openSealedWorkspaceKey(webCrypto, forDana.sealed, dana, at), 'tampered');
    await openSealedWorkspaceKey(webCrypto, forDana.sealed, { ...mallory, userId: 'dana' }, at);
    // ...and is caught when the two compare phrases: Alice's screen shows the key she sealed to.
    const onAlicesScreen = await memberKeyFingerprint(webCrypto, swapped.publicKey, 'dana');
    const onDanasScreen = await memberKeyFingerprint(webCrypto, dana.publicKey, 'dana');
    expect(onAlicesScreen).not.toBe(onDanasScreen);
  });
});

describe('workspace keys: rotated when a member is removed', () => {
  it('seal new changes under version 2, which the removed member cannot open', async () => {
    const { alice, bob, carol, first, sealedFor } = await team();
    const oldChange = await seal(first.key, 'before Bob left');
    const second = await rotateWorkspaceKey(webCrypto, first.key, [alice, carol].map(listed));
    expect(second.key.version).toBe(2);
    expect(second.sealedKeys.map((copy) => copy.memberUserId)).toEqual(['alice', 'carol']);
    const newChange = await seal(second.key, 'after Bob left');
    expect(workspaceKeyVersionOf(newChange)).toBe(2);
    expect(workspaceKeyVersionOf(oldChange)).toBe(1);

    // Bob kept version 1: it has no key for version 2...
    const bobsOldKey = await openSealedWorkspaceKey(webCrypto, sealedFor('bob').sealed, bob, {
      workspaceId: 'ws-1',
      keyVersion: 1,
    });
    await expectCode(
      openWorkspaceChange(webCrypto, [bobsOldKey], newChange, change),
      'missing-key-version',
    );
    // ...relabelling his old key as version 2 does not help (the old key is not the new one)...
    await expectCode(
      openWorkspaceChange(webCrypto, [{ ...bobsOldKey, version: 2 }], newChange, change),
      'tampered',
    );
    // ...nor does a remaining member's sealed copy of version 2, if the server hands it over.
    for (const copy of second.sealedKeys) {
      await expectCode(
        openSealedWorkspaceKey(webCrypto, copy.sealed, bob, { workspaceId: 'ws-1', keyVersion: 2 }),
        'tampered',
      );
    }
    // What Bob could read before stays readable to what he holds: old changes are not resealed.
    expect(await open([bobsOldKey], oldChange)).toBe('before Bob left');

    // Carol, who remains, opens version 2 and keeps version 1 in her keyring for old changes.
    const carolsSecond = second.sealedKeys.find((copy) => copy.memberUserId === 'carol');
    if (carolsSecond === undefined) throw new Error('no copy for Carol');
    const carolsKeyring = [
      await openSealedWorkspaceKey(webCrypto, sealedFor('carol').sealed, carol, {
        workspaceId: 'ws-1',
        keyVersion: 1,
      }),
      await openSealedWorkspaceKey(webCrypto, carolsSecond.sealed, carol, {
        workspaceId: 'ws-1',
        keyVersion: 2,
      }),
    ];
    expect(await open(carolsKeyring, oldChange)).toBe('before Bob left');
    expect(await open(carolsKeyring, newChange)).toBe('after Bob left');
  });

  it('a change says its key version in front and binds it: relabelled, it does not open', async () => {
    const { alice, carol, first } = await team();
    const second = await rotateWorkspaceKey(webCrypto, first.key, [alice, carol].map(listed));
    const sealed = await seal(second.key, 'v2');
    expect(Array.from(sealed.slice(0, 5))).toEqual([1, 0, 0, 0, 2]);
    const relabelled = sealed.slice();
    relabelled[4] = 1;
    await expectCode(
      openWorkspaceChange(webCrypto, [first.key, second.key], relabelled, change),
      'tampered',
    );
  });
});

describe('workspace changes', () => {
  it('refuse another workspace, author or batch, changed bytes, and garbage', async () => {
    const { first } = await team();
    const sealed = await seal(first.key, 'secret note');
    for (const moved of [
      { ...change, authorUserId: 'bob' },
      { ...change, batchId: 'batch-2' },
    ]) {
      await expectCode(openWorkspaceChange(webCrypto, [first.key], sealed, moved), 'tampered');
    }
    // Another workspace: this keyring has no key for it.
    await expectCode(
      openWorkspaceChange(webCrypto, [first.key], sealed, { ...change, workspaceId: 'ws-2' }),
      'missing-key-version',
    );
    for (const index of [5, 6, 18, sealed.length - 1]) {
      const changed = sealed.slice();
      changed[index] = (changed[index] ?? 0) ^ 0x80;
      await expectCode(openWorkspaceChange(webCrypto, [first.key], changed, change), 'tampered');
    }
    await expectCode(
      openWorkspaceChange(webCrypto, [first.key], new Uint8Array(3), change),
      'tampered',
    );
    expect(() => workspaceKeyVersionOf(new Uint8Array([2, 0, 0, 0, 1, 9]))).toThrow(
      WorkspaceKeyError,
    );
  });

  it('refuse a key of another workspace when sealing', async () => {
    const { first } = await team();
    await expectCode(
      sealWorkspaceChange(webCrypto, first.key, encodeUtf8('x'), {
        ...change,
        workspaceId: 'ws-2',
      }),
      'invalid-input',
    );
  });

  it('do not open with another workspace key of the same version', async () => {
    const { first } = await team();
    const other = await createWorkspaceKey(webCrypto, 'ws-1', [listed(await member('zoe'))]);
    await expectCode(
      openWorkspaceChange(webCrypto, [other.key], await seal(first.key, 'x'), change),
      'tampered',
    );
  });
});

/**
 * Node's WebCrypto, recording every buffer that holds key bytes outside a key handle: random bytes
 * of key length, exported private keys, derived bits, decrypted keys, and the bytes handed to a
 * secret key's import (public keys are left out: they are public).
 */
function recordingCrypto(): { crypto: WebCryptoPort; secrets: Uint8Array[] } {
  const secrets: Uint8Array[] = [];
  const subtle = webCrypto.subtle;
  const keep = (buffer: ArrayBuffer): ArrayBuffer => {
    secrets.push(new Uint8Array(buffer));
    return buffer;
  };
  const crypto: WebCryptoPort = {
    getRandomValues: (array) => {
      const filled = webCrypto.getRandomValues(array);
      if (filled.length === 32) secrets.push(filled);
      return filled;
    },
    subtle: {
      importKey: (format, keyData, algorithm, extractable, usages) => {
        if (algorithm.name !== 'ECDH' || format === 'pkcs8') secrets.push(keyData);
        return subtle.importKey(format, keyData, algorithm, extractable, usages);
      },
      generateKey: subtle.generateKey.bind(subtle),
      exportKey: async (format, key) => {
        const exported = await subtle.exportKey(format, key);
        return format === 'pkcs8' ? keep(exported) : exported;
      },
      deriveBits: async (algorithm, key, length) =>
        keep(await subtle.deriveBits(algorithm, key, length)),
      decrypt: async (algorithm, key, data) => keep(await subtle.decrypt(algorithm, key, data)),
      encrypt: subtle.encrypt.bind(subtle),
      digest: subtle.digest.bind(subtle),
      wrapKey: subtle.wrapKey.bind(subtle),
      unwrapKey: subtle.unwrapKey.bind(subtle),
    },
  };
  return { crypto, secrets };
}

function expectAllWiped(secrets: readonly Uint8Array[], atLeast: number) {
  expect(secrets.length).toBeGreaterThanOrEqual(atLeast);
  for (const bytes of secrets) expect(bytes.every((byte) => byte === 0)).toBe(true);
}

describe('keys forgotten: no key bytes are left outside a handle', () => {
  it('when member keys are made, and when they are unwrapped', async () => {
    const { crypto, secrets } = recordingCrypto();
    const cloudDataKey: OpaqueCryptoKey = await webCrypto.subtle.generateKey(
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
    const { stored } = await createMemberKeys(crypto, cloudDataKey, 'alice');
    // The exported private key, its decrypted copy, and the copy handed to import.
    expectAllWiped(secrets, 3);
    secrets.length = 0;
    await unwrapMemberPrivateKey(crypto, stored, cloudDataKey, 'alice');
    expectAllWiped(secrets, 2);
  });

  it('when a workspace key is made, rotated, sealed, opened and resealed', async () => {
    const { crypto, secrets } = recordingCrypto();
    const alice = await member('alice');
    const bob = await member('bob');
    const first = await createWorkspaceKey(crypto, 'ws-1', [listed(alice), listed(bob)]);
    // The key's random bytes, and per member: the ECDH secret, HKDF's input and output.
    expectAllWiped(secrets, 1 + 2 * 3);
    secrets.length = 0;
    const second = await rotateWorkspaceKey(crypto, first.key, [listed(alice)]);
    expectAllWiped(secrets, 4);
    secrets.length = 0;
    const alicesCopy = second.sealedKeys[0];
    if (alicesCopy === undefined) throw new Error('no copy for Alice');
    await openSealedWorkspaceKey(crypto, alicesCopy.sealed, alice, {
      workspaceId: 'ws-1',
      keyVersion: 2,
    });
    // The ECDH secret, HKDF's input and output, the decrypted key and its import copy.
    expectAllWiped(secrets, 5);
    secrets.length = 0;
    await sealWorkspaceKeyTo(crypto, { sealed: alicesCopy, keys: alice }, listed(bob));
    expectAllWiped(secrets, 6);
  });
});
