import type { MemberStatus, WorkspaceRole } from '@docket/protocol/workspaces';
import { and, eq } from 'drizzle-orm';
import type { DocketDb, DocketTransaction } from '../db/database.ts';
import { workspaceMembers, workspaces } from '../db/schema.ts';
import { ApiHttpError } from '../http/api-error.ts';

// Who may do what in a workspace, decided in one place on rows the server can read. Every
// writer locks the workspace row first (`lockWorkspace`), then reads the actor's membership in
// the same transaction: a removal, a role change, a rotation and a push of one workspace run one
// at a time, so none of them acts on a membership or key version another has just changed.
// Refusals are thrown, which also rolls the transaction back.

export interface WorkspaceHead {
  keyVersion: number;
  lastSeqno: number;
  logBytes: number;
}

export interface Membership {
  userId: string;
  email: string;
  role: WorkspaceRole;
  status: MemberStatus;
}

/** Locks the workspace for the rest of `tx`; null when there is no such workspace. */
export async function lockWorkspace(
  tx: DocketTransaction,
  workspaceId: string,
): Promise<WorkspaceHead | null> {
  const [head] = await tx
    .select({
      keyVersion: workspaces.keyVersion,
      lastSeqno: workspaces.lastSeqno,
      logBytes: workspaces.logBytes,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
  return head ?? null;
}

/** The account's membership of the workspace (accepted or confirmed), or null. */
export async function membershipOf(
  db: DocketDb | DocketTransaction,
  workspaceId: string,
  userId: string,
): Promise<Membership | null> {
  const [row] = await db
    .select({
      email: workspaceMembers.email,
      role: workspaceMembers.role,
      status: workspaceMembers.status,
    })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row === undefined ? null : { ...row, userId };
}

/**
 * The same answer for a workspace that does not exist and one the account is not in (never
 * was, was removed, left): a workspace's id tells an outsider nothing.
 */
export function notAMember(): ApiHttpError {
  return new ApiHttpError(403, 'not-a-member', 'You are not a member of this workspace.');
}

/** Locks the workspace and returns it with the actor's membership; 403 when they have none. */
export async function lockAsMember(
  tx: DocketTransaction,
  workspaceId: string,
  userId: string,
): Promise<{ head: WorkspaceHead; actor: Membership }> {
  const head = await lockWorkspace(tx, workspaceId);
  const actor = head === null ? null : await membershipOf(tx, workspaceId, userId);
  if (head === null || actor === null) throw notAMember();
  return { head, actor };
}

/** Owners who hold the key manage members and keys; `action` says what was refused. */
export function requireOwner(actor: Membership, action: string): void {
  if (actor.role !== 'owner') {
    throw new ApiHttpError(403, 'not-owner', `Only an owner of this workspace can ${action}.`);
  }
  requireConfirmed(actor);
}

/** Whether an owner of the workspace holds its key (false after each owner's key was replaced). */
export async function hasConfirmedOwner(
  tx: DocketTransaction,
  workspaceId: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.role, 'owner'),
        eq(workspaceMembers.status, 'confirmed'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * An owner, or, while no owner holds the key (each owner's key was replaced after a cloud-password
 * reset), a confirmed editor: the one who can read the members and confirm an owner back, so a
 * team whose only owner reset their cloud password is not left without one.
 */
export async function requireOwnerOrKeeper(
  tx: DocketTransaction,
  workspaceId: string,
  actor: Membership,
  action: string,
): Promise<'owner' | 'keeper'> {
  if (actor.role === 'owner') {
    requireOwner(actor, action);
    return 'owner';
  }
  if (actor.role === 'editor' && actor.status === 'confirmed') {
    if (!(await hasConfirmedOwner(tx, workspaceId))) return 'keeper';
  }
  requireOwner(actor, action);
  return 'owner';
}

/** A member the owner has not confirmed yet holds no key: they can neither read nor write. */
export function requireConfirmed(actor: Membership): void {
  if (actor.status !== 'confirmed') {
    throw new ApiHttpError(
      403,
      'not-confirmed',
      "An owner of this workspace has not confirmed you yet: you do not hold its key. Ask them to open the workspace's members and confirm you.",
    );
  }
}

/** Viewers read; editors and owners also write. */
export function requireWriter(actor: Membership): void {
  requireConfirmed(actor);
  if (actor.role === 'viewer') {
    throw new ApiHttpError(
      403,
      'read-only',
      'You are a viewer of this workspace: you can read it but not change it.',
    );
  }
}

/**
 * Compares the key version a client used with the workspace's: an older one means the key was
 * rotated (the client must read its new copy and seal again), a newer one does not exist yet.
 */
export function requireCurrentKey(used: number, current: number): void {
  if (used < current) {
    throw new ApiHttpError(
      409,
      'key-rotated',
      `This was sealed under key version ${used}, but the workspace's key was rotated to version ${current}. Read your workspaces again for the new key and seal it again.`,
    );
  }
  if (used > current) {
    throw new ApiHttpError(
      409,
      'key-version-unknown',
      `The workspace's key is at version ${current}; there is no version ${used}.`,
    );
  }
}
