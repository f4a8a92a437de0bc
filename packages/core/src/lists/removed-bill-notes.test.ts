import { describe, expect, it } from 'vitest';
import { createAnnotation } from '../commands/annotation-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { dismissBill, trackBill } from '../commands/triage-commands.ts';
import { exportUserData } from '../export/user-data-export.ts';
import type { Decision, Position } from '../store/local-records.ts';
import { billIdOf, billLabelOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import { readRemovedBillNotes, removedBillNotesOf } from './removed-bill-notes.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const none = { tags: [], billTags: [], positions: [], decisions: [], annotations: [] };

describe('readRemovedBillNotes', () => {
  it('lists the work on bills no longer on the device, each named by its kept label', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Housing', color: '#1a7f37' });
    await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
    await trackBill(context, billIdOf(1));
    await setPositionReason(context, billIdOf(1), 'Protects tenants.');
    await createAnnotation(context, {
      billId: billIdOf(1),
      target: 'title',
      start: 0,
      end: 6,
      color: '#ffd700',
      note: 'Ask about the deadline.',
    });
    await dismissBill(context, billIdOf(3));
    expect(await readRemovedBillNotes(store)).toEqual([]);

    await store.write(['bills', 'decisions'], (tx) =>
      tx.deleteMany('bills', [billIdOf(1), billIdOf(3)]),
    );
    const notes = await readRemovedBillNotes(store);
    expect(notes.map((entry) => [entry.billId, entry.label])).toEqual([
      [billIdOf(1), billLabelOf(1)],
      [billIdOf(3), billLabelOf(3)],
    ]);
    const [first, third] = notes;
    expect(first?.tags.map((row) => row.name)).toEqual(['Housing']);
    expect(first?.position).toMatchObject({ position: 'none', reason: 'Protects tenants.' });
    expect(first?.decision?.decision).toBe('track');
    expect(first?.annotations.map((row) => [row.note, row.quote.exact])).toEqual([
      ['Ask about the deadline.', 'A bill'],
    ]);
    expect(third).toMatchObject({ tags: [], position: null, annotations: [] });
    expect(third?.decision?.decision).toBe('dismiss');
    // One bill's notes, for its details page; a bill that is here has none.
    expect((await readRemovedBillNotes(store, billIdOf(1))).map((entry) => entry.billId)).toEqual([
      billIdOf(1),
    ]);
    expect(await readRemovedBillNotes(store, billIdOf(2))).toEqual([]);
  });

  it('exports them as Docket JSON without bills, labels kept', async () => {
    const { store, context } = await storeWithBills(2);
    await setPosition(context, billIdOf(2), 'oppose');
    await store.write(['bills', 'decisions'], (tx) => tx.delete('bills', billIdOf(2)));
    const file = await exportUserData(store, { kind: 'removed' }, 'json', iso(T0), () => 'x');
    const parsed = JSON.parse(file.text) as { bills: unknown[]; positions: Position[] };
    expect(parsed.bills).toEqual([]);
    expect(parsed.positions).toEqual([
      expect.objectContaining({ billId: billIdOf(2), billLabel: billLabelOf(2) }),
    ]);
  });
});

describe('removedBillNotesOf', () => {
  it('names a bill by its newest label, by nothing when no row kept one; skips empty positions', () => {
    const decision = (billId: string, at: string, identifier?: string): Decision => ({
      billId,
      decision: 'later',
      decidedAt: at,
      ...(identifier === undefined ? {} : { billLabel: { identifier, title: 't' } }),
    });
    const notes = removedBillNotesOf(
      {
        ...none,
        positions: [
          {
            billId: 'b',
            position: 'support',
            updatedAt: iso(T0 + 2),
            billLabel: { identifier: 'HB 10', title: 'new' },
          },
          { billId: 'c', position: 'none', reason: '', updatedAt: iso(T0) },
        ],
        decisions: [decision('a', iso(T0)), decision('b', iso(T0 + 1), 'HB 9')],
      },
      (billId) => billId === 'here',
    );
    expect(notes.map((entry) => [entry.billId, entry.label?.identifier ?? null])).toEqual([
      ['a', null],
      ['b', 'HB 10'],
    ]);
  });
});
