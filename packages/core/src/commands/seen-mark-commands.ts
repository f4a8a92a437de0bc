import type { BillCommandContext } from './bill-command-context.ts';
import { BillCommandError, commandTime } from './bill-command-context.ts';
import type { SeenMark } from '../store/local-records.ts';
import { seenMarkSchema } from '../store/local-records.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// "Mark all as seen": the user's seen marks, one per bill, written through the outbox so they
// sync like positions. A mark says "seen up to now on this device" (its time) and "seen as the
// bill was" (the change hash the newest change left), so a device that records the same change
// later, at its own refresh, still knows the user has seen it (change-feed.ts, `isSeen`).

export interface SeenTarget {
  billId: string;
  /** The change hash the newest change the user saw left the bill at. */
  toHash: string;
}

/** At most this many bills are marked in one command. */
export const MAX_SEEN_MARKS = 10_000;

/** Marks the given bills' changes as seen; returns how many marks it wrote. */
export async function markChangesSeen(
  context: BillCommandContext,
  targets: readonly SeenTarget[],
): Promise<number> {
  if (targets.length > MAX_SEEN_MARKS) {
    throw new BillCommandError(
      'invalid-input',
      `At most ${MAX_SEEN_MARKS} bills can be marked as seen at once, not ${targets.length}.`,
    );
  }
  const { nowMs, at } = commandTime(context);
  const rows: SeenMark[] = targets.map((target) =>
    seenMarkSchema.parse({ billId: target.billId, changeHash: target.toHash, seenAt: at }),
  );
  if (rows.length === 0) return 0;
  return context.store.write(['seenMarks', ...outboxTables], async (tx) => {
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.putMany(
      'seenMarks',
      rows.map((row) => ({ row })),
    );
    await outbox.close();
    return rows.length;
  });
}
