import { encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  importMemberPublicKey,
  MEMBER_PUBLIC_KEY_BYTES,
  WorkspaceKeyError,
  type MemberKeyPair,
} from './member-keys.ts';
import { openBound, SEALED_OVERHEAD_BYTES, sealBound, type SealBinding } from './sync-crypto.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from './web-crypto.ts';
import { importRawKeyAndWipe } from './web-crypto.ts';

// A team workspace's data key (issue 39): 32 random bytes, AES-256-GCM, with a version. The
// owner seals it to each member's public key (member-keys.ts); the server stores the sealed keys,
// the ciphertext and the membership, never a key.
//
// Sealing to a member is ECIES in WebCrypto's parts: a fresh ephemeral P-256 pair per sealed key,
// ECDH with the member's public key, HKDF-SHA-256 (salt: both public keys; info: the workspace,
// the member's user id and the key version) to a one-time AES-256-GCM key, which seals the 32
// bytes with the same binding as associated data. A sealed key moved to another workspace, member
// or version, opened with another member's private key, or changed, does not open.
//
// The key's bytes exist only inside these functions: drawn, sealed to each member, imported as a
// non-extractable key and wiped; opened from a sealed copy, imported and wiped. A device holds
// handles, and forgetting a workspace is dropping its handles and sealed copies.
//
// Removing a member rotates the key: version n+1, sealed to the members who remain. Changes are
// sealed under the newest version, and say which version in their first bytes (and bind it), so
// the removed member's devices, holding only older keys, cannot open them, and a server can
// refuse a change under a stale version without opening anything. Older changes stay sealed
// under the key they were made with: a keyring of every version a member was given opens them,
// the removed member's included (what they could read before, they could have kept anyway).

/** A workspace's data key of one version, as a non-extractable handle. */
export interface WorkspaceKey {
  readonly workspaceId: string;
  readonly version: number;
  readonly key: OpaqueCryptoKey;
}

/** A member to seal a workspace key to: the public key the server lists for the user. */
export interface WorkspaceMember {
  readonly userId: string;
  readonly publicKey: Uint8Array;
}

/** One member's sealed copy of one key version: the row the server keeps. */
export interface SealedWorkspaceKey {
  readonly workspaceId: string;
  readonly memberUserId: string;
  readonly keyVersion: number;
  readonly sealed: Uint8Array<ArrayBuffer>;
}

/** What a change sealed with a workspace key is bound to. */
export interface WorkspaceChangeContext {
  readonly workspaceId: string;
  readonly authorUserId: string;
  readonly batchId: string;
}

export const FIRST_WORKSPACE_KEY_VERSION = 1;

const KEY_BYTES = 32;
const SEALED_KEY_FORMAT = 1;
const CHANGE_FORMAT = 1;
/** Format byte, then the key version as an unsigned 32-bit big-endian number. */
const CHANGE_HEADER_BYTES = 5;
/** What sealing adds to a change's plaintext: the format byte, the key version, then `sealBound`'s. */
export const WORKSPACE_CHANGE_OVERHEAD_BYTES = CHANGE_HEADER_BYTES + SEALED_OVERHEAD_BYTES;
const MAX_KEY_VERSION = 0xffff_ffff;
const P256: { name: 'ECDH'; namedCurve: 'P-256' } = { name: 'ECDH', namedCurve: 'P-256' };

function checkId(value: string, what: string): void {
  if (value.length === 0) throw new WorkspaceKeyError('invalid-input', `A ${what} is needed.`);
}

function checkVersion(version: number): void {
  if (!Number.isInteger(version) || version < 1 || version > MAX_KEY_VERSION) {
    throw new WorkspaceKeyError(
      'invalid-input',
      'A workspace key version is a whole number from 1.',
    );
  }
}

function sealedKeyBinding(workspaceId: string, memberUserId: string, version: number): SealBinding {
  return ['docket-workspace-key', workspaceId, memberUserId, version];
}

function changeBinding(context: WorkspaceChangeContext, version: number): SealBinding {
  return [
    'docket-workspace-change',
    context.workspaceId,
    version,
    context.authorUserId,
    context.batchId,
  ];
}

/** The one-time key of a sealed workspace key, from either side of the key agreement. */
async function agreedKey(
  crypto: WebCryptoPort,
  privateKey: OpaqueCryptoKey,
  otherPublicKey: OpaqueCryptoKey,
  ephemeralPublicKey: Uint8Array,
  memberPublicKey: Uint8Array,
  binding: SealBinding,
): Promise<OpaqueCryptoKey> {
  const shared = new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'ECDH', public: otherPublicKey }, privateKey, 256),
  );
  const material = await importRawKeyAndWipe(crypto, shared, 'HKDF');
  const salt = new Uint8Array(ephemeralPublicKey.length + memberPublicKey.length);
  salt.set(ephemeralPublicKey, 0);
  salt.set(memberPublicKey, ephemeralPublicKey.length);
  const bits = await crypto.subtle.deriveBits(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt,
      info: new Uint8Array(encodeUtf8(JSON.stringify(binding))),
    },
    material,
    256,
  );
  return importRawKeyAndWipe(crypto, new Uint8Array(bits), 'AES-GCM');
}

/** Seals key bytes to one member: format byte, ephemeral public key, then `sealBound`'s bytes. */
async function sealKeyBytesTo(
  crypto: WebCryptoPort,
  keyBytes: Uint8Array,
  member: WorkspaceMember,
  workspaceId: string,
  version: number,
): Promise<SealedWorkspaceKey> {
  checkId(member.userId, 'member’s user id');
  const memberKey = await importMemberPublicKey(crypto, member.publicKey);
  const ephemeral = await crypto.subtle.generateKey(P256, false, ['deriveBits']);
  const ephemeralPublicKey = new Uint8Array(
    await crypto.subtle.exportKey('raw', ephemeral.publicKey),
  );
  const binding = sealedKeyBinding(workspaceId, member.userId, version);
  const key = await agreedKey(
    crypto,
    ephemeral.privateKey,
    memberKey,
    ephemeralPublicKey,
    member.publicKey,
    binding,
  );
  const inner = await sealBound(crypto, key, keyBytes, binding);
  const sealed = new Uint8Array(1 + MEMBER_PUBLIC_KEY_BYTES + inner.length);
  sealed[0] = SEALED_KEY_FORMAT;
  sealed.set(ephemeralPublicKey, 1);
  sealed.set(inner, 1 + MEMBER_PUBLIC_KEY_BYTES);
  return { workspaceId, memberUserId: member.userId, keyVersion: version, sealed };
}

/** The key bytes of a sealed copy; the caller wipes them. */
async function openKeyBytes(
  crypto: WebCryptoPort,
  sealed: Uint8Array,
  member: MemberKeyPair,
  workspaceId: string,
  version: number,
): Promise<Uint8Array> {
  const refused = () =>
    new WorkspaceKeyError(
      'tampered',
      'The workspace key does not open with this member’s key: it was changed, or it was sealed ' +
        'to another member, workspace or key version.',
    );
  if (sealed.length <= 1 + MEMBER_PUBLIC_KEY_BYTES || sealed[0] !== SEALED_KEY_FORMAT) {
    throw refused();
  }
  const ephemeralPublicKey = sealed.slice(1, 1 + MEMBER_PUBLIC_KEY_BYTES);
  let ephemeral: OpaqueCryptoKey;
  try {
    ephemeral = await importMemberPublicKey(crypto, ephemeralPublicKey);
  } catch {
    throw refused();
  }
  const binding = sealedKeyBinding(workspaceId, member.userId, version);
  const key = await agreedKey(
    crypto,
    member.privateKey,
    ephemeral,
    ephemeralPublicKey,
    member.publicKey,
    binding,
  );
  let bytes: Uint8Array;
  try {
    bytes = await openBound(crypto, key, sealed.subarray(1 + MEMBER_PUBLIC_KEY_BYTES), binding);
  } catch {
    throw refused();
  }
  if (bytes.length !== KEY_BYTES) {
    bytes.fill(0);
    throw refused();
  }
  return bytes;
}

async function newWorkspaceKey(
  crypto: WebCryptoPort,
  workspaceId: string,
  version: number,
  members: readonly WorkspaceMember[],
): Promise<{ key: WorkspaceKey; sealedKeys: SealedWorkspaceKey[] }> {
  checkId(workspaceId, 'workspace id');
  checkVersion(version);
  if (members.length === 0) {
    throw new WorkspaceKeyError(
      'invalid-input',
      'A workspace key is sealed to one member or more.',
    );
  }
  if (new Set(members.map((member) => member.userId)).size !== members.length) {
    throw new WorkspaceKeyError('invalid-input', 'A member is listed twice.');
  }
  const keyBytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  try {
    const sealedKeys: SealedWorkspaceKey[] = [];
    for (const member of members) {
      sealedKeys.push(await sealKeyBytesTo(crypto, keyBytes, member, workspaceId, version));
    }
    const key = await importRawKeyAndWipe(crypto, keyBytes, 'AES-GCM');
    return { key: { workspaceId, version, key }, sealedKeys };
  } finally {
    keyBytes.fill(0);
  }
}

/** A new workspace's key, version 1, sealed to its first members (the owner among them). */
export function createWorkspaceKey(
  crypto: WebCryptoPort,
  workspaceId: string,
  members: readonly WorkspaceMember[],
): Promise<{ key: WorkspaceKey; sealedKeys: SealedWorkspaceKey[] }> {
  return newWorkspaceKey(crypto, workspaceId, FIRST_WORKSPACE_KEY_VERSION, members);
}

/**
 * A removal: a new random key of the next version, sealed only to the members who remain (the
 * caller lists them, the owner included). Nothing is derived from the old key, so holding it
 * says nothing about the new one.
 */
export function rotateWorkspaceKey(
  crypto: WebCryptoPort,
  current: Pick<WorkspaceKey, 'workspaceId' | 'version'>,
  remainingMembers: readonly WorkspaceMember[],
): Promise<{ key: WorkspaceKey; sealedKeys: SealedWorkspaceKey[] }> {
  checkVersion(current.version);
  return newWorkspaceKey(crypto, current.workspaceId, current.version + 1, remainingMembers);
}

/**
 * Opens a sealed copy with the member's own keys. `at` is what the member expects (the workspace
 * it asked for, the version it needs), not a label taken on the server's word: a copy sealed for
 * anything else is refused as tampered.
 */
export async function openSealedWorkspaceKey(
  crypto: WebCryptoPort,
  sealed: Uint8Array,
  member: MemberKeyPair,
  at: { readonly workspaceId: string; readonly keyVersion: number },
): Promise<WorkspaceKey> {
  checkId(at.workspaceId, 'workspace id');
  checkVersion(at.keyVersion);
  const bytes = await openKeyBytes(crypto, sealed, member, at.workspaceId, at.keyVersion);
  return {
    workspaceId: at.workspaceId,
    version: at.keyVersion,
    key: await importRawKeyAndWipe(crypto, bytes, 'AES-GCM'),
  };
}

/**
 * A member added (or a member's new key pair): a holder of the key opens its own sealed copy and
 * seals the same key version to the member. The key's bytes are wiped after.
 */
export async function sealWorkspaceKeyTo(
  crypto: WebCryptoPort,
  own: { readonly sealed: SealedWorkspaceKey; readonly keys: MemberKeyPair },
  member: WorkspaceMember,
): Promise<SealedWorkspaceKey> {
  const { workspaceId, memberUserId, keyVersion } = own.sealed;
  if (memberUserId !== own.keys.userId) {
    throw new WorkspaceKeyError('invalid-input', 'That sealed key is another member’s copy.');
  }
  checkId(workspaceId, 'workspace id');
  checkVersion(keyVersion);
  const bytes = await openKeyBytes(crypto, own.sealed.sealed, own.keys, workspaceId, keyVersion);
  try {
    return await sealKeyBytesTo(crypto, bytes, member, workspaceId, keyVersion);
  } finally {
    bytes.fill(0);
  }
}

/** Seals a change under a workspace key: format byte, key version, then `sealBound`'s bytes. */
export async function sealWorkspaceChange(
  crypto: WebCryptoPort,
  key: WorkspaceKey,
  plaintext: Uint8Array,
  context: WorkspaceChangeContext,
): Promise<Uint8Array<ArrayBuffer>> {
  if (key.workspaceId !== context.workspaceId) {
    throw new WorkspaceKeyError('invalid-input', 'That key is another workspace’s.');
  }
  checkVersion(key.version);
  const inner = await sealBound(crypto, key.key, plaintext, changeBinding(context, key.version));
  const sealed = new Uint8Array(CHANGE_HEADER_BYTES + inner.length);
  sealed[0] = CHANGE_FORMAT;
  new DataView(sealed.buffer).setUint32(1, key.version);
  sealed.set(inner, CHANGE_HEADER_BYTES);
  return sealed;
}

/** The key version a sealed change says it was sealed under, read without a key. */
export function workspaceKeyVersionOf(sealed: Uint8Array): number {
  if (sealed.length <= CHANGE_HEADER_BYTES || sealed[0] !== CHANGE_FORMAT) {
    throw new WorkspaceKeyError(
      'tampered',
      'A workspace change is not in a form this app can open.',
    );
  }
  return new DataView(sealed.buffer, sealed.byteOffset, sealed.byteLength).getUint32(1);
}

/**
 * Opens a change with the keyring's key of the version it names. No key of that version is
 * 'missing-key-version' (a removed member, or a device that has not fetched the new key yet);
 * a key that does not open it, or a changed version, workspace, author, batch or byte, is
 * 'tampered'.
 */
export async function openWorkspaceChange(
  crypto: WebCryptoPort,
  keyring: readonly WorkspaceKey[],
  sealed: Uint8Array,
  context: WorkspaceChangeContext,
): Promise<Uint8Array<ArrayBuffer>> {
  const version = workspaceKeyVersionOf(sealed);
  const key = keyring.find(
    (candidate) => candidate.workspaceId === context.workspaceId && candidate.version === version,
  );
  if (key === undefined) {
    throw new WorkspaceKeyError(
      'missing-key-version',
      `This device holds no key of version ${version} for the workspace.`,
    );
  }
  try {
    return await openBound(
      crypto,
      key.key,
      sealed.subarray(CHANGE_HEADER_BYTES),
      changeBinding(context, version),
    );
  } catch {
    throw new WorkspaceKeyError(
      'tampered',
      'A workspace change failed its integrity check: it was changed, or belongs elsewhere.',
    );
  }
}
