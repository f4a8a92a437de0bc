import { PULL_PAGE_TARGET_BYTES } from '@docket/protocol/sync-changes';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb } from '../db/database.ts';
import { workspaceChanges, workspaces } from '../db/schema.ts';
import { isSameBatch, pageLength } from './change-log-rules.ts';
import type { PushedBatch, PushOutcome, StoredChange } from './sync-change-repository.ts';
import {
  lockAsMember,
  membershipOf,
  notAMember,
  requireConfirmed,
  requireCurrentKey,
  requireWriter,
} from './workspace-access.ts';

export interface WorkspaceChangePage {
  changes: Array<StoredChange & { authorUserId: string }>;
  hasMore: boolean;
  latestSeqno: number;
}

/** A push refused for its key version is thrown (workspace-access.ts), not returned. */
export type WorkspacePushOutcome = Exclude<PushOutcome, { kind: 'epoch-mismatch' }>;

/**
 * Each workspace's append-only log of encrypted changes: the personal log's protocol and rules
 * (change-log-rules.ts), numbered under the workspace row's lock, with the key version in the
 * place of the key epoch. Every method checks the account's membership first: a viewer's push,
 * a removed member's pull and an outsider's anything are refused with 403.
 */
export class WorkspaceChangeRepository {
  constructor(
    private readonly db: DocketDb,
    private readonly pageTargetBytes = PULL_PAGE_TARGET_BYTES,
  ) {}

  /**
   * Appends the batch, as the personal log does (a repeated batch gets its first answer, a
   * reused id 409, the quota is the workspace's own). Changes sealed under an older key version
   * than the workspace's are refused (`key-rotated`): after a rotation, nothing lands under a
   * key a removed member holds. The version is checked under the lock a rotation takes too.
   */
  async push(
    userId: string,
    workspaceId: string,
    batch: PushedBatch,
    maxLogBytes: number,
  ): Promise<WorkspacePushOutcome> {
    return this.db.transaction(async (tx) => {
      const { head, actor } = await lockAsMember(tx, workspaceId, userId);
      requireWriter(actor);
      const earlier = await tx
        .select({
          seqno: workspaceChanges.seqno,
          changeId: workspaceChanges.changeId,
          deviceId: workspaceChanges.deviceId,
          pushedBy: workspaceChanges.pushedBy,
        })
        .from(workspaceChanges)
        .where(
          and(
            eq(workspaceChanges.workspaceId, workspaceId),
            eq(workspaceChanges.clientBatchId, batch.batchId),
          ),
        )
        .orderBy(asc(workspaceChanges.batchIndex));
      if (earlier.length > 0) {
        // Another member's batch id is theirs: the same ids from someone else are a conflict.
        const same = isSameBatch(earlier, batch) && earlier.every((row) => row.pushedBy === userId);
        if (!same) return { kind: 'batch-conflict' };
        return {
          kind: 'stored',
          seqnos: earlier.map((row) => row.seqno),
          duplicate: true,
          latestSeqno: head.lastSeqno,
        };
      }
      requireCurrentKey(batch.epoch, head.keyVersion);

      const batchBytes = batch.envelopes.reduce(
        (total, envelope) => total + base64ByteLength(envelope.ciphertext),
        0,
      );
      if (head.logBytes + batchBytes > maxLogBytes) {
        return { kind: 'quota-exceeded', usedBytes: head.logBytes };
      }
      const seqnos = batch.envelopes.map((_envelope, index) => head.lastSeqno + 1 + index);
      const latestSeqno = head.lastSeqno + batch.envelopes.length;
      await tx.insert(workspaceChanges).values(
        batch.envelopes.map((envelope, index) => ({
          workspaceId,
          seqno: head.lastSeqno + 1 + index,
          changeId: envelope.id,
          deviceId: batch.deviceId,
          clientBatchId: batch.batchId,
          batchIndex: index,
          epoch: batch.epoch,
          ciphertext: fromBase64(envelope.ciphertext),
          pushedBy: userId,
        })),
      );
      await tx
        .update(workspaces)
        .set({ lastSeqno: latestSeqno, logBytes: head.logBytes + batchBytes })
        .where(eq(workspaces.id, workspaceId));
      return { kind: 'stored', seqnos, duplicate: false, latestSeqno };
    });
  }

  /**
   * A page of the workspace's log after `since`, for a confirmed member of any role. Pushes
   * number and commit under the workspace's lock, so a page never skips a change.
   */
  async pull(
    userId: string,
    workspaceId: string,
    since: number,
    limit: number,
  ): Promise<WorkspaceChangePage> {
    const actor = await membershipOf(this.db, workspaceId, userId);
    if (actor === null) throw notAMember();
    requireConfirmed(actor);
    const [head] = await this.db
      .select({ lastSeqno: workspaces.lastSeqno })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    const latestSeqno = head?.lastSeqno ?? 0;
    const sizes = await this.db
      .select({
        seqno: workspaceChanges.seqno,
        size: sql<number>`octet_length(${workspaceChanges.ciphertext})`.mapWith(Number),
      })
      .from(workspaceChanges)
      .where(and(eq(workspaceChanges.workspaceId, workspaceId), gt(workspaceChanges.seqno, since)))
      .orderBy(asc(workspaceChanges.seqno))
      .limit(limit + 1);
    const taken = pageLength(sizes, limit, this.pageTargetBytes);
    const last = sizes[taken - 1];
    if (last === undefined) return { changes: [], hasMore: false, latestSeqno };
    const changes = await this.db
      .select({
        seqno: workspaceChanges.seqno,
        id: workspaceChanges.changeId,
        deviceId: workspaceChanges.deviceId,
        batchId: workspaceChanges.clientBatchId,
        epoch: workspaceChanges.epoch,
        ciphertext: base64Of(workspaceChanges.ciphertext),
        authorUserId: workspaceChanges.pushedBy,
      })
      .from(workspaceChanges)
      .where(
        and(
          eq(workspaceChanges.workspaceId, workspaceId),
          gt(workspaceChanges.seqno, since),
          lte(workspaceChanges.seqno, last.seqno),
        ),
      )
      .orderBy(asc(workspaceChanges.seqno));
    return {
      changes,
      hasMore: sizes.length > taken,
      latestSeqno: Math.max(latestSeqno, last.seqno),
    };
  }
}
