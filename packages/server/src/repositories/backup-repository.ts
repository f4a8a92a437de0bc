import { base64ByteLength } from '@docket/protocol/sync-wire';
import { and, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { base64Of, fromBase64 } from '../db/base64-bytea.ts';
import type { DocketDb, DocketTransaction } from '../db/database.ts';
import { backups, publicLinks } from '../db/schema.ts';

export interface StoredBackupSummary {
  id: string;
  epoch: number;
  metadata: string;
  size: number;
  createdAt: string;
}

export interface StoredBackup extends StoredBackupSummary {
  ciphertext: string;
}

export type CreateBackupOutcome =
  | { kind: 'created'; backup: StoredBackupSummary }
  | { kind: 'exists' }
  | { kind: 'too-many' }
  | { kind: 'quota-exceeded'; usedBytes: number };

export interface BackupLimits {
  maxCount: number;
  /** Bytes of all the user's backups together, sealed names and descriptions included. */
  maxTotalBytes: number;
}

/** Each user's encrypted backups; every query is scoped to the user's id. */
export class BackupRepository {
  constructor(private readonly db: DocketDb) {}

  private readonly summaryColumns = {
    id: backups.id,
    epoch: backups.epoch,
    metadata: base64Of(backups.metadata),
    size: backups.size,
    createdAt: backups.createdAt,
  };

  async create(
    userId: string,
    input: { id: string; epoch: number; metadata: string; ciphertext: string; size: number },
    limits: BackupLimits,
  ): Promise<CreateBackupOutcome> {
    return this.db.transaction(async (tx) => {
      // Serialises creates of one user, so two at once cannot both pass the count.
      await lockBackupSpace(tx, userId);
      const [counted] = await tx
        .select({ n: count() })
        .from(backups)
        .where(eq(backups.userId, userId));
      if ((counted?.n ?? 0) >= limits.maxCount) return { kind: 'too-many' };
      const usedBytes = await backupSpaceUsed(tx, userId);
      const adding = input.size + base64ByteLength(input.metadata);
      if (usedBytes + adding > limits.maxTotalBytes) return { kind: 'quota-exceeded', usedBytes };
      const inserted = await tx
        .insert(backups)
        .values({
          userId,
          id: input.id,
          epoch: input.epoch,
          metadata: fromBase64(input.metadata),
          ciphertext: fromBase64(input.ciphertext),
          size: input.size,
        })
        .onConflictDoNothing({ target: [backups.userId, backups.id] })
        .returning(this.summaryColumns);
      const [row] = inserted;
      return row === undefined ? { kind: 'exists' } : { kind: 'created', backup: summary(row) };
    });
  }

  async list(userId: string): Promise<StoredBackupSummary[]> {
    const rows = await this.db
      .select(this.summaryColumns)
      .from(backups)
      .where(eq(backups.userId, userId))
      .orderBy(desc(backups.createdAt), backups.id);
    return rows.map(summary);
  }

  async get(userId: string, id: string): Promise<StoredBackup | null> {
    const [row] = await this.db
      .select({ ...this.summaryColumns, ciphertext: base64Of(backups.ciphertext) })
      .from(backups)
      .where(and(eq(backups.userId, userId), eq(backups.id, id)));
    return row === undefined ? null : { ...summary(row), ciphertext: row.ciphertext };
  }

  /** Whether the user has this backup, without reading its bytes. */
  async exists(userId: string, id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.userId, userId), eq(backups.id, id)));
    return row !== undefined;
  }

  /** Replaces the sealed name and description; null when the user has no such backup. */
  async updateMetadata(
    userId: string,
    id: string,
    metadata: string,
  ): Promise<StoredBackupSummary | null> {
    const [row] = await this.db
      .update(backups)
      .set({ metadata: fromBase64(metadata) })
      .where(and(eq(backups.userId, userId), eq(backups.id, id)))
      .returning(this.summaryColumns);
    return row === undefined ? null : summary(row);
  }

  /** True when it was there; its links go with it (foreign key, on delete cascade). */
  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(backups)
      .where(and(eq(backups.userId, userId), eq(backups.id, id)))
      .returning({ id: backups.id });
    return deleted.length > 0;
  }
}

/**
 * Takes the user's backup-space lock for the rest of `tx`: every write that adds to the space
 * (a backup, a link's copy) holds it, so two at once cannot both pass the quota.
 */
export async function lockBackupSpace(tx: DocketTransaction, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`backups:${userId}`}))`);
}

/**
 * Bytes the user keeps in backups: their sealed contents, names and descriptions, and the
 * copies held by links that are not revoked (each link is sealed with its own key).
 */
export async function backupSpaceUsed(tx: DocketTransaction, userId: string): Promise<number> {
  const [inBackups] = await tx
    .select({
      bytes: sql`coalesce(sum(${backups.size} + octet_length(${backups.metadata})), 0)`.mapWith(
        Number,
      ),
    })
    .from(backups)
    .where(eq(backups.userId, userId));
  const [inLinks] = await tx
    .select({ bytes: sql`coalesce(sum(${publicLinks.size}), 0)`.mapWith(Number) })
    .from(publicLinks)
    .where(and(eq(publicLinks.userId, userId), isNotNull(publicLinks.ciphertext)));
  return (inBackups?.bytes ?? 0) + (inLinks?.bytes ?? 0);
}

function summary(row: {
  id: string;
  epoch: number;
  metadata: string;
  size: number;
  createdAt: Date;
}): StoredBackupSummary {
  return {
    id: row.id,
    epoch: row.epoch,
    metadata: row.metadata,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}
