import { z } from 'zod';
import type { OutboxEntry } from '../store/local-records.ts';
import type {
  LocalReadTransaction,
  LocalStore,
  LocalWriteTransaction,
} from '../store/local-store.ts';
import type { SyncSession } from './sync-engine.ts';
import type { OutboxEntryRef } from './sync-errors.ts';

// What a device keeps between sync runs, per user, in `device:` settings rows that never sync:
// its pull cursor, and the changes it was told to pass over (the repairs the sync screen offers).

/** The settings row of the pull cursor, per user: `{ epoch, seqno }`. */
export function syncCursorSetting(userId: string): string {
  return `device:sync-cursor:${userId}`;
}

export const cursorSchema = z.object({
  epoch: z.number().int().nonnegative(),
  seqno: z.number().int().nonnegative(),
});
export type SyncCursor = z.infer<typeof cursorSchema>;

/** The settings row of the changes this device was told to skip, per user. */
export function syncSkipSetting(userId: string): string {
  return `device:sync-skip:${userId}`;
}

const skipListSchema = z.array(z.number().int().nonnegative()).max(10_000);

/** The changes this device passes over, by seqno. */
export async function readSkipList(
  store: LocalStore,
  userId: string,
): Promise<ReadonlySet<number>> {
  const row = await store.read(['settings'], (tx) => tx.get('settings', syncSkipSetting(userId)));
  const parsed = skipListSchema.safeParse(row?.value);
  return new Set(parsed.success ? parsed.data : []);
}

/**
 * The repair for a change that cannot be read (tampered, or from a newer Docket): pass over it
 * from now on, so the changes after it can sync. What it held is lost to this device, which the
 * user is told before choosing it; the trace keeps a record.
 */
export async function skipUnreadableChange(
  store: LocalStore,
  userId: string,
  seqno: number,
): Promise<void> {
  await store.write(['settings'], async (tx) => {
    const parsed = skipListSchema.safeParse(
      (await tx.get('settings', syncSkipSetting(userId)))?.value,
    );
    const list = parsed.success ? parsed.data : [];
    if (!list.includes(seqno)) list.push(seqno);
    await tx.put('settings', { key: syncSkipSetting(userId), value: list.slice(-10_000) });
  });
}

/**
 * The repair for an outbox entry too large ever to be sent (`change-too-large`): take it out of
 * the outbox, so the entries after it can go. The row stays on this device as it is; the other
 * devices never get this change, which the user is told before choosing it. Returns what was
 * removed, for the trace (the only record left of it); null when it was gone already.
 */
export async function skipUnsendableChange(
  store: LocalStore,
  entryId: string,
): Promise<(OutboxEntryRef & { readonly op: OutboxEntry['op'] }) | null> {
  return store.write(['outbox'], async (tx) => {
    const entry = await tx.get('outbox', entryId);
    if (entry === undefined) return null;
    await tx.delete('outbox', entryId);
    return { id: entry.id, table: entry.table, rowId: entry.rowId, op: entry.op };
  });
}

/** Where this device's pulls start: the stored cursor under the session's epoch, else the
 *  epoch's start; with the outbox's size. */
export async function readCursor(
  store: LocalStore,
  session: SyncSession,
): Promise<{ cursor: SyncCursor; outboxSize: number }> {
  return store.read(['settings', 'outbox'], async (tx) => ({
    cursor: await storedCursor(tx, session),
    outboxSize: await tx.count('outbox'),
  }));
}

/** The stored cursor when it is under the session's epoch, else the epoch's start. */
export async function storedCursor(
  tx: LocalReadTransaction,
  session: SyncSession,
): Promise<SyncCursor> {
  const stored = cursorSchema.safeParse(
    (await tx.get('settings', syncCursorSetting(session.userId)))?.value,
  );
  return stored.success && stored.data.epoch === session.epoch
    ? stored.data
    : { epoch: session.epoch, seqno: session.epochStartSeqno };
}

export async function writeCursor(
  tx: LocalWriteTransaction,
  session: SyncSession,
  cursor: SyncCursor,
): Promise<void> {
  await tx.put('settings', { key: syncCursorSetting(session.userId), value: cursor });
}
