import type { SyncSettings, SyncSettingsWrite } from '@docket/protocol/sync-settings';
import { eq } from 'drizzle-orm';
import type { DocketDb, DocketTransaction } from '../db/database.ts';
import { userSyncSettings } from '../db/schema.ts';
import { notifyNudge } from '../sync/sync-nudge-bus.ts';
import { lockSyncLog } from './sync-log-lock.ts';

export type SettingsWriteOutcome =
  | { kind: 'written'; settings: SyncSettings }
  | { kind: 'version-conflict'; current: SyncSettings }
  | { kind: 'epoch-regression'; current: SyncSettings };

/** What a user who never wrote settings has: version 0, no cloud password, epoch 0. */
const NO_SETTINGS: SyncSettings = {
  version: 0,
  passwordHash: null,
  keyDerivation: null,
  wrappedDataKey: null,
  keyEpoch: 0,
  epochStartSeqno: 0,
  updatedAt: null,
};

/** Sync settings, always of one user (the signed-in one), written only by compare-and-set. */
export class SyncSettingsRepository {
  constructor(private readonly db: DocketDb) {}

  async get(userId: string): Promise<SyncSettings> {
    return readSettings(this.db, userId);
  }

  /**
   * Writes `fields` if the stored version is still `expectedVersion`, as version + 1. Raising
   * `keyEpoch` (a password reset) records where the new epoch starts in the log; lowering it is
   * refused, since changes of the newer epoch are already out there.
   */
  async compareAndSet(
    userId: string,
    expectedVersion: number,
    fields: SyncSettingsWrite,
  ): Promise<SettingsWriteOutcome> {
    return this.db.transaction(async (tx) => {
      // The log lock orders this write against pushes: a push checks its epoch under the same
      // lock, so none made under the old key can land after the new epoch is in place.
      const { lastSeqno } = await lockSyncLog(tx, userId);
      const current = await readSettings(tx, userId);
      if (current.version !== expectedVersion) return { kind: 'version-conflict', current };
      if (fields.keyEpoch < current.keyEpoch) return { kind: 'epoch-regression', current };
      const values = {
        version: current.version + 1,
        passwordHash: fields.passwordHash,
        keyDerivation: fields.keyDerivation,
        wrappedDataKey: fields.wrappedDataKey,
        keyEpoch: fields.keyEpoch,
        epochStartSeqno: fields.keyEpoch > current.keyEpoch ? lastSeqno : current.epochStartSeqno,
        updatedAt: new Date(),
      };
      await tx
        .insert(userSyncSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userSyncSettings.userId, set: values });
      const settings = await readSettings(tx, userId);
      // A password change must reach the other devices as surely as a new change does.
      await notifyNudge(tx, userId, { latestSeqno: lastSeqno, settingsVersion: settings.version });
      return { kind: 'written', settings };
    });
  }
}

/** The user's settings (or the defaults), in a transaction or outside one. */
export async function readSettings(
  db: DocketDb | DocketTransaction,
  userId: string,
): Promise<SyncSettings> {
  const [row] = await db.select().from(userSyncSettings).where(eq(userSyncSettings.userId, userId));
  if (row === undefined) return NO_SETTINGS;
  return {
    version: row.version,
    passwordHash: row.passwordHash,
    keyDerivation: row.keyDerivation,
    wrappedDataKey: row.wrappedDataKey,
    keyEpoch: row.keyEpoch,
    epochStartSeqno: row.epochStartSeqno,
    updatedAt: row.updatedAt.toISOString(),
  };
}
