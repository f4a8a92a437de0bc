import { eq, sum } from 'drizzle-orm';
import type { DocketDb } from '../db/database.ts';
import { syncBlobs, syncLogHead } from '../db/schema.ts';
import { backupSpaceUsed } from './backup-repository.ts';

/** Bytes an account uses per kind of room, counted the way each quota counts them. */
export interface AccountSpaceUsed {
  blobs: number;
  log: number;
  backups: number;
}

/** Reads what an account uses, in one transaction, so the three figures are of one moment. */
export function readAccountSpaceUsed(db: DocketDb, userId: string): Promise<AccountSpaceUsed> {
  return db.transaction(async (tx) => {
    const [blobs] = await tx
      .select({ bytes: sum(syncBlobs.size).mapWith(Number) })
      .from(syncBlobs)
      .where(eq(syncBlobs.userId, userId));
    const [head] = await tx
      .select({ bytes: syncLogHead.logBytes })
      .from(syncLogHead)
      .where(eq(syncLogHead.userId, userId));
    return {
      blobs: blobs?.bytes ?? 0,
      log: head?.bytes ?? 0,
      backups: await backupSpaceUsed(tx, userId),
    };
  });
}
