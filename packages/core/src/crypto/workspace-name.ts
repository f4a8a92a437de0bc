import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import { WorkspaceKeyError } from './member-keys.ts';
import { openBound, sealBound, type SealBinding } from './sync-crypto.ts';
import type { WebCryptoPort } from './web-crypto.ts';
import type { WorkspaceKey } from './workspace-keys.ts';

// A team workspace's name (issue 39), sealed on the owner's device under the workspace key and
// bound to the workspace's id and the key version, so the server keeps bytes it cannot read and
// a name moved onto another workspace does not open. The sealed bytes say their key version in
// their first bytes (as a change does): a member opens them with the key of that version from
// their keyring.

const NAME_FORMAT = 1;
/** Format byte, then the key version as an unsigned 32-bit big-endian number. */
const NAME_HEADER_BYTES = 5;
/** Longest name, in characters: a label for a team, not a text. */
export const MAX_WORKSPACE_NAME_LENGTH = 200;

function nameBinding(workspaceId: string, version: number): SealBinding {
  return ['docket-workspace-name', workspaceId, version];
}

/** A name as it is kept: trimmed; empty or longer than MAX_WORKSPACE_NAME_LENGTH is refused. */
export function normalWorkspaceName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_WORKSPACE_NAME_LENGTH) {
    throw new WorkspaceKeyError(
      'invalid-input',
      `A workspace's name is 1 to ${MAX_WORKSPACE_NAME_LENGTH} characters.`,
    );
  }
  return trimmed;
}

/** Seals a workspace's name under one version of its key, bound to the workspace's id. */
export async function sealWorkspaceName(
  crypto: WebCryptoPort,
  key: WorkspaceKey,
  name: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const plaintext = encodeUtf8(normalWorkspaceName(name));
  const inner = await sealBound(
    crypto,
    key.key,
    plaintext,
    nameBinding(key.workspaceId, key.version),
  );
  const sealed = new Uint8Array(NAME_HEADER_BYTES + inner.length);
  sealed[0] = NAME_FORMAT;
  new DataView(sealed.buffer).setUint32(1, key.version);
  sealed.set(inner, NAME_HEADER_BYTES);
  return sealed;
}

/**
 * Opens a sealed name with the keyring's key of the version it names, for the workspace the
 * caller asked about. No such key is 'missing-key-version'; another workspace's name, another
 * key or changed bytes are 'tampered'.
 */
export async function openWorkspaceName(
  crypto: WebCryptoPort,
  keyring: readonly WorkspaceKey[],
  sealed: Uint8Array,
  workspaceId: string,
): Promise<string> {
  if (sealed.length <= NAME_HEADER_BYTES || sealed[0] !== NAME_FORMAT) {
    throw new WorkspaceKeyError('tampered', 'A workspace name is not in a form this app can open.');
  }
  const version = new DataView(sealed.buffer, sealed.byteOffset, sealed.byteLength).getUint32(1);
  const key = keyring.find(
    (candidate) => candidate.workspaceId === workspaceId && candidate.version === version,
  );
  if (key === undefined) {
    throw new WorkspaceKeyError(
      'missing-key-version',
      `This device holds no key of version ${version} for the workspace.`,
    );
  }
  try {
    const bytes = await openBound(
      crypto,
      key.key,
      sealed.subarray(NAME_HEADER_BYTES),
      nameBinding(workspaceId, version),
    );
    return decodeUtf8(bytes);
  } catch {
    throw new WorkspaceKeyError(
      'tampered',
      'A workspace name failed its integrity check: it was changed, or belongs elsewhere.',
    );
  }
}
