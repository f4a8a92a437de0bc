import {
  createWorkspaceKey,
  memberKeyFingerprint,
  openSealedWorkspaceKey,
  openWorkspaceName,
  sealWorkspaceName,
  WorkspaceKeyError,
  type KeyConfirmationCheck,
  type OpaqueCryptoKey,
  type WebCryptoPort,
  type WorkspaceKey,
} from '@docket/core/crypto';
import { encodeBase64 } from '@docket/core/encoding';
import type {
  Invitation,
  Member,
  MemberStatus,
  WorkspaceRole,
  WorkspaceSummary,
} from '@docket/protocol/workspaces';
import type { ApiClient } from '../api/api-client.ts';
import {
  forgetSpacesNotListed,
  SPACE_GONE_KEY,
  type SpaceGone,
} from '../local-store/forget-spaces.ts';
import { WORKSPACES_PATH } from './workspace-words.ts';
import { memberKeysOnce } from './member-keys.ts';
import {
  bytesOf,
  confirmationOf,
  confirmMember,
  fingerprintOf,
  keyCheckOf,
  rotation,
  type ServiceContext,
} from './member-confirmation.ts';
import { rememberSpaceRole } from '../local-store/space-role.ts';
import * as wire from '../api/workspaces-api.ts';

// Team workspaces' membership as this device does it (issue 39): every key is made, sealed and
// opened here with WebCrypto; the server gets only sealed bytes, public keys and membership.
// A workspace's name is sealed under its key, so a member reads it only once an owner has
// confirmed them (sealed the key to their public key).

/** One of my workspaces, its name opened when I hold the key it was sealed under. */
export interface WorkspaceView {
  readonly id: string;
  /** null while I cannot open it (waiting for confirmation, or a key I was never given). */
  readonly name: string | null;
  readonly role: WorkspaceRole;
  readonly status: 'accepted' | 'confirmed';
  /** An owner has not sealed the current key to me yet. */
  readonly waiting: boolean;
  readonly keyVersion: number;
  readonly rotationDue: boolean;
  /**
   * No owner holds the key (each replaced theirs after a cloud-password reset): a confirmed
   * editor may compare an owner's new fingerprint and confirm them back.
   */
  readonly ownerWaiting: boolean;
}

/** A member as an owner sees them, with the fingerprint of the public key the server lists. */
export interface MemberView {
  readonly userId: string | null;
  readonly email: string;
  readonly displayName: string | null;
  readonly role: WorkspaceRole;
  readonly status: MemberStatus;
  readonly publicKey: string | null;
  /** Six words from the listed public key and the member's id; null before they accepted. */
  readonly fingerprint: string | null;
  readonly isMe: boolean;
  /**
   * For a confirmed member other than me: the key the server lists now against my own record
   * of the key I confirmed (core's key-confirmation.ts). A rotation seals only to `matches`.
   */
  readonly keyCheck: KeyConfirmationCheck | null;
}

export interface MembersView {
  readonly keyVersion: number;
  readonly members: readonly MemberView[];
}

export interface WorkspaceService {
  readonly userId: string;
  /** My own fingerprint, publishing my key pair first when the account has none. */
  readonly myFingerprint: () => Promise<string>;
  /**
   * This device replaced the account's member key (the old one was sealed under the data key a
   * cloud-password reset made unopenable): its workspaces wait for an owner to confirm it again.
   */
  readonly keyReplacedHere: () => boolean;
  readonly create: (name: string) => Promise<WorkspaceView>;
  readonly list: () => Promise<WorkspaceView[]>;
  readonly invite: (workspaceId: string, email: string, role: WorkspaceRole) => Promise<Member>;
  /** Withdraws an invitation nobody accepted yet. */
  readonly withdraw: (workspaceId: string, email: string) => Promise<void>;
  readonly invitations: () => Promise<Invitation[]>;
  readonly accept: (workspaceId: string) => Promise<void>;
  readonly decline: (workspaceId: string) => Promise<void>;
  readonly members: (workspaceId: string) => Promise<MembersView>;
  /** Seals the current key to the member's public key: the one whose fingerprint was shown. */
  readonly confirm: (
    workspaceId: string,
    member: Pick<MemberView, 'userId' | 'publicKey'>,
  ) => Promise<void>;
  /**
   * Keeps my record of a confirmed member's listed key, after comparing its fingerprint with
   * them: one confirmed by another owner, before records were kept, or whose key changed.
   */
  readonly confirmAgain: (
    workspaceId: string,
    member: Pick<MemberView, 'userId' | 'publicKey'>,
  ) => Promise<void>;
  /** Gives a member another role (the server keeps at least one confirmed owner). */
  readonly changeRole: (workspaceId: string, userId: string, role: WorkspaceRole) => Promise<void>;
  /** Removes a member; one who held the key is removed with a new key for those who stay. */
  readonly remove: (workspaceId: string, userId: string) => Promise<void>;
  readonly leave: (workspaceId: string) => Promise<void>;
  /**
   * Deletes the workspace for every member (an owner's): its log, keys and members on the
   * server; each member's copy leaves their device at their next reading of the list.
   */
  readonly deleteWorkspace: (workspaceId: string) => Promise<void>;
  /** A new key version sealed to every confirmed member (after a member left: `rotationDue`). */
  readonly rotate: (workspaceId: string) => Promise<void>;
  /** Every key version sealed to me, opened: what the workspace's changes are sealed under. */
  readonly keyring: (workspaceId: string) => Promise<WorkspaceKey[]>;
}

export interface WorkspaceServiceOptions {
  readonly api: ApiClient;
  readonly crypto: WebCryptoPort;
  readonly userId: string;
  /** The account's cloud data key, which the member private key is wrapped under. */
  readonly dataKey: OpaqueCryptoKey;
  /** The cloud key epoch of `dataKey`: after a reset it lets this device replace a lost member key. */
  readonly keyEpoch: number;
}

/** A v4 UUID from WebCrypto's random bytes. */
export function newWorkspaceId(crypto: WebCryptoPort): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One of my workspaces as the screens show it, its name opened when I hold its key. */
async function viewOf(context: ServiceContext, summary: WorkspaceSummary): Promise<WorkspaceView> {
  const { crypto, keyring } = context;
  const waiting = summary.status !== 'confirmed';
  let name: string | null = null;
  if (!waiting) {
    try {
      name = await openWorkspaceName(
        crypto,
        await keyring(summary.id),
        bytesOf(summary.sealedName, 'a sealed name'),
        summary.id,
      );
    } catch (error) {
      if (!(error instanceof WorkspaceKeyError)) throw error;
    }
  }
  return {
    id: summary.id,
    name,
    role: summary.role,
    status: summary.status,
    waiting,
    keyVersion: summary.keyVersion,
    rotationDue: summary.rotationDue,
    ownerWaiting: summary.ownerWaiting,
  };
}

/** Every key version sealed to me, opened; versions that do not open are left out. */
async function openKeyring(
  context: Pick<ServiceContext, 'api' | 'crypto' | 'keys'>,
  workspaceId: string,
): Promise<WorkspaceKey[]> {
  const { api, crypto, keys } = context;
  const own = await keys();
  const ring = await wire.fetchKeyring(api, workspaceId);
  const opened: WorkspaceKey[] = [];
  for (const copy of ring.keys) {
    try {
      opened.push(
        await openSealedWorkspaceKey(crypto, bytesOf(copy.sealedKey, 'a sealed key'), own, {
          workspaceId,
          keyVersion: copy.keyVersion,
        }),
      );
    } catch (error) {
      if (!(error instanceof WorkspaceKeyError)) throw error;
    }
  }
  return opened;
}

/** WorkspaceService.myFingerprint: my key pair's six words, the pair published first if need be. */
async function myFingerprint(context: ServiceContext): Promise<string> {
  const own = await context.keys();
  return memberKeyFingerprint(context.crypto, own.publicKey, context.userId);
}

/** WorkspaceService.create: a new workspace, its key sealed to me and its name under that key. */
async function createWorkspace(context: ServiceContext, name: string): Promise<WorkspaceView> {
  const { api, crypto, userId } = context;
  const own = await context.keys();
  const id = newWorkspaceId(crypto);
  const made = await createWorkspaceKey(crypto, id, [{ userId, publicKey: own.publicKey }]);
  const mine = made.sealedKeys[0];
  if (mine === undefined) throw new Error('The workspace key was sealed to nobody.');
  const sealedName = await sealWorkspaceName(crypto, made.key, name);
  const summary = await wire.createWorkspace(api, {
    id,
    sealedName: encodeBase64(sealedName),
    sealedKey: encodeBase64(mine.sealed),
  });
  return viewOf(context, summary);
}

/** WorkspaceService.list: my workspaces, with the ones I no longer belong to let go here. */
async function listWorkspaces(context: ServiceContext): Promise<WorkspaceView[]> {
  const { api, userId } = context;
  // The account's pair first: after a cloud-password reset this replaces it, so the list read
  // next already says which workspaces wait for a confirmation (a failure shows below, when a
  // name is opened with it).
  await context.keys().catch(() => undefined);
  const summaries = await wire.listWorkspaces(api);
  // The role in the space the page works in may have changed since it was entered.
  for (const summary of summaries) rememberSpaceRole(summary.id, summary.role);
  // A workspace the account no longer belongs to leaves this device.
  const { leave } = await forgetSpacesNotListed(
    userId,
    new Set(summaries.map((summary) => summary.id)),
    (workspaceId) => wire.refusedAsNonMember(api, workspaceId),
  );
  if (leave) await leaveGoneSpace(userId);
  return Promise.all(summaries.map((summary) => viewOf(context, summary)));
}

/** WorkspaceService.members: the workspace's members as an owner sees them. */
async function listMembers(context: ServiceContext, workspaceId: string): Promise<MembersView> {
  const listed = await wire.listMembers(context.api, workspaceId);
  const members = await Promise.all(
    listed.members.map(async (member): Promise<MemberView> => ({
      userId: member.userId,
      email: member.email,
      displayName: member.displayName,
      role: member.role,
      status: member.status,
      publicKey: member.publicKey,
      fingerprint: await fingerprintOf(context, member),
      isMe: member.userId === context.userId,
      keyCheck: await keyCheckOf(context, workspaceId, member),
    })),
  );
  return { keyVersion: listed.keyVersion, members };
}

/** WorkspaceService.confirmAgain: my record of the member's listed key, kept on the server. */
async function confirmAgain(
  context: ServiceContext,
  workspaceId: string,
  member: Pick<MemberView, 'userId' | 'publicKey'>,
): Promise<void> {
  if (member.userId === null || member.publicKey === null) {
    throw new WorkspaceKeyError(
      'invalid-input',
      'Only a member with a published key can be confirmed.',
    );
  }
  await wire.recordConfirmation(context.api, workspaceId, member.userId, {
    publicKey: member.publicKey,
    confirmation: await confirmationOf(context, workspaceId, member.userId, member.publicKey),
  });
}

/** WorkspaceService.remove: a confirmed member is removed with a new key for those who stay. */
async function removeMember(
  context: ServiceContext,
  workspaceId: string,
  memberId: string,
): Promise<void> {
  const { api } = context;
  const listed = await wire.listMembers(api, workspaceId);
  const target = listed.members.find((member) => member.userId === memberId);
  if (target?.status !== 'confirmed') {
    await wire.removeMember(api, workspaceId, memberId);
    return;
  }
  await wire.removeMember(
    api,
    workspaceId,
    memberId,
    await rotation(context, workspaceId, listed, memberId),
  );
}

export function createWorkspaceService({
  api,
  crypto,
  userId,
  dataKey,
  keyEpoch,
}: WorkspaceServiceOptions): WorkspaceService {
  const account = memberKeysOnce(api, crypto, userId, { dataKey, keyEpoch });
  const keys = account.keys;
  const keyring = (workspaceId: string) => openKeyring({ api, crypto, keys }, workspaceId);
  const context: ServiceContext = { api, crypto, userId, dataKey, keys, keyring };

  return {
    userId,
    keyring,
    myFingerprint: () => myFingerprint(context),
    keyReplacedHere: account.replacedHere,
    create: (name) => createWorkspace(context, name),
    list: () => listWorkspaces(context),

    invite(workspaceId, email, role) {
      return wire.inviteMember(api, workspaceId, { email: email.trim(), role });
    },

    withdraw(workspaceId, email) {
      return wire.withdrawInvitation(api, workspaceId, email);
    },

    invitations() {
      return wire.listInvitations(api);
    },

    async accept(workspaceId) {
      // The server refuses an accept without a published public key: publish it first.
      await keys();
      await wire.acceptInvitation(api, workspaceId);
    },

    decline(workspaceId) {
      return wire.declineInvitation(api, workspaceId);
    },

    members: (workspaceId) => listMembers(context, workspaceId),
    confirm: (workspaceId, member) => confirmMember(context, workspaceId, member),
    confirmAgain: (workspaceId, member) => confirmAgain(context, workspaceId, member),

    async changeRole(workspaceId, memberId, role) {
      await wire.changeMemberRole(api, workspaceId, memberId, role);
    },

    remove: (workspaceId, memberId) => removeMember(context, workspaceId, memberId),

    async leave(workspaceId) {
      await wire.removeMember(api, workspaceId, userId);
    },

    async deleteWorkspace(workspaceId) {
      await wire.deleteWorkspace(api, workspaceId);
    },

    async rotate(workspaceId) {
      const listed = await wire.listMembers(api, workspaceId);
      await wire.rotateKey(api, workspaceId, await rotation(context, workspaceId, listed, null));
    },
  };
}

/**
 * The page works in a workspace the account no longer belongs to: it loads again in the personal
 * space, on the Workspaces screen, which says why; the workspace's database goes at that
 * screen's reading of the list (local-store/forget-spaces.ts).
 */
export async function leaveGoneSpace(
  userId: string,
  why: SpaceGone = 'no-longer-member',
): Promise<void> {
  const { enterSpace } = await import('../local-store/enter-space.ts');
  await enterSpace(userId, null);
  sessionStorage.setItem(SPACE_GONE_KEY, why);
  window.location.assign(WORKSPACES_PATH);
}
