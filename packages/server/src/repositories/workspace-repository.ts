import {
  MAX_WORKSPACE_MEMBERS,
  MAX_WORKSPACES_PER_ACCOUNT,
  type KeyRotation,
  type Member,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@docket/protocol/workspaces';
import { and, asc, count, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { base64Of, fromBase64, nullableBase64Of } from '../db/base64-bytea.ts';
import type { DocketDb, DocketTransaction } from '../db/database.ts';
import {
  user,
  userPublicKeys,
  workspaceKeyConfirmations,
  workspaceMemberKeys,
  workspaceMembers,
  workspaces,
} from '../db/schema.ts';
import { ApiHttpError } from '../http/api-error.ts';
import {
  lockAsMember,
  lockWorkspace,
  membershipOf,
  notAMember,
  requireConfirmed,
  requireCurrentKey,
  requireOwner,
  requireOwnerOrKeeper,
  type WorkspaceHead,
} from './workspace-access.ts';
import {
  memberKeysOf,
  publishMemberKeys,
  replaceMemberKeys,
  type MemberKeys,
  type PublishOutcome,
} from './member-keys-repository.ts';

/** The signed-in account as the routes know it. */
export interface Account {
  id: string;
  email: string;
}

export interface StoredInvitation {
  workspaceId: string;
  role: WorkspaceRole;
  invitedBy: { name: string; email: string } | null;
  invitedAt: string;
}

/** The newest key version sealed to a member row's account; null before confirmation. */
const newestSealedVersion = sql<
  number | null
>`(select max(${workspaceMemberKeys.keyVersion}) from ${workspaceMemberKeys} where ${workspaceMemberKeys.workspaceId} = ${workspaceMembers.workspaceId} and ${workspaceMemberKeys.userId} = ${workspaceMembers.userId})`;

/** No owner of the workspace holds its key: each owner's was replaced after a reset. */
const ownerWaiting =
  sql<boolean>`not exists (select 1 from ${workspaceMembers} as "keeping_owner" where "keeping_owner"."workspace_id" = ${workspaces.id} and "keeping_owner"."role" = 'owner' and "keeping_owner"."status" = 'confirmed')`.mapWith(
    Boolean,
  );

/** Joins a member row to the record of its key that `readerId` made on confirming it. */
function confirmationBy(readerId: string): SQL | undefined {
  return and(
    eq(workspaceKeyConfirmations.workspaceId, workspaceMembers.workspaceId),
    eq(workspaceKeyConfirmations.memberUserId, workspaceMembers.userId),
    eq(workspaceKeyConfirmations.confirmedBy, readerId),
  );
}

/**
 * Refuses a further workspace to an account at MAX_WORKSPACES_PER_ACCOUNT. The account's
 * creates and accepts take turns (an advisory lock), so two at once cannot both pass the count.
 */
async function requireRoomForWorkspace(tx: DocketTransaction, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`workspaces:${userId}`}))`);
  const [counted] = await tx
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId));
  if ((counted?.n ?? 0) >= MAX_WORKSPACES_PER_ACCOUNT) {
    throw new ApiHttpError(
      409,
      'too-many-workspaces',
      `An account belongs to at most ${MAX_WORKSPACES_PER_ACCOUNT} workspaces; leave one first.`,
    );
  }
}

/** Refuses a key the owner names that is not the member's published one. */
function requirePublishedKey(target: Member, publicKey: string, what: string): void {
  if (target.publicKey !== publicKey) {
    throw new ApiHttpError(
      409,
      'public-key-changed',
      `The public key you ${what} is not this member's published key. Read the members again and check the key's fingerprint with them.`,
    );
  }
}

/** Invitations and members are matched by address without regard to case. */
function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

function isoOf(value: Date | string): string {
  return new Date(value).toISOString();
}

/**
 * Workspaces, their members and invitations, and the accounts' public keys. Every method takes
 * the signed-in account and checks its role (workspace-access.ts) before it reads or writes;
 * the sealed bytes are stored and handed back, never read.
 */
export class WorkspaceRepository {
  constructor(private readonly db: DocketDb) {}

  /** Publishes the account's member key pair, or replaces it after a reset (`replaces`). */
  async publishMemberKeys(
    userId: string,
    keys: MemberKeys,
    replaces?: string,
  ): Promise<PublishOutcome> {
    return replaces === undefined
      ? publishMemberKeys(this.db, userId, keys)
      : replaceMemberKeys(this.db, userId, keys, replaces);
  }

  /** Whether the account is a member (accepted or confirmed): for refusals that must not tell outsiders more. */
  async isMember(userId: string, workspaceId: string): Promise<boolean> {
    return (await membershipOf(this.db, workspaceId, userId)) !== null;
  }

  async memberKeysOf(userId: string): Promise<MemberKeys | null> {
    return memberKeysOf(this.db, userId);
  }

  /** A new workspace owned by `owner`, who holds key version 1. */
  async create(
    owner: Account,
    input: { id: string; sealedName: string; sealedKey: string },
  ): Promise<WorkspaceSummary> {
    return this.db.transaction(async (tx) => {
      await requireRoomForWorkspace(tx, owner.id);
      const [created] = await tx
        .insert(workspaces)
        .values({ id: input.id, sealedName: fromBase64(input.sealedName) })
        .onConflictDoNothing({ target: workspaces.id })
        .returning({ id: workspaces.id });
      if (created === undefined) {
        throw new ApiHttpError(
          409,
          'workspace-exists',
          `There is already a workspace ${input.id}; make a new id.`,
        );
      }
      await tx.insert(workspaceMembers).values({
        workspaceId: input.id,
        email: normalEmail(owner.email),
        userId: owner.id,
        role: 'owner',
        status: 'confirmed',
      });
      await tx.insert(workspaceMemberKeys).values({
        workspaceId: input.id,
        userId: owner.id,
        keyVersion: 1,
        sealedKey: fromBase64(input.sealedKey),
      });
      const [summary] = await this.summaries(tx, owner.id, input.id);
      if (summary === undefined) throw new Error('The workspace vanished as it was made');
      return summary;
    });
  }

  /** The workspaces the account has accepted or been confirmed in. */
  async listMine(userId: string): Promise<WorkspaceSummary[]> {
    return this.summaries(this.db, userId);
  }

  private async summaries(
    db: DocketDb | DocketTransaction,
    userId: string,
    workspaceId?: string,
  ): Promise<WorkspaceSummary[]> {
    const rows = await db
      .select({
        id: workspaces.id,
        sealedName: base64Of(workspaces.sealedName),
        role: workspaceMembers.role,
        status: workspaceMembers.status,
        keyVersion: workspaces.keyVersion,
        sealedKey: nullableBase64Of(workspaceMemberKeys.sealedKey),
        rotationDue: workspaces.rotationDue,
        ownerWaiting: ownerWaiting,
        createdAt: workspaces.createdAt,
      })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      // Only the copy of the current key: the key ring (…/keys) has the older ones.
      .leftJoin(
        workspaceMemberKeys,
        and(
          eq(workspaceMemberKeys.workspaceId, workspaceMembers.workspaceId),
          eq(workspaceMemberKeys.userId, workspaceMembers.userId),
          eq(workspaceMemberKeys.keyVersion, workspaces.keyVersion),
        ),
      )
      .where(
        and(
          eq(workspaceMembers.userId, userId),
          workspaceId === undefined ? undefined : eq(workspaces.id, workspaceId),
        ),
      )
      .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
    return rows.map((row) => ({
      id: row.id,
      sealedName: row.sealedName,
      role: row.role,
      // A row with a user is accepted at least; 'invited' rows have none.
      status: row.status === 'confirmed' ? 'confirmed' : 'accepted',
      keyVersion: row.keyVersion,
      sealedKey: row.sealedKey,
      rotationDue: row.rotationDue,
      ownerWaiting: row.ownerWaiting,
      createdAt: isoOf(row.createdAt),
    }));
  }

  /** An owner deletes the workspace, its members, keys and log. */
  async delete(userId: string, workspaceId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'delete it');
      await tx.delete(workspaces).where(eq(workspaces.id, workspaceId));
    });
  }

  /** An owner invites an address with a role. */
  async invite(
    userId: string,
    workspaceId: string,
    invitation: { email: string; role: WorkspaceRole },
  ): Promise<Member> {
    return this.db.transaction(async (tx) => {
      const { actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'invite people');
      const [counted] = await tx
        .select({ n: count() })
        .from(workspaceMembers)
        .where(eq(workspaceMembers.workspaceId, workspaceId));
      if ((counted?.n ?? 0) >= MAX_WORKSPACE_MEMBERS) {
        throw new ApiHttpError(
          409,
          'too-many-members',
          `A workspace has at most ${MAX_WORKSPACE_MEMBERS} members and invitations.`,
        );
      }
      const email = normalEmail(invitation.email);
      const inserted = await tx
        .insert(workspaceMembers)
        .values({
          workspaceId,
          email,
          role: invitation.role,
          status: 'invited',
          invitedBy: userId,
        })
        .onConflictDoNothing({ target: [workspaceMembers.workspaceId, workspaceMembers.email] })
        .returning({ email: workspaceMembers.email });
      if (inserted.length === 0) {
        throw new ApiHttpError(
          409,
          'already-invited',
          `${email} is already a member of this workspace or invited to it.`,
        );
      }
      return {
        userId: null,
        email,
        displayName: null,
        role: invitation.role,
        status: 'invited',
        publicKey: null,
        keyVersion: null,
        myConfirmation: null,
      };
    });
  }

  /** An owner withdraws an invitation nobody has accepted (a member is removed instead). */
  async withdraw(userId: string, workspaceId: string, email: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'withdraw invitations');
      const deleted = await tx
        .delete(workspaceMembers)
        .where(
          and(
            eq(workspaceMembers.workspaceId, workspaceId),
            eq(workspaceMembers.email, normalEmail(email)),
            eq(workspaceMembers.status, 'invited'),
          ),
        )
        .returning({ email: workspaceMembers.email });
      if (deleted.length === 0) {
        throw new ApiHttpError(
          404,
          'invitation-not-found',
          `There is no open invitation to this workspace for ${normalEmail(email)}.`,
        );
      }
    });
  }

  /** The invitee declines: the invitation to their verified address is gone. */
  async decline(userId: string, workspaceId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const email = await this.verifiedEmailOf(tx, userId);
      const deleted = await tx
        .delete(workspaceMembers)
        .where(
          and(
            eq(workspaceMembers.workspaceId, workspaceId),
            eq(workspaceMembers.email, email),
            eq(workspaceMembers.status, 'invited'),
          ),
        )
        .returning({ email: workspaceMembers.email });
      if (deleted.length === 0) {
        throw new ApiHttpError(
          403,
          'not-invited',
          `There is no invitation to this workspace for ${email}.`,
        );
      }
    });
  }

  /** The account's verified address, or a 403 saying it must be verified first. */
  private async verifiedEmailOf(db: DocketDb | DocketTransaction, userId: string) {
    const [row] = await db
      .select({ email: user.email, emailVerified: user.emailVerified })
      .from(user)
      .where(eq(user.id, userId));
    if (row?.emailVerified !== true) {
      throw new ApiHttpError(
        403,
        'email-not-verified',
        'Verify your e-mail address first (follow the link we sent): invitations go to an address, and only its verified owner may accept them.',
      );
    }
    return normalEmail(row.email);
  }

  /** Invitations to the account's verified address that nobody has accepted yet. */
  async invitationsFor(userId: string): Promise<StoredInvitation[]> {
    const email = await this.verifiedEmailOf(this.db, userId);
    const rows = await this.db
      .select({
        workspaceId: workspaceMembers.workspaceId,
        role: workspaceMembers.role,
        inviterName: user.name,
        inviterEmail: user.email,
        invitedAt: workspaceMembers.invitedAt,
      })
      .from(workspaceMembers)
      .leftJoin(user, eq(user.id, workspaceMembers.invitedBy))
      .where(and(eq(workspaceMembers.email, email), eq(workspaceMembers.status, 'invited')))
      .orderBy(asc(workspaceMembers.invitedAt));
    return rows.map((row) => ({
      workspaceId: row.workspaceId,
      role: row.role,
      invitedBy:
        row.inviterName === null || row.inviterEmail === null
          ? null
          : { name: row.inviterName, email: row.inviterEmail },
      invitedAt: isoOf(row.invitedAt),
    }));
  }

  /**
   * The invitee accepts: only an account whose verified address is the invited one, and only
   * once it has published the public key an owner will seal the workspace key to.
   */
  async accept(userId: string, workspaceId: string): Promise<WorkspaceSummary> {
    return this.db.transaction(async (tx) => {
      const email = await this.verifiedEmailOf(tx, userId);
      const head = await lockWorkspace(tx, workspaceId);
      const [row] =
        head === null
          ? []
          : await tx
              .select({ status: workspaceMembers.status, userId: workspaceMembers.userId })
              .from(workspaceMembers)
              .where(
                and(
                  eq(workspaceMembers.workspaceId, workspaceId),
                  eq(workspaceMembers.email, email),
                ),
              );
      if (row === undefined) {
        throw new ApiHttpError(
          403,
          'not-invited',
          `There is no invitation to this workspace for ${email}.`,
        );
      }
      if (row.status !== 'invited') {
        throw new ApiHttpError(
          409,
          'already-accepted',
          'This invitation was accepted already; an owner confirms you next.',
        );
      }
      await requireRoomForWorkspace(tx, userId);
      if ((await memberKeysOf(tx, userId)) === null) {
        throw new ApiHttpError(
          409,
          'public-key-required',
          'Publish your member keys (PUT /api/keys) before accepting: an owner seals the workspace key to your public key.',
        );
      }
      // One account, one membership: an account invited under two addresses (it cannot have
      // two verified ones today) would break the unique (workspace, user) index here.
      await tx
        .update(workspaceMembers)
        .set({ userId, status: 'accepted' })
        .where(
          and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.email, email)),
        );
      const [summary] = await this.summaries(tx, userId, workspaceId);
      if (summary === undefined) throw new Error('The accepted membership vanished');
      return summary;
    });
  }

  /** An owner's view of the members and invitations, with the public keys to seal to. */
  async members(
    userId: string,
    workspaceId: string,
  ): Promise<{ keyVersion: number; members: Member[] }> {
    return this.db.transaction(async (tx) => {
      const { head, actor } = await lockAsMember(tx, workspaceId, userId);
      await requireOwnerOrKeeper(tx, workspaceId, actor, 'see its members');
      const rows = await tx
        .select({
          userId: workspaceMembers.userId,
          email: workspaceMembers.email,
          displayName: user.name,
          role: workspaceMembers.role,
          status: workspaceMembers.status,
          publicKey: nullableBase64Of(userPublicKeys.publicKey),
          keyVersion: newestSealedVersion,
          myConfirmation: nullableBase64Of(workspaceKeyConfirmations.sealed),
        })
        .from(workspaceMembers)
        .leftJoin(user, eq(user.id, workspaceMembers.userId))
        .leftJoin(userPublicKeys, eq(userPublicKeys.userId, workspaceMembers.userId))
        .leftJoin(workspaceKeyConfirmations, confirmationBy(userId))
        .where(eq(workspaceMembers.workspaceId, workspaceId))
        .orderBy(asc(workspaceMembers.invitedAt), asc(workspaceMembers.email));
      return { keyVersion: head.keyVersion, members: rows };
    });
  }

  /**
   * An owner confirms an accepted member: the current key sealed to the member's published
   * public key (the one the owner names, so a key swapped on the server is refused).
   */
  async confirm(
    userId: string,
    workspaceId: string,
    memberId: string,
    input: {
      keyVersion: number;
      publicKey: string;
      sealedKey: string;
      confirmation: string;
      /** Older versions sealed to the same key, for a member who joins after a rotation. */
      olderKeys?: readonly { keyVersion: number; sealedKey: string }[] | undefined;
    },
  ): Promise<Member> {
    const older = input.olderKeys ?? [];
    const versions = new Set(older.map((copy) => copy.keyVersion));
    if (
      versions.size !== older.length ||
      older.some((copy) => copy.keyVersion >= input.keyVersion)
    ) {
      throw new ApiHttpError(
        400,
        'invalid-keys',
        'Each older key version must be given once, and be older than the current one.',
      );
    }
    return this.db.transaction(async (tx) => {
      const { head, actor } = await lockAsMember(tx, workspaceId, userId);
      const as = await requireOwnerOrKeeper(tx, workspaceId, actor, 'confirm members');
      const target = await this.memberRow(tx, workspaceId, memberId, userId);
      if (as === 'keeper' && target.role !== 'owner') {
        throw new ApiHttpError(
          403,
          'not-owner',
          'Only an owner confirms members; while no owner holds the key, an editor confirms an owner back, and nobody else.',
        );
      }
      if (target.status === 'confirmed') {
        throw new ApiHttpError(
          409,
          'already-confirmed',
          'This member is confirmed already; a new key reaches them through a rotation.',
        );
      }
      requireCurrentKey(input.keyVersion, head.keyVersion);
      requirePublishedKey(target, input.publicKey, 'sealed to');
      await this.keepConfirmation(tx, workspaceId, memberId, userId, input.confirmation);
      await tx.insert(workspaceMemberKeys).values(
        [{ keyVersion: input.keyVersion, sealedKey: input.sealedKey }, ...older].map((copy) => ({
          workspaceId,
          userId: memberId,
          keyVersion: copy.keyVersion,
          sealedKey: fromBase64(copy.sealedKey),
        })),
      );
      await tx
        .update(workspaceMembers)
        .set({ status: 'confirmed' })
        .where(
          and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, memberId)),
        );
      return {
        ...target,
        status: 'confirmed',
        keyVersion: input.keyVersion,
        myConfirmation: input.confirmation,
      };
    });
  }

  /**
   * An owner keeps their own record of a confirmed member's key (confirmed by another owner, or
   * before records were kept), after comparing fingerprints with them.
   */
  async recordConfirmation(
    userId: string,
    workspaceId: string,
    memberId: string,
    input: { publicKey: string; confirmation: string },
  ): Promise<Member> {
    return this.db.transaction(async (tx) => {
      const { actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'confirm members');
      const target = await this.memberRow(tx, workspaceId, memberId, userId);
      if (target.status !== 'confirmed') {
        throw new ApiHttpError(
          409,
          'not-confirmed',
          'This member is not confirmed yet: confirm them, which seals the workspace key to them.',
        );
      }
      requirePublishedKey(target, input.publicKey, 'confirmed');
      await this.keepConfirmation(tx, workspaceId, memberId, userId, input.confirmation);
      return { ...target, myConfirmation: input.confirmation };
    });
  }

  private async keepConfirmation(
    tx: DocketTransaction,
    workspaceId: string,
    memberUserId: string,
    confirmedBy: string,
    confirmation: string,
  ): Promise<void> {
    await tx
      .insert(workspaceKeyConfirmations)
      .values({ workspaceId, memberUserId, confirmedBy, sealed: fromBase64(confirmation) })
      .onConflictDoUpdate({
        target: [
          workspaceKeyConfirmations.workspaceId,
          workspaceKeyConfirmations.memberUserId,
          workspaceKeyConfirmations.confirmedBy,
        ],
        set: { sealed: fromBase64(confirmation), createdAt: sql`now()` },
      });
  }

  /** An owner changes a member's role; the last confirmed owner cannot stop being one. */
  async changeRole(
    userId: string,
    workspaceId: string,
    memberId: string,
    role: WorkspaceRole,
  ): Promise<Member> {
    return this.db.transaction(async (tx) => {
      const { actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'change roles');
      const target = await this.memberRow(tx, workspaceId, memberId, userId);
      if (target.role === 'owner' && role !== 'owner') {
        await this.requireAnotherOwner(tx, workspaceId, memberId, 'stop being one');
      }
      await tx
        .update(workspaceMembers)
        .set({ role })
        .where(
          and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, memberId)),
        );
      return { ...target, role };
    });
  }

  /**
   * Removes a member (an owner) or leaves (the member's own id): one step either way. An owner
   * removing a confirmed member must bring the key rotation with it, so the removed member's
   * key opens nothing pushed after; a confirmed member leaving marks the workspace for an
   * owner to rotate. The last confirmed owner can neither leave nor be removed.
   */
  async remove(
    userId: string,
    workspaceId: string,
    memberId: string,
    rotation: KeyRotation | undefined,
  ): Promise<{ keyVersion: number }> {
    return this.db.transaction(async (tx) => {
      const { head, actor } = await lockAsMember(tx, workspaceId, userId);
      const leaving = memberId === userId;
      if (!leaving || rotation !== undefined) {
        requireOwner(actor, leaving ? 'rotate its key' : 'remove members');
      }
      const target = await this.memberRow(tx, workspaceId, memberId, userId);
      if (target.role === 'owner') {
        await this.requireAnotherOwner(tx, workspaceId, memberId, leaving ? 'leave' : 'be removed');
      }
      const heldKey = target.status === 'confirmed';
      if (heldKey && !leaving && rotation === undefined) {
        throw new ApiHttpError(
          409,
          'rotation-required',
          "Removing a confirmed member rotates the workspace's key: send the next key version sealed to each member who stays, with the removal.",
        );
      }
      await tx
        .delete(workspaceMembers)
        .where(
          and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, memberId)),
        );
      // Their copies of the keys go too: the server keeps nothing for someone who is gone.
      await tx
        .delete(workspaceMemberKeys)
        .where(
          and(
            eq(workspaceMemberKeys.workspaceId, workspaceId),
            eq(workspaceMemberKeys.userId, memberId),
          ),
        );
      await tx
        .delete(workspaceKeyConfirmations)
        .where(
          and(
            eq(workspaceKeyConfirmations.workspaceId, workspaceId),
            or(
              eq(workspaceKeyConfirmations.memberUserId, memberId),
              eq(workspaceKeyConfirmations.confirmedBy, memberId),
            ),
          ),
        );
      if (rotation !== undefined) {
        return { keyVersion: await this.applyRotation(tx, workspaceId, head, rotation) };
      }
      if (heldKey) {
        await tx
          .update(workspaces)
          .set({ rotationDue: true })
          .where(eq(workspaces.id, workspaceId));
      }
      return { keyVersion: head.keyVersion };
    });
  }

  /**
   * Each confirmed member's name as their account has it, for any confirmed member: so a row
   * can say who wrote it (an owner alone sees the members' addresses, keys and roles).
   */
  async memberNames(
    userId: string,
    workspaceId: string,
  ): Promise<{ members: Array<{ userId: string; name: string }> }> {
    return this.db.transaction(async (tx) => {
      const actor = await membershipOf(tx, workspaceId, userId);
      if (actor === null) throw notAMember();
      requireConfirmed(actor);
      const rows = await tx
        .select({ userId: user.id, name: user.name })
        .from(workspaceMembers)
        .innerJoin(user, eq(user.id, workspaceMembers.userId))
        .where(
          and(
            eq(workspaceMembers.workspaceId, workspaceId),
            eq(workspaceMembers.status, 'confirmed'),
          ),
        )
        .orderBy(asc(user.id));
      return { members: rows };
    });
  }

  /** A confirmed member's key ring: every version sealed to them, oldest first. */
  async keyring(
    userId: string,
    workspaceId: string,
  ): Promise<{ keyVersion: number; keys: Array<{ keyVersion: number; sealedKey: string }> }> {
    return this.db.transaction(async (tx) => {
      const actor = await membershipOf(tx, workspaceId, userId);
      if (actor === null) throw notAMember();
      requireConfirmed(actor);
      const [head] = await tx
        .select({ keyVersion: workspaces.keyVersion })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      if (head === undefined) throw notAMember();
      const keys = await tx
        .select({
          keyVersion: workspaceMemberKeys.keyVersion,
          sealedKey: base64Of(workspaceMemberKeys.sealedKey),
        })
        .from(workspaceMemberKeys)
        .where(
          and(
            eq(workspaceMemberKeys.workspaceId, workspaceId),
            eq(workspaceMemberKeys.userId, userId),
          ),
        )
        .orderBy(asc(workspaceMemberKeys.keyVersion));
      return { keyVersion: head.keyVersion, keys };
    });
  }

  /** An owner moves the workspace to key version n+1, sealed to every confirmed member at once. */
  async rotate(
    userId: string,
    workspaceId: string,
    rotation: KeyRotation,
  ): Promise<{ keyVersion: number }> {
    return this.db.transaction(async (tx) => {
      const { head, actor } = await lockAsMember(tx, workspaceId, userId);
      requireOwner(actor, 'rotate its key');
      return { keyVersion: await this.applyRotation(tx, workspaceId, head, rotation) };
    });
  }

  /**
   * Stores the new version's sealed copies, which must be exactly one for each confirmed
   * member (after a removal in the same transaction, those who stay), and moves the workspace
   * to it, its name sealed again under the new key. Members confirmed later are sealed the
   * version current then, and read the name with it.
   */
  private async applyRotation(
    tx: DocketTransaction,
    workspaceId: string,
    head: WorkspaceHead,
    rotation: KeyRotation,
  ): Promise<number> {
    if (rotation.keyVersion !== head.keyVersion + 1) {
      throw new ApiHttpError(
        409,
        'key-version-conflict',
        `The workspace's key is at version ${head.keyVersion}: a rotation makes version ${head.keyVersion + 1}, not ${rotation.keyVersion}. Read the workspace again and rotate from there.`,
      );
    }
    const confirmed = await tx
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.status, 'confirmed'),
        ),
      );
    const expected = new Set(confirmed.map((row) => row.userId ?? ''));
    const given = new Set(rotation.sealedKeys.map((entry) => entry.userId));
    const missing = [...expected].filter((id) => !given.has(id));
    const extra = [...given].filter((id) => !expected.has(id));
    if (given.size !== rotation.sealedKeys.length || missing.length > 0 || extra.length > 0) {
      throw new ApiHttpError(
        409,
        'members-changed',
        `A rotation seals the new key once to each confirmed member, no one else${missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''}${extra.length > 0 ? `; not confirmed members: ${extra.join(', ')}` : ''}${given.size !== rotation.sealedKeys.length ? '; a member is named twice' : ''}. Read the members again and seal to them.`,
      );
    }
    await tx.insert(workspaceMemberKeys).values(
      rotation.sealedKeys.map((entry) => ({
        workspaceId,
        userId: entry.userId,
        keyVersion: rotation.keyVersion,
        sealedKey: fromBase64(entry.sealedKey),
      })),
    );
    await tx
      .update(workspaces)
      .set({
        keyVersion: rotation.keyVersion,
        rotationDue: false,
        sealedName: fromBase64(rotation.sealedName),
      })
      .where(eq(workspaces.id, workspaceId));
    return rotation.keyVersion;
  }

  /** A member (accepted or confirmed) by account id, as an owner sees them; 404 otherwise. */
  private async memberRow(
    tx: DocketTransaction,
    workspaceId: string,
    memberId: string,
    /** The owner reading: whose record of the member's key comes with it. */
    readerId: string,
  ): Promise<Member> {
    const [row] = await tx
      .select({
        email: workspaceMembers.email,
        displayName: user.name,
        role: workspaceMembers.role,
        status: workspaceMembers.status,
        publicKey: nullableBase64Of(userPublicKeys.publicKey),
        keyVersion: newestSealedVersion,
        myConfirmation: nullableBase64Of(workspaceKeyConfirmations.sealed),
      })
      .from(workspaceMembers)
      .leftJoin(user, eq(user.id, workspaceMembers.userId))
      .leftJoin(userPublicKeys, eq(userPublicKeys.userId, workspaceMembers.userId))
      .leftJoin(workspaceKeyConfirmations, confirmationBy(readerId))
      .where(
        and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, memberId)),
      );
    if (row !== undefined) return { ...row, userId: memberId };
    // An account invited but not yet accepted has no membership to act on: say so, rather
    // than that there is nobody (the owner knows the address).
    const [invited] = await tx
      .select({ email: workspaceMembers.email })
      .from(workspaceMembers)
      .innerJoin(user, sql`lower(${user.email}) = ${workspaceMembers.email}`)
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(user.id, memberId),
          eq(workspaceMembers.status, 'invited'),
        ),
      );
    if (invited !== undefined) {
      throw new ApiHttpError(
        409,
        'not-accepted',
        `${invited.email} has not accepted the invitation yet: a member is confirmed only after accepting.`,
      );
    }
    throw new ApiHttpError(
      404,
      'member-not-found',
      'That account is not a member of this workspace.',
    );
  }

  /** Refuses when no confirmed owner but `memberId` would be left. */
  private async requireAnotherOwner(
    tx: DocketTransaction,
    workspaceId: string,
    memberId: string,
    what: string,
  ): Promise<void> {
    const [others] = await tx
      .select({ n: count() })
      .from(workspaceMembers)
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.role, 'owner'),
          eq(workspaceMembers.status, 'confirmed'),
          ne(workspaceMembers.userId, memberId),
        ),
      );
    if ((others?.n ?? 0) === 0) {
      throw new ApiHttpError(
        409,
        'last-owner',
        `The workspace's last owner cannot ${what}: make another member an owner first, or delete the workspace.`,
      );
    }
  }
}
