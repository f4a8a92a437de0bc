import { eq } from 'drizzle-orm';
import type { DocketTransaction } from '../db/database.ts';
import { syncLogHead } from '../db/schema.ts';

export interface SyncLogHead {
  lastSeqno: number;
  /** Bytes of ciphertext the log holds, for the quota. */
  logBytes: number;
}

/**
 * Locks the user's log head for the rest of `tx` and returns the last sequence number handed
 * out and the log's size. Every writer of a user's log or settings takes this lock first, so they run one at a time
 * per user (other users are not held up) and commit in the order they numbered their changes.
 * Under READ COMMITTED each later statement of `tx` sees what the previous holder committed.
 */
export async function lockSyncLog(tx: DocketTransaction, userId: string): Promise<SyncLogHead> {
  // Two first pushes of a new user race here; the loser waits for the winner's row, then finds it.
  await tx
    .insert(syncLogHead)
    .values({ userId })
    .onConflictDoNothing({ target: syncLogHead.userId });
  const [head] = await tx
    .select({ lastSeqno: syncLogHead.lastSeqno, logBytes: syncLogHead.logBytes })
    .from(syncLogHead)
    .where(eq(syncLogHead.userId, userId))
    .for('update');
  if (head === undefined) throw new Error('The sync log head vanished after it was written');
  return head;
}

/** Moves the head after a writer appended changes up to `head.lastSeqno`. */
export async function advanceSyncLog(
  tx: DocketTransaction,
  userId: string,
  head: SyncLogHead,
): Promise<void> {
  await tx.update(syncLogHead).set(head).where(eq(syncLogHead.userId, userId));
}
