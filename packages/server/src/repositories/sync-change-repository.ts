import { PULL_PAGE_TARGET_BYTES } from '@docket/protocol/sync-changes';
import type { SyncNudge } from '@docket/protocol/sync-events';
import { base64ByteLength } from '@docket/protocol/sync-wire';
import { and, asc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb } from '../db/database.ts';
import { syncChanges, syncLogHead, userSyncSettings } from '../db/schema.ts';
import { notifyNudge } from '../sync/sync-nudge-bus.ts';
import { isSameBatch, pageLength } from './change-log-rules.ts';
import { advanceSyncLog, lockSyncLog } from './sync-log-lock.ts';
import { readSettings } from './sync-settings-repository.ts';

export interface PushedBatch {
  batchId: string;
  deviceId: string;
  epoch: number;
  /** Ciphertexts in base64, as they came over the wire. */
  envelopes: Array<{ id: string; ciphertext: string }>;
}

export type PushOutcome =
  | { kind: 'stored'; seqnos: number[]; duplicate: boolean; latestSeqno: number }
  | { kind: 'epoch-mismatch'; keyEpoch: number }
  | { kind: 'batch-conflict' }
  | { kind: 'quota-exceeded'; usedBytes: number };

export interface StoredChange {
  seqno: number;
  id: string;
  deviceId: string;
  batchId: string;
  epoch: number;
  /** base64 */
  ciphertext: string;
}

export interface PulledPage {
  changes: StoredChange[];
  hasMore: boolean;
  latestSeqno: number;
}

/** Each user's append-only log of encrypted changes; every method is scoped to one user. */
export class SyncChangeRepository {
  constructor(
    private readonly db: DocketDb,
    /** Tests make it small to see a page cut short without pushing megabytes. */
    private readonly pageTargetBytes = PULL_PAGE_TARGET_BYTES,
  ) {}

  /**
   * Appends the batch under the next sequence numbers, or, when this batch id was stored
   * before with the same change ids in the same order, answers with the numbers it got then and
   * writes nothing; the id reused for other changes is a `batch-conflict`. A batch that would
   * take the log past `maxLogBytes` of ciphertext is refused whole.
   */
  async push(userId: string, batch: PushedBatch, maxLogBytes: number): Promise<PushOutcome> {
    return this.db.transaction(async (tx) => {
      const { lastSeqno, logBytes } = await lockSyncLog(tx, userId);
      // Looked up under the lock: a concurrent push of the same batch has committed by now.
      const earlier = await tx
        .select({
          seqno: syncChanges.seqno,
          changeId: syncChanges.changeId,
          deviceId: syncChanges.deviceId,
        })
        .from(syncChanges)
        .where(and(eq(syncChanges.userId, userId), eq(syncChanges.clientBatchId, batch.batchId)))
        .orderBy(asc(syncChanges.batchIndex));
      if (earlier.length > 0) {
        if (!isSameBatch(earlier, batch)) return { kind: 'batch-conflict' };
        return {
          kind: 'stored',
          seqnos: earlier.map((row) => row.seqno),
          duplicate: true,
          latestSeqno: lastSeqno,
        };
      }

      const settings = await readSettings(tx, userId);
      if (batch.epoch !== settings.keyEpoch) {
        return { kind: 'epoch-mismatch', keyEpoch: settings.keyEpoch };
      }

      const batchBytes = batch.envelopes.reduce(
        (total, envelope) => total + base64ByteLength(envelope.ciphertext),
        0,
      );
      if (logBytes + batchBytes > maxLogBytes) {
        return { kind: 'quota-exceeded', usedBytes: logBytes };
      }

      const seqnos = batch.envelopes.map((_envelope, index) => lastSeqno + 1 + index);
      const latestSeqno = lastSeqno + batch.envelopes.length;
      await tx.insert(syncChanges).values(
        batch.envelopes.map((envelope, index) => ({
          userId,
          seqno: lastSeqno + 1 + index,
          changeId: envelope.id,
          deviceId: batch.deviceId,
          clientBatchId: batch.batchId,
          batchIndex: index,
          epoch: batch.epoch,
          ciphertext: fromBase64(envelope.ciphertext),
        })),
      );
      await advanceSyncLog(tx, userId, {
        lastSeqno: latestSeqno,
        logBytes: logBytes + batchBytes,
      });
      await notifyNudge(tx, userId, { latestSeqno, settingsVersion: settings.version });
      return { kind: 'stored', seqnos, duplicate: false, latestSeqno };
    });
  }

  /**
   * Up to `limit` changes after `since`, cut short once their ciphertext passes the page
   * target (PULL_PAGE_TARGET_BYTES). Sequence numbers are handed out under a lock held to commit, so
   * every number below one a reader sees is already visible: a page never skips a change.
   */
  async pull(userId: string, since: number, limit: number): Promise<PulledPage> {
    const latestSeqno = (await this.readNudge(userId)).latestSeqno;
    // Sizes first (octet_length reads a stored value's header, not the value), so a page of
    // large changes does not fetch what it will not send.
    const sizes = await this.db
      .select({
        seqno: syncChanges.seqno,
        size: sql<number>`octet_length(${syncChanges.ciphertext})`.mapWith(Number),
      })
      .from(syncChanges)
      .where(and(eq(syncChanges.userId, userId), gt(syncChanges.seqno, since)))
      .orderBy(asc(syncChanges.seqno))
      .limit(limit + 1);
    const taken = pageLength(sizes, limit, this.pageTargetBytes);
    const last = sizes[taken - 1];
    if (last === undefined) return { changes: [], hasMore: false, latestSeqno };
    const changes = await this.db
      .select({
        seqno: syncChanges.seqno,
        id: syncChanges.changeId,
        deviceId: syncChanges.deviceId,
        batchId: syncChanges.clientBatchId,
        epoch: syncChanges.epoch,
        ciphertext: base64Of(syncChanges.ciphertext),
      })
      .from(syncChanges)
      .where(
        and(
          eq(syncChanges.userId, userId),
          gt(syncChanges.seqno, since),
          lte(syncChanges.seqno, last.seqno),
        ),
      )
      .orderBy(asc(syncChanges.seqno));
    return {
      changes,
      hasMore: sizes.length > taken,
      latestSeqno: Math.max(latestSeqno, last.seqno),
    };
  }

  /**
   * How many envelopes of the current key epoch after `since` devices other than `deviceId`
   * pushed: what a device whose pull cursor is `since` has not received, and what a reset made
   * there would take out of the account. One statement, so the epoch and the count are of one
   * moment; it reads seqnos, device ids and epochs, never a ciphertext.
   */
  async countUnreceived(userId: string, since: number, deviceId: string): Promise<number> {
    const currentEpoch = sql`coalesce((select ${userSyncSettings.keyEpoch} from ${userSyncSettings} where ${userSyncSettings.userId} = ${userId}), 0)`;
    const [row] = await this.db
      .select({ envelopes: sql<number>`count(*)`.mapWith(Number) })
      .from(syncChanges)
      .where(
        and(
          eq(syncChanges.userId, userId),
          gt(syncChanges.seqno, since),
          ne(syncChanges.deviceId, deviceId),
          eq(syncChanges.epoch, currentEpoch),
        ),
      );
    return row?.envelopes ?? 0;
  }

  /** Where the user's log and settings stand: what a nudge says. */
  async readNudge(userId: string): Promise<SyncNudge> {
    const [head] = await this.db
      .select({ lastSeqno: syncLogHead.lastSeqno })
      .from(syncLogHead)
      .where(eq(syncLogHead.userId, userId));
    const [settings] = await this.db
      .select({ version: userSyncSettings.version })
      .from(userSyncSettings)
      .where(eq(userSyncSettings.userId, userId));
    return { latestSeqno: head?.lastSeqno ?? 0, settingsVersion: settings?.version ?? 0 };
  }
}
