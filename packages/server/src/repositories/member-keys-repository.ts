import { and, eq, or, sql } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb, DocketTransaction } from '../db/database.ts';
import {
  userPublicKeys,
  userSyncSettings,
  workspaceKeyConfirmations,
  workspaceMemberKeys,
  workspaceMembers,
} from '../db/schema.ts';

// An account's member key pair (issue 39): published once, and replaced only after a
// cloud-password reset, when the stored private key is sealed under a data key nobody holds.

/** An account's member key pair, as base64, and the cloud key epoch its private key is under. */
export interface MemberKeys {
  publicKey: string;
  wrappedPrivateKey: string;
  keyEpoch: number;
}

/** What a publish or a replace did. */
export type PublishOutcome =
  | { kind: 'stored'; keys: MemberKeys }
  /** Another public key is stored (published first, or replaced first by another device). */
  | { kind: 'exists' }
  /** The stored pair is from the account's current epoch: it opens, nothing replaces it. */
  | { kind: 'current' }
  /** The new pair is not sealed under the account's current key epoch. */
  | { kind: 'stale-epoch'; keyEpoch: number };

/** `db` is the transaction when called inside one: on PGlite's one connection, another would wait for ever. */
export async function memberKeysOf(
  db: DocketDb | DocketTransaction,
  userId: string,
  lock = false,
): Promise<MemberKeys | null> {
  const query = db
    .select({
      publicKey: base64Of(userPublicKeys.publicKey),
      wrappedPrivateKey: base64Of(userPublicKeys.wrappedPrivateKey),
      keyEpoch: userPublicKeys.keyEpoch,
    })
    .from(userPublicKeys)
    .where(eq(userPublicKeys.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * Publishes the account's member key pair once. The same public key again changes nothing and
 * answers with what is stored; another one is refused ('exists'): owners sealed to the first.
 */
export async function publishMemberKeys(
  db: DocketDb,
  userId: string,
  keys: MemberKeys,
): Promise<PublishOutcome> {
  await db
    .insert(userPublicKeys)
    .values({
      userId,
      publicKey: fromBase64(keys.publicKey),
      wrappedPrivateKey: fromBase64(keys.wrappedPrivateKey),
      keyEpoch: keys.keyEpoch,
    })
    .onConflictDoNothing({ target: userPublicKeys.userId });
  const stored = await memberKeysOf(db, userId);
  if (stored === null) throw new Error('The member keys vanished as they were stored');
  return stored.publicKey === keys.publicKey
    ? { kind: 'stored', keys: stored }
    : { kind: 'exists' };
}

async function currentKeyEpoch(tx: DocketTransaction, userId: string): Promise<number> {
  const [row] = await tx
    .select({ keyEpoch: userSyncSettings.keyEpoch })
    .from(userSyncSettings)
    .where(eq(userSyncSettings.userId, userId));
  return row?.keyEpoch ?? 0;
}

/**
 * Replaces the pair whose public key is `replaces` (compare-and-set), after a cloud-password
 * reset: only with a pair sealed under the account's current key epoch, and only over a pair from
 * an older one. What was sealed to the old public key goes with it, in the same transaction:
 * every copy of a workspace key, every owner's record of having confirmed it, this account's own
 * records (sealed under the lost data key, so unreadable), and the memberships it held the key
 * in go back to accepted, for an owner to compare the new fingerprint and confirm again.
 */
export async function replaceMemberKeys(
  db: DocketDb,
  userId: string,
  keys: MemberKeys,
  replaces: string,
): Promise<PublishOutcome> {
  return db.transaction(async (tx) => {
    const stored = await memberKeysOf(tx, userId, true);
    if (stored === null) return { kind: 'exists' };
    if (stored.publicKey === keys.publicKey) return { kind: 'stored', keys: stored };
    if (stored.publicKey !== replaces) return { kind: 'exists' };
    const keyEpoch = await currentKeyEpoch(tx, userId);
    if (keys.keyEpoch !== keyEpoch) return { kind: 'stale-epoch', keyEpoch };
    if (stored.keyEpoch >= keyEpoch) return { kind: 'current' };
    await tx.delete(workspaceMemberKeys).where(eq(workspaceMemberKeys.userId, userId));
    await tx
      .delete(workspaceKeyConfirmations)
      .where(
        or(
          eq(workspaceKeyConfirmations.memberUserId, userId),
          eq(workspaceKeyConfirmations.confirmedBy, userId),
        ),
      );
    await tx
      .update(workspaceMembers)
      .set({ status: 'accepted' })
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.status, 'confirmed')));
    await tx
      .update(userPublicKeys)
      .set({
        publicKey: fromBase64(keys.publicKey),
        wrappedPrivateKey: fromBase64(keys.wrappedPrivateKey),
        keyEpoch: keys.keyEpoch,
        createdAt: sql`now()`,
      })
      .where(eq(userPublicKeys.userId, userId));
    return { kind: 'stored', keys };
  });
}
