import type { BillCommandContext } from './bill-command-context.ts';
import { BillCommandError, commandTime, distinct } from './bill-command-context.ts';
import { presentBillIds } from '../lists/removed-bill-notes.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';

// Deleting "Notes on removed bills" (lists/removed-bill-notes.ts): every row of the user's work
// on bills that are no longer on this device, deleted through the outbox like any other delete,
// so the user's other devices delete them too. Only for bills not on the device: a bill that is
// here keeps its rows, and its own screen changes them.

const removedBillTables = [
  'bills',
  'billTags',
  'positions',
  'decisions',
  'annotations',
  ...outboxTables,
] as const;

export interface DeleteRemovedBillNotesResult {
  /** Bills whose rows were deleted. */
  bills: number;
  /** Rows deleted in all (tags on the bills, positions, decisions, notes). */
  rows: number;
}

/** Deletes the user's tags, positions, decisions and notes on bills that are not on the device. */
export async function deleteRemovedBillNotes(
  context: BillCommandContext,
  billIds: readonly string[],
): Promise<DeleteRemovedBillNotesResult> {
  const ids = distinct(billIds);
  const { nowMs } = commandTime(context);
  return context.store.write(removedBillTables, async (tx) => {
    const present = await presentBillIds(tx, ids);
    if (present.size > 0) {
      const named = [...present][0] ?? '';
      throw new BillCommandError(
        'invalid-input',
        `The bill ${JSON.stringify(named.slice(0, 120))} is on this device; change its notes on its own page.`,
      );
    }
    const billTags: string[] = [];
    const annotations: string[] = [];
    const positions: string[] = [];
    const decisions: string[] = [];
    let touched = 0;
    for (const billId of ids) {
      const tagRows = await tx.where('billTags', 'billId', billId);
      const noteRows = await tx.where('annotations', 'billId', billId);
      const position = await tx.get('positions', billId);
      const decision = await tx.get('decisions', billId);
      billTags.push(...tagRows.map((row) => row.id));
      annotations.push(...noteRows.map((row) => row.id));
      if (position !== undefined) positions.push(billId);
      if (decision !== undefined) decisions.push(billId);
      const any =
        tagRows.length + noteRows.length > 0 || position !== undefined || decision !== undefined;
      if (any) touched++;
    }
    const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
    await outbox.deleteMany('billTags', billTags);
    await outbox.deleteMany('positions', positions);
    await outbox.deleteMany('decisions', decisions);
    await outbox.deleteMany('annotations', annotations);
    await outbox.close();
    return {
      bills: touched,
      rows: billTags.length + positions.length + decisions.length + annotations.length,
    };
  });
}
