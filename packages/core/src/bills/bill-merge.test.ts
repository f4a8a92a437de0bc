import { describe, expect, it } from 'vitest';
import type { Bill, BillDraft, BillVote } from './bill.ts';
import { billChangeHash, billSchema, finalizeBill } from './bill.ts';
import { mergeDuplicateBills } from './bill-merge.ts';

// Records of one bill merged: a vote's members (who voted how, issue 41) survive the merge.

function record(source: BillDraft['source'], votes: BillVote[], statusDate: string): Bill {
  const result = finalizeBill({
    source,
    sourceId: null,
    jurisdiction: 'us',
    session: '119',
    identifier: 'HCONRES 14',
    title: 'Establishing the congressional budget for fiscal year 2025.',
    summary: null,
    introducedDate: '2025-02-21',
    status: 'passed-both',
    rawStatus: null,
    statusDate,
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes,
    url: null,
  });
  if (!result.ok) throw new Error(result.reason);
  return result.bill;
}

const totals: BillVote = {
  date: '2025-02-26',
  chamber: 'lower',
  motion: 'On Agreeing to the Resolution, as Amended',
  yes: 217,
  no: 215,
  other: 1,
  passed: true,
};
const members: BillVote['members'] = [
  ['bioguide:A000370', 'yes'],
  ['bioguide:A000055', 'no'],
];

describe('mergeDuplicateBills and member votes', () => {
  it('gives the kept record’s votes the members of the same roll call in another record, and only those', () => {
    // The official record wins (a later status date) but lists totals only.
    const official = record('billstatus', [totals], '2025-04-10');
    const scraped = record(
      'openstates',
      [{ ...totals, motion: 'On Agreeing to the Resolution', members }],
      '2025-02-26',
    );
    const merged = mergeDuplicateBills([scraped, official]);
    expect(merged.source).toBe('billstatus');
    expect(merged.votes).toEqual([{ ...totals, members }]);
    expect(merged.changeHash).toBe(billChangeHash(merged));
    expect(billSchema.safeParse(merged).success).toBe(true);

    // The kept record's own members stay.
    const own: BillVote['members'] = [['bioguide:Z000018', 'yes']];
    const kept = record('billstatus', [{ ...totals, members: own }], '2025-04-10');
    expect(mergeDuplicateBills([scraped, kept]).votes[0]?.members).toEqual(own);

    // Another day or another tally is another roll call: its members are not taken.
    const otherDay = record(
      'openstates',
      [{ ...totals, date: '2025-02-27', members }],
      '2025-02-26',
    );
    const otherTally = record('openstates', [{ ...totals, yes: 216, members }], '2025-02-26');
    expect(mergeDuplicateBills([otherDay, otherTally, official]).votes).toEqual([totals]);

    // A kept record without votes takes the other's, members and all.
    const none = record('billstatus', [], '2025-04-10');
    expect(mergeDuplicateBills([scraped, none]).votes).toEqual(scraped.votes);
  });
});
