import { and, eq, sql, sum } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb } from '../db/database.ts';
import { syncBlobs } from '../db/schema.ts';

export type PutBlobOutcome =
  { kind: 'stored'; created: boolean } | { kind: 'quota-exceeded'; usedBytes: number };

/**
 * Each user's encrypted blobs by the SHA-256 of their bytes. Blobs are never shared between
 * users, even when two users put the same bytes: whether someone else has a blob must not be
 * something a user can find out.
 */
export class SyncBlobRepository {
  constructor(private readonly db: DocketDb) {}

  /**
   * Stores the blob unless the user has it already (the caller has checked the address), or
   * refuses it when it would take the user's blobs past `maxTotalBytes`.
   */
  async put(
    userId: string,
    sha256: string,
    bytes: Buffer,
    maxTotalBytes: number,
  ): Promise<PutBlobOutcome> {
    return this.db.transaction(async (tx) => {
      // Serialises puts of one user, so two at once cannot both pass the quota.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`blobs:${userId}`}))`);
      const [existing] = await tx
        .select({ sha256: syncBlobs.sha256 })
        .from(syncBlobs)
        .where(and(eq(syncBlobs.userId, userId), eq(syncBlobs.sha256, sha256)));
      if (existing !== undefined) return { kind: 'stored', created: false };
      const [used] = await tx
        .select({ bytes: sum(syncBlobs.size).mapWith(Number) })
        .from(syncBlobs)
        .where(eq(syncBlobs.userId, userId));
      const usedBytes = used?.bytes ?? 0;
      if (usedBytes + bytes.length > maxTotalBytes) return { kind: 'quota-exceeded', usedBytes };
      const inserted = await tx
        .insert(syncBlobs)
        .values({ userId, sha256, bytes: fromBase64(bytes.toString('base64')), size: bytes.length })
        .onConflictDoNothing({ target: [syncBlobs.userId, syncBlobs.sha256] })
        .returning({ sha256: syncBlobs.sha256 });
      return { kind: 'stored', created: inserted.length > 0 };
    });
  }

  /** The blob's size, or null when the user has no blob there; reads no bytes. */
  async sizeOf(userId: string, sha256: string): Promise<number | null> {
    const [row] = await this.db
      .select({ size: syncBlobs.size })
      .from(syncBlobs)
      .where(and(eq(syncBlobs.userId, userId), eq(syncBlobs.sha256, sha256)));
    return row === undefined ? null : row.size;
  }

  async get(userId: string, sha256: string): Promise<Buffer | null> {
    const [row] = await this.db
      .select({ bytes: base64Of(syncBlobs.bytes) })
      .from(syncBlobs)
      .where(and(eq(syncBlobs.userId, userId), eq(syncBlobs.sha256, sha256)));
    return row === undefined ? null : Buffer.from(row.bytes, 'base64');
  }
}
