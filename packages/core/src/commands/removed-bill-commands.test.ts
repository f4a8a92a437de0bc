import { describe, expect, it } from 'vitest';
import { createAnnotation } from './annotation-commands.ts';
import { setPositionReason } from './position-commands.ts';
import { deleteRemovedBillNotes } from './removed-bill-commands.ts';
import { createTag, tagBills } from './tag-commands.ts';
import { trackBill } from './triage-commands.ts';
import { readRemovedBillNotes } from '../lists/removed-bill-notes.ts';
import {
  billIdOf,
  everything,
  outboxOf,
  rowsOf,
  storeWithBills,
} from '../test-support/bill-command-harness.ts';

describe('deleteRemovedBillNotes', () => {
  it('deletes every row on a removed bill with a delete entry each; a bill here is refused', async () => {
    const { store, context } = await storeWithBills(2);
    const tag = await createTag(context, { name: 'Housing', color: '#1a7f37' });
    for (const number of [1, 2]) {
      await tagBills(context, [billIdOf(number)], tag.id);
      await trackBill(context, billIdOf(number));
      await setPositionReason(context, billIdOf(number), 'Why not.');
    }
    const note = await createAnnotation(context, {
      billId: billIdOf(1),
      target: 'title',
      start: 0,
      end: 6,
      color: '#ffd700',
      note: 'Kept',
    });
    await store.write(['bills', 'decisions'], (tx) => tx.delete('bills', billIdOf(1)));

    const before = await everything(store);
    await expect(deleteRemovedBillNotes(context, [billIdOf(1), billIdOf(2)])).rejects.toThrow(
      /is on this device/,
    );
    expect(await everything(store)).toEqual(before);

    const seen = (await outboxOf(store)).length;
    expect(await deleteRemovedBillNotes(context, [billIdOf(1)])).toEqual({ bills: 1, rows: 4 });
    expect(await readRemovedBillNotes(store)).toEqual([]);
    const deletes = (await outboxOf(store)).slice(seen);
    expect(deletes.map((entry) => [entry.table, entry.rowId, entry.op])).toEqual([
      ['billTags', `${billIdOf(1)}|${tag.id}`, 'delete'],
      ['positions', billIdOf(1), 'delete'],
      ['decisions', billIdOf(1), 'delete'],
      ['annotations', note.id, 'delete'],
    ]);
    // Bill 2 is still here, and so is the user's work on it.
    expect((await rowsOf(store, 'decisions')).map((row) => row.billId)).toEqual([billIdOf(2)]);
    expect(await rowsOf(store, 'annotations')).toEqual([]);
  });
});
