import { describe, expect, it } from 'vitest';
import { createMemberKeys, WorkspaceKeyError } from './member-keys.ts';
import type { WebCryptoPort } from './web-crypto.ts';
import { createWorkspaceKey, rotateWorkspaceKey } from './workspace-keys.ts';
import {
  MAX_WORKSPACE_NAME_LENGTH,
  openWorkspaceName,
  sealWorkspaceName,
} from './workspace-name.ts';

const webCrypto = (globalThis as unknown as { crypto: WebCryptoPort }).crypto;

async function keyFor(workspaceId: string) {
  const cloudDataKey = await webCrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const owner = (await createMemberKeys(webCrypto, cloudDataKey, 'owner-1')).keys;
  const member = { userId: owner.userId, publicKey: owner.publicKey };
  const first = await createWorkspaceKey(webCrypto, workspaceId, [member]);
  return { key: first.key, member };
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  return error instanceof WorkspaceKeyError ? error.code : null;
}

describe('workspace names', () => {
  it('seals a name that opens with the key of its version, trimmed', async () => {
    const { key } = await keyFor('ws-1');
    const sealed = await sealWorkspaceName(webCrypto, key, '  Health team ');
    expect(String.fromCharCode(...sealed)).not.toContain('Health');
    expect(await openWorkspaceName(webCrypto, [key], sealed, 'ws-1')).toBe('Health team');
  });

  it('refuses the name moved onto another workspace, or opened with another key', async () => {
    const { key } = await keyFor('ws-1');
    const other = await keyFor('ws-2');
    const sealed = await sealWorkspaceName(webCrypto, key, 'Health team');
    expect(await codeOf(openWorkspaceName(webCrypto, [key], sealed, 'ws-2'))).toBe(
      'missing-key-version',
    );
    const relabelled = { ...other.key, workspaceId: 'ws-1' };
    expect(await codeOf(openWorkspaceName(webCrypto, [relabelled], sealed, 'ws-1'))).toBe(
      'tampered',
    );
  });

  it('refuses changed bytes and a changed version', async () => {
    const { key } = await keyFor('ws-1');
    const sealed = await sealWorkspaceName(webCrypto, key, 'Health team');
    const flipped = new Uint8Array(sealed);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect(await codeOf(openWorkspaceName(webCrypto, [key], flipped, 'ws-1'))).toBe('tampered');
    const bumped = new Uint8Array(sealed);
    new DataView(bumped.buffer).setUint32(1, 2);
    expect(await codeOf(openWorkspaceName(webCrypto, [key], bumped, 'ws-1'))).toBe(
      'missing-key-version',
    );
    expect(await codeOf(openWorkspaceName(webCrypto, [key], new Uint8Array(3), 'ws-1'))).toBe(
      'tampered',
    );
  });

  it('opens with the keyring key of the version it was sealed under, after a rotation', async () => {
    const { key, member } = await keyFor('ws-1');
    const sealed = await sealWorkspaceName(webCrypto, key, 'Health team');
    const next = await rotateWorkspaceKey(webCrypto, key, [member]);
    expect(await codeOf(openWorkspaceName(webCrypto, [next.key], sealed, 'ws-1'))).toBe(
      'missing-key-version',
    );
    expect(await openWorkspaceName(webCrypto, [key, next.key], sealed, 'ws-1')).toBe('Health team');
  });

  it('refuses an empty or over-long name', async () => {
    const { key } = await keyFor('ws-1');
    expect(await codeOf(sealWorkspaceName(webCrypto, key, '   '))).toBe('invalid-input');
    expect(
      await codeOf(sealWorkspaceName(webCrypto, key, 'x'.repeat(MAX_WORKSPACE_NAME_LENGTH + 1))),
    ).toBe('invalid-input');
  });
});
