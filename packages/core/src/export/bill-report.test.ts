import { describe, expect, it } from 'vitest';
import { createAnnotation } from '../commands/annotation-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { trackBill } from '../commands/triage-commands.ts';
import { billIdOf, storeWithBills } from '../test-support/bill-command-harness.ts';
import { readBillReport } from './bill-report.ts';

describe('readBillReport', () => {
  it('gives the listed bills in the list’s order, with the user’s rows on each', async () => {
    const onPassage = {
      date: '2025-05-01',
      chamber: 'lower' as const,
      motion: 'On Passage',
      yes: 218,
      no: 210,
      other: 7,
      passed: true,
    };
    const onRule = { ...onPassage, date: '2025-04-02', motion: 'On the Rule', passed: false };
    const { store, context } = await storeWithBills(3, (n) =>
      n === 2 ? { votes: [onRule, onPassage] } : {},
    );
    const water = await createTag(context, { name: 'Water', color: '#1a7f37' });
    const air = await createTag(context, { name: 'Air', color: '#cc0000' });
    await tagBills(context, [billIdOf(2)], water.id);
    await tagBills(context, [billIdOf(2)], air.id);
    await setPosition(context, billIdOf(2), 'oppose');
    await setPositionReason(context, billIdOf(2), 'Costs too much');
    await trackBill(context, billIdOf(2));
    await createAnnotation(context, {
      billId: billIdOf(2),
      target: 'title',
      start: 0,
      end: 5,
      color: '#ffd54f',
      note: 'Ask about this',
    });
    await createAnnotation(context, {
      billId: billIdOf(2),
      target: 'title',
      start: 0,
      end: 3,
      color: '#ffd54f',
    });

    const report = await readBillReport(store, [billIdOf(2), 'us/119/hr-404', billIdOf(1)]);
    expect(report.map((entry) => entry.bill.id)).toEqual([billIdOf(2), billIdOf(1)]);
    const [second, first] = report;
    expect(second).toMatchObject({
      position: { position: 'oppose', reason: 'Costs too much' },
      decision: 'track',
    });
    expect(second?.tags.map((tag) => tag.name)).toEqual(['Air', 'Water']);
    expect(second?.notes.map((note) => note.note)).toEqual(['Ask about this']);
    expect(first).toMatchObject({ position: null, decision: null, tags: [], notes: [] });
    // The newest vote, with its result and totals, for the report's "Latest vote".
    expect(second?.latestVote).toEqual(onPassage);
    expect(first?.latestVote).toBeNull();
  });
});
