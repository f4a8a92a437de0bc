import { and, asc, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb } from '../db/database.ts';
import { backups, publicLinks } from '../db/schema.ts';
import { backupSpaceUsed, lockBackupSpace } from './backup-repository.ts';

export interface StoredLinkSummary {
  id: string;
  backupId: string;
  size: number;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  viewCount: number;
}

export type CreateLinkOutcome =
  | { kind: 'created'; link: StoredLinkSummary }
  | { kind: 'no-backup' }
  | { kind: 'exists' }
  | { kind: 'too-many' }
  | { kind: 'quota-exceeded'; usedBytes: number };

export type OpenLinkOutcome =
  | {
      kind: 'open';
      link: { id: string; createdAt: string; expiresAt: string | null; ciphertext: string };
    }
  | { kind: 'revoked' }
  | { kind: 'expired' }
  | { kind: 'unknown' };

const summaryColumns = {
  id: publicLinks.id,
  backupId: publicLinks.backupId,
  size: publicLinks.size,
  createdAt: publicLinks.createdAt,
  expiresAt: publicLinks.expiresAt,
  revokedAt: publicLinks.revokedAt,
  viewCount: publicLinks.viewCount,
};

/**
 * Public links. Creating, listing and revoking are scoped to the signed-in user; opening is by
 * id alone, for anyone, and counts a view. Time comes from the database (`now()`), so every
 * server process agrees on whether a link has expired.
 */
export class PublicLinkRepository {
  constructor(private readonly db: DocketDb) {}

  async create(
    userId: string,
    input: {
      id: string;
      backupId: string;
      ciphertext: string;
      size: number;
      expiresAt: Date | null;
    },
    limits: { maxPerBackup: number; maxBackupSpaceBytes: number },
  ): Promise<CreateLinkOutcome> {
    return this.db.transaction(async (tx) => {
      await lockBackupSpace(tx, userId);
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`links:${userId}:${input.backupId}`}))`,
      );
      // Checked and locked inside the transaction: a delete of the backup either committed
      // before (no row: 404) or waits for this insert and then takes the new link with it.
      const [backup] = await tx
        .select({ id: backups.id })
        .from(backups)
        .where(and(eq(backups.userId, userId), eq(backups.id, input.backupId)))
        .for('key share');
      if (backup === undefined) return { kind: 'no-backup' };
      const [counted] = await tx
        .select({ n: count() })
        .from(publicLinks)
        .where(and(eq(publicLinks.userId, userId), eq(publicLinks.backupId, input.backupId)));
      if ((counted?.n ?? 0) >= limits.maxPerBackup) return { kind: 'too-many' };
      const usedBytes = await backupSpaceUsed(tx, userId);
      if (usedBytes + input.size > limits.maxBackupSpaceBytes) {
        return { kind: 'quota-exceeded', usedBytes };
      }
      const inserted = await tx
        .insert(publicLinks)
        .values({
          id: input.id,
          userId,
          backupId: input.backupId,
          ciphertext: fromBase64(input.ciphertext),
          size: input.size,
          expiresAt: input.expiresAt,
        })
        .onConflictDoNothing({ target: publicLinks.id })
        .returning(summaryColumns);
      const [row] = inserted;
      return row === undefined ? { kind: 'exists' } : { kind: 'created', link: linkSummary(row) };
    });
  }

  async list(userId: string, backupId: string): Promise<StoredLinkSummary[]> {
    const rows = await this.db
      .select(summaryColumns)
      .from(publicLinks)
      .where(and(eq(publicLinks.userId, userId), eq(publicLinks.backupId, backupId)))
      .orderBy(asc(publicLinks.createdAt), publicLinks.id);
    return rows.map(linkSummary);
  }

  /** Revokes the user's link and drops its ciphertext; null when the user has no such link. */
  async revoke(userId: string, id: string): Promise<StoredLinkSummary | null> {
    const [row] = await this.db
      .update(publicLinks)
      .set({ revokedAt: sql`coalesce(${publicLinks.revokedAt}, now())`, ciphertext: null })
      .where(and(eq(publicLinks.userId, userId), eq(publicLinks.id, id)))
      .returning(summaryColumns);
    return row === undefined ? null : linkSummary(row);
  }

  /** Hands out the ciphertext of a live link and counts the view, in one statement. */
  async open(id: string): Promise<OpenLinkOutcome> {
    const [live] = await this.db
      .update(publicLinks)
      .set({ viewCount: sql`${publicLinks.viewCount} + 1` })
      .where(
        and(
          eq(publicLinks.id, id),
          isNull(publicLinks.revokedAt),
          or(isNull(publicLinks.expiresAt), gt(publicLinks.expiresAt, sql`now()`)),
        ),
      )
      .returning({
        id: publicLinks.id,
        createdAt: publicLinks.createdAt,
        expiresAt: publicLinks.expiresAt,
        ciphertext: base64Of(publicLinks.ciphertext),
      });
    if (live !== undefined) {
      return {
        kind: 'open',
        link: {
          id: live.id,
          createdAt: live.createdAt.toISOString(),
          expiresAt: live.expiresAt?.toISOString() ?? null,
          ciphertext: live.ciphertext,
        },
      };
    }
    const [dead] = await this.db
      .select({ revokedAt: publicLinks.revokedAt })
      .from(publicLinks)
      .where(eq(publicLinks.id, id));
    if (dead === undefined) return { kind: 'unknown' };
    return dead.revokedAt === null ? { kind: 'expired' } : { kind: 'revoked' };
  }
}

function linkSummary(row: {
  id: string;
  backupId: string;
  size: number;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  viewCount: number;
}): StoredLinkSummary {
  return {
    id: row.id,
    backupId: row.backupId,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    viewCount: row.viewCount,
  };
}
