import type { BillCommandContext } from './bill-command-context.ts';
import { BillCommandError, commandTime, requireBills, withLabel } from './bill-command-context.ts';
import type { BillLabel } from '../store/bill-label.ts';
import type { Position } from '../store/local-records.ts';
import { POSITION_REASON_MAX, positions, positionSchema } from '../store/local-records.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// The user's position on a bill, and why they hold it. "none" is stored as a row like the others
// rather than as a deleted one: clearing a position is then an ordinary field change, which
// last-writer-wins merges without tombstones (outbox format in outbox-changes.ts).
//
// The reason lives on the position's row but is written apart: choosing a position writes the
// position, typing a reason writes the reason, each with its own clock. So a position chosen on
// one device and a reason typed on another both survive a sync, and neither command drops what
// the other wrote. A cleared reason is '' (a field that syncs must carry a value).

export { POSITION_REASON_MAX };

export type PositionKind = Position['position'];

export interface PositionResult {
  /** False when the bill already had this position (or reason): nothing was written. */
  changed: boolean;
  position: Position;
}

export interface PositionReasonResult {
  /** False when the reason was already this one: nothing was written. */
  changed: boolean;
  /** The row as it is now; null when the bill has none (an empty reason on no position). */
  position: Position | null;
}

const positionTables = ['bills', 'positions', ...outboxTables] as const;

/** The label joins an edit's fields when the row has none yet (made before labels) or an old one. */
function labelChange(current: Position, label: BillLabel | undefined): 'billLabel'[] {
  if (label === undefined) return [];
  const kept = current.billLabel;
  return kept?.identifier === label.identifier && kept.title === label.title ? [] : ['billLabel'];
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
  return context.store.write(positionTables, async (tx) => {
    const billLabel = (await requireBills(tx, [billId])).get(billId);
    const current = await tx.get('positions', billId);
    if (current?.position === position) return { changed: false, position: current };
    const row = positionSchema.parse({
      ...current,
      billId,
      position,
      updatedAt: at,
      ...withLabel(billLabel),
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put(
      'positions',
      current === undefined
        ? { row }
        : { row, changed: ['position', 'updatedAt', ...labelChange(current, billLabel)] },
    );
    await outbox.close();
    return { changed: true, position: row };
  });
}

/** A reason as it is kept: without the blank lines and spaces around it; refused when too long. */
export function parsePositionReason(reason: string): string {
  const kept = reason.trim();
  if (kept.length > POSITION_REASON_MAX) {
    throw new BillCommandError(
      'invalid-input',
      `A reason is at most ${POSITION_REASON_MAX.toLocaleString('en-US')} characters; this one has ${kept.length.toLocaleString('en-US')}.`,
    );
  }
  return kept;
}

/**
 * Sets why the user holds their position on a bill ('' clears it). A bill without a position
 * yet gets one of "none" with the reason, so nothing typed is refused for want of a choice.
 */
export async function setPositionReason(
  context: BillCommandContext,
  billId: string,
  reason: string,
): Promise<PositionReasonResult> {
  const kept = parsePositionReason(reason);
  const { nowMs, at } = commandTime(context);
  return context.store.write(positionTables, async (tx) => {
    const billLabel = (await requireBills(tx, [billId])).get(billId);
    const current = await tx.get('positions', billId);
    if ((current?.reason ?? '') === kept) return { changed: false, position: current ?? null };
    const row = positionSchema.parse({
      position: 'none',
      ...current,
      billId,
      reason: kept,
      updatedAt: at,
      ...withLabel(billLabel),
    });
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.put(
      'positions',
      current === undefined
        ? { row }
        : { row, changed: ['reason', 'updatedAt', ...labelChange(current, billLabel)] },
    );
    await outbox.close();
    return { changed: true, position: row };
  });
}
