import type { BillCommandContext } from './bill-command-context.ts';
import { BillCommandError, commandTime, requireBills } from './bill-command-context.ts';
import type { Position } from '../store/local-records.ts';
import { positions, positionSchema } from '../store/local-records.ts';
import { OutboxWriter, outboxTables } from '../sync/outbox-changes.ts';

// The user's position on a bill. "none" is stored as a row like the others rather than as a
// deleted one: clearing a position is then an ordinary field change, which last-writer-wins
// merges without tombstones (outbox format in outbox-changes.ts).

export type PositionKind = Position['position'];

export interface PositionResult {
  /** False when the bill already had this position: nothing was written. */
  changed: boolean;
  position: Position;
}

export async function setPosition(
  context: BillCommandContext,
  billId: string,
  position: PositionKind,
): Promise<PositionResult> {
  if (!positions.includes(position)) {
    throw new BillCommandError(
      'invalid-input',
      `A position is support, oppose, watch or none, not ${JSON.stringify(position)}.`,
    );
  }
  const { nowMs, at } = commandTime(context);
  return context.store.write(['bills', 'positions', ...outboxTables], async (tx) => {
    await requireBills(tx, [billId]);
    const current = await tx.get('positions', billId);
    if (current?.position === position) return { changed: false, position: current };
    const row = positionSchema.parse({ billId, position, updatedAt: at });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put('positions', { row });
    await outbox.close();
    return { changed: true, position: row };
  });
}
