import {
  checkKeyConfirmation,
  createWorkspaceKey,
  memberKeyFingerprint,
  openSealedWorkspaceKey,
  openWorkspaceName,
  rotateWorkspaceKey,
  sealKeyConfirmation,
  sealWorkspaceKeyTo,
  sealWorkspaceName,
  WorkspaceKeyError,
  type KeyConfirmationCheck,
  type OpaqueCryptoKey,
  type WebCryptoPort,
  type WorkspaceKey,
} from '@docket/core/crypto';
import { decodeBase64, encodeBase64 } from '@docket/core/encoding';
import type {
  Invitation,
  KeyRotation,
  Member,
  MemberListResponse,
  MemberStatus,
  WorkspaceRole,
  WorkspaceSummary,
} from '@docket/protocol/workspaces';
import { MAX_OLDER_KEYS } from '@docket/protocol/workspaces';
import type { ApiClient } from '../api/api-client.ts';
import {
  forgetSpacesNotListed,
  SPACE_GONE_KEY,
  type SpaceGone,
} from '../local-store/forget-spaces.ts';
import { WORKSPACES_PATH } from './workspace-words.ts';
import { memberKeysOnce } from './member-keys.ts';
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

function bytesOf(base64: string, what: string): Uint8Array<ArrayBuffer> {
  const bytes = decodeBase64(base64);
  if (bytes === null) {
    throw new WorkspaceKeyError('tampered', `The server sent ${what} Docket cannot read.`);
  }
  return new Uint8Array(bytes);
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

  /** Every key version sealed to me, opened; versions that do not open are left out. */
  const keyring = async (workspaceId: string): Promise<WorkspaceKey[]> => {
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
  };

  const view = async (summary: WorkspaceSummary): Promise<WorkspaceView> => {
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
  };

  const fingerprintOf = async (member: Member): Promise<string | null> => {
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
  };

  const keyCheckOf = async (
    workspaceId: string,
    member: Member,
  ): Promise<KeyConfirmationCheck | null> => {
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
  };

  /** My record of the key I confirmed for `memberUserId`, sealed under my cloud data key. */
  const confirmationOf = async (
    workspaceId: string,
    memberUserId: string,
    publicKey: string,
  ): Promise<string> =>
    encodeBase64(
      await sealKeyConfirmation(
        crypto,
        dataKey,
        { workspaceId, memberUserId, confirmerUserId: userId },
        bytesOf(publicKey, 'a public key'),
      ),
    );

  /**
   * Refuses a rotation that would seal the new key to a key I did not confirm: the server lists
   * another key for a member than the one I compared, or I hold no record of theirs.
   */
  const requireConfirmedKeys = async (
    workspaceId: string,
    staying: readonly Member[],
  ): Promise<void> => {
    const own = await keys();
    for (const member of staying) {
      if (member.userId === userId) {
        if (member.publicKey !== encodeBase64(own.publicKey)) {
          throw new WorkspaceKeyError(
            'tampered',
            'The server lists another key as yours than the one this account holds: no new key was made. Do not rotate until this is explained.',
          );
        }
        continue;
      }
      const check = await keyCheckOf(workspaceId, member);
      if (check === 'matches') continue;
      const who = member.displayName?.trim() || member.email;
      throw new WorkspaceKeyError(
        check === 'none' ? 'invalid-input' : 'tampered',
        check === 'none'
          ? `You have not compared ${who}’s key yourself: confirm them again before making a new key.`
          : `${who}’s key is not the one you confirmed: no new key was made. Compare fingerprints with them and confirm them again, or remove them.`,
      );
    }
  };

  /** The next key version, sealed to each confirmed member but `leaving`. */
  const rotation = async (
    workspaceId: string,
    listed: MemberListResponse,
    leaving: string | null,
  ): Promise<KeyRotation> => {
    const stayers = listed.members.filter(
      (member) =>
        member.status === 'confirmed' && member.userId !== null && member.userId !== leaving,
    );
    await requireConfirmedKeys(workspaceId, stayers);
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
      await keyring(workspaceId),
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
  };

  return {
    userId,
    keyring,

    async myFingerprint() {
      const own = await keys();
      return memberKeyFingerprint(crypto, own.publicKey, userId);
    },

    keyReplacedHere: account.replacedHere,

    async create(name) {
      const own = await keys();
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
      return view(summary);
    },

    async list() {
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
      return Promise.all(summaries.map(view));
    },

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

    async members(workspaceId) {
      const listed = await wire.listMembers(api, workspaceId);
      const members = await Promise.all(
        listed.members.map(async (member): Promise<MemberView> => ({
          userId: member.userId,
          email: member.email,
          displayName: member.displayName,
          role: member.role,
          status: member.status,
          publicKey: member.publicKey,
          fingerprint: await fingerprintOf(member),
          isMe: member.userId === userId,
          keyCheck: await keyCheckOf(workspaceId, member),
        })),
      );
      return { keyVersion: listed.keyVersion, members };
    },

    async confirm(workspaceId, member) {
      if (member.userId === null || member.publicKey === null) {
        throw new WorkspaceKeyError(
          'invalid-input',
          'Only a member who accepted can be confirmed.',
        );
      }
      const own = await keys();
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
      // Every older version I hold goes too (the newest ones, up to the server's cap), so a
      // member who joins after a rotation reads what the team wrote before it.
      const older = ring.keys
        .filter((copy) => copy.keyVersion < ring.keyVersion)
        .sort((a, b) => b.keyVersion - a.keyVersion)
        .slice(0, MAX_OLDER_KEYS);
      const sealed = await sealTo(current);
      await wire.confirmMember(api, workspaceId, member.userId, {
        keyVersion: ring.keyVersion,
        publicKey: member.publicKey,
        sealedKey: sealed.sealedKey,
        confirmation: await confirmationOf(workspaceId, member.userId, member.publicKey),
        ...(older.length === 0 ? {} : { olderKeys: await Promise.all(older.map(sealTo)) }),
      });
    },

    async confirmAgain(workspaceId, member) {
      if (member.userId === null || member.publicKey === null) {
        throw new WorkspaceKeyError(
          'invalid-input',
          'Only a member with a published key can be confirmed.',
        );
      }
      await wire.recordConfirmation(api, workspaceId, member.userId, {
        publicKey: member.publicKey,
        confirmation: await confirmationOf(workspaceId, member.userId, member.publicKey),
      });
    },

    async changeRole(workspaceId, memberId, role) {
      await wire.changeMemberRole(api, workspaceId, memberId, role);
    },

    async remove(workspaceId, memberId) {
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
        await rotation(workspaceId, listed, memberId),
      );
    },

    async leave(workspaceId) {
      await wire.removeMember(api, workspaceId, userId);
    },

    async deleteWorkspace(workspaceId) {
      await wire.deleteWorkspace(api, workspaceId);
    },

    async rotate(workspaceId) {
      const listed = await wire.listMembers(api, workspaceId);
      await wire.rotateKey(api, workspaceId, await rotation(workspaceId, listed, null));
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
