import {
  checkKeyConfirmation,
  memberKeyFingerprint,
  openWorkspaceName,
  rotateWorkspaceKey,
  sealKeyConfirmation,
  sealWorkspaceKeyTo,
  sealWorkspaceName,
  WorkspaceKeyError,
  type KeyConfirmationCheck,
  type MemberKeyPair,
  type OpaqueCryptoKey,
  type WebCryptoPort,
  type WorkspaceKey,
} from '@docket/core/crypto';
import { decodeBase64, encodeBase64 } from '@docket/core/encoding';
import {
  MAX_OLDER_KEYS,
  type KeyRotation,
  type Member,
  type MemberListResponse,
} from '@docket/protocol/workspaces';
import type { ApiClient } from '../api/api-client.ts';
import * as wire from '../api/workspaces-api.ts';

// The owner's half of a workspace's keys (issue 39), as the workspace service does it: each
// member's fingerprint, my sealed record of the key I confirmed and its check, confirming (the
// current key and every older one I hold sealed to the member's public key), and the next key
// version sealed only to members whose listed key is the one I confirmed.

/** What these steps need of the service: who I am, my keys, and the server. */
export interface ServiceContext {
  readonly api: ApiClient;
  readonly crypto: WebCryptoPort;
  readonly userId: string;
  /** The account's cloud data key, which my records of confirmed keys are sealed under. */
  readonly dataKey: OpaqueCryptoKey;
  readonly keys: () => Promise<MemberKeyPair>;
  /** Every key version of the workspace sealed to me, opened. */
  readonly keyring: (workspaceId: string) => Promise<WorkspaceKey[]>;
}

/** Bytes the server sent as base64; a tampering error when they are not. */
export function bytesOf(base64: string, what: string): Uint8Array<ArrayBuffer> {
  const bytes = decodeBase64(base64);
  if (bytes === null) {
    throw new WorkspaceKeyError('tampered', `The server sent ${what} Docket cannot read.`);
  }
  return new Uint8Array(bytes);
}

/** The six words of the public key the server lists for a member; null when there is none. */
export async function fingerprintOf(
  { crypto }: ServiceContext,
  member: Member,
): Promise<string | null> {
  if (member.userId === null || member.publicKey === null) return null;
  try {
    return await memberKeyFingerprint(
      crypto,
      bytesOf(member.publicKey, 'a public key'),
      member.userId,
    );
  } catch (error) {
    if (error instanceof WorkspaceKeyError) return null;
    throw error;
  }
}

/** A confirmed member's listed key against my record of it; null for me and the unconfirmed. */
export async function keyCheckOf(
  { crypto, dataKey, userId }: ServiceContext,
  workspaceId: string,
  member: Member,
): Promise<KeyConfirmationCheck | null> {
  if (member.status !== 'confirmed' || member.userId === null || member.userId === userId) {
    return null;
  }
  if (member.publicKey === null) return 'differs';
  return checkKeyConfirmation(
    crypto,
    dataKey,
    { workspaceId, memberUserId: member.userId, confirmerUserId: userId },
    member.myConfirmation === null ? null : bytesOf(member.myConfirmation, 'a confirmation'),
    bytesOf(member.publicKey, 'a public key'),
  );
}

/** My record of the key I confirmed for `memberUserId`, sealed under my cloud data key. */
export async function confirmationOf(
  { crypto, dataKey, userId }: ServiceContext,
  workspaceId: string,
  memberUserId: string,
  publicKey: string,
): Promise<string> {
  return encodeBase64(
    await sealKeyConfirmation(
      crypto,
      dataKey,
      { workspaceId, memberUserId, confirmerUserId: userId },
      bytesOf(publicKey, 'a public key'),
    ),
  );
}

/**
 * Refuses a rotation that would seal the new key to a key I did not confirm: the server lists
 * another key for a member than the one I compared, or I hold no record of theirs.
 */
async function requireConfirmedKeys(
  context: ServiceContext,
  workspaceId: string,
  staying: readonly Member[],
): Promise<void> {
  const own = await context.keys();
  for (const member of staying) {
    if (member.userId === context.userId) {
      if (member.publicKey !== encodeBase64(own.publicKey)) {
        throw new WorkspaceKeyError(
          'tampered',
          'The server lists another key as yours than the one this account holds: no new key was made. Do not rotate until this is explained.',
        );
      }
      continue;
    }
    const check = await keyCheckOf(context, workspaceId, member);
    if (check === 'matches') continue;
    const who = member.displayName?.trim() || member.email;
    throw new WorkspaceKeyError(
      check === 'none' ? 'invalid-input' : 'tampered',
      check === 'none'
        ? `You have not compared ${who}’s key yourself: confirm them again before making a new key.`
        : `${who}’s key is not the one you confirmed: no new key was made. Compare fingerprints with them and confirm them again, or remove them.`,
    );
  }
}

/** The next key version, sealed to each confirmed member but `leaving`. */
export async function rotation(
  context: ServiceContext,
  workspaceId: string,
  listed: MemberListResponse,
  leaving: string | null,
): Promise<KeyRotation> {
  const { api, crypto } = context;
  const stayers = listed.members.filter(
    (member) =>
      member.status === 'confirmed' && member.userId !== null && member.userId !== leaving,
  );
  await requireConfirmedKeys(context, workspaceId, stayers);
  const staying = stayers.flatMap((member) =>
    member.userId !== null && member.publicKey !== null
      ? [{ userId: member.userId, publicKey: bytesOf(member.publicKey, 'a public key') }]
      : [],
  );
  // The name goes with the new key: a member confirmed later is given only that one.
  const summary = (await wire.listWorkspaces(api)).find((entry) => entry.id === workspaceId);
  if (summary === undefined) {
    throw new WorkspaceKeyError('invalid-input', 'This workspace is not among yours any more.');
  }
  const name = await openWorkspaceName(
    crypto,
    await context.keyring(workspaceId),
    bytesOf(summary.sealedName, 'a sealed name'),
    workspaceId,
  );
  const rotated = await rotateWorkspaceKey(
    crypto,
    { workspaceId, version: listed.keyVersion },
    staying,
  );
  return {
    keyVersion: rotated.key.version,
    sealedName: encodeBase64(await sealWorkspaceName(crypto, rotated.key, name)),
    sealedKeys: rotated.sealedKeys.map((copy) => ({
      userId: copy.memberUserId,
      sealedKey: encodeBase64(copy.sealed),
    })),
  };
}

/**
 * Confirms an accepted member: the current key sealed to the public key I compared, every older
 * version I hold with it (the newest ones, up to the server's cap, so a member who joins after a
 * rotation reads what the team wrote before it), and my record of that key.
 */
export async function confirmMember(
  context: ServiceContext,
  workspaceId: string,
  member: Pick<Member, 'userId' | 'publicKey'>,
): Promise<void> {
  const { api, crypto, userId } = context;
  if (member.userId === null || member.publicKey === null) {
    throw new WorkspaceKeyError('invalid-input', 'Only a member who accepted can be confirmed.');
  }
  const own = await context.keys();
  const ring = await wire.fetchKeyring(api, workspaceId);
  const current = ring.keys.find((copy) => copy.keyVersion === ring.keyVersion);
  if (current === undefined) {
    throw new WorkspaceKeyError(
      'missing-key-version',
      'You do not hold the workspace’s current key, so you cannot seal it to anyone.',
    );
  }
  const to = { userId: member.userId, publicKey: bytesOf(member.publicKey, 'a public key') };
  const sealTo = async (copy: (typeof ring.keys)[number]) => {
    const sealed = await sealWorkspaceKeyTo(
      crypto,
      {
        sealed: {
          workspaceId,
          memberUserId: userId,
          keyVersion: copy.keyVersion,
          sealed: bytesOf(copy.sealedKey, 'a sealed key'),
        },
        keys: own,
      },
      to,
    );
    return { keyVersion: copy.keyVersion, sealedKey: encodeBase64(sealed.sealed) };
  };
  const older = ring.keys
    .filter((copy) => copy.keyVersion < ring.keyVersion)
    .sort((a, b) => b.keyVersion - a.keyVersion)
    .slice(0, MAX_OLDER_KEYS);
  const sealed = await sealTo(current);
  await wire.confirmMember(api, workspaceId, member.userId, {
    keyVersion: ring.keyVersion,
    publicKey: member.publicKey,
    sealedKey: sealed.sealedKey,
    confirmation: await confirmationOf(context, workspaceId, member.userId, member.publicKey),
    ...(older.length === 0 ? {} : { olderKeys: await Promise.all(older.map(sealTo)) }),
  });
}
