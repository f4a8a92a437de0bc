import { describe, expect, it } from 'vitest';
import type { Bill } from '../bills/bill.ts';
import { importBills } from './bill-import.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
} from '../test-support/test-files.ts';

// The same bill read from two sources must be one bill: same id, and the facts both sources
// state must agree.

function agreeing(a: Bill, b: Bill) {
  return {
    id: a.id === b.id,
    title: a.title === b.title,
    introducedDate: a.introducedDate === b.introducedDate,
    sponsor:
      a.sponsors[0]?.name === b.sponsors[0]?.name &&
      a.sponsors[0]?.externalId === b.sponsors[0]?.externalId,
  };
}

describe('hand-made pair: BILLSTATUS and data.json of H.R. 9901', () => {
  it('gives one id and agrees on title, introduced date, sponsor, status and votes', () => {
    const [xml] = importBills(readSamples('billstatus/BILLSTATUS-118hr9901.xml')).bills;
    const [json] = importBills(readSamples('congress-json/118/bills/hr')).bills;
    if (!xml || !json) throw new Error('samples missing');
    expect(agreeing(xml, json)).toEqual({
      id: true,
      title: true,
      introducedDate: true,
      sponsor: true,
    });
    expect(json.status).toBe(xml.status);
    expect(json.votes).toEqual(xml.votes);
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)(
  'real pairs: billstatus-xml-116 and congress-json/116 sconres and sjres',
  () => {
    const xml = fixturesRoot === null ? [] : importBills(readFixtures('billstatus-xml-116')).bills;
    const json =
      fixturesRoot === null
        ? []
        : importBills([
            ...readFixtures('congress-json/116/bills/sconres'),
            ...readFixtures('congress-json/116/bills/sjres'),
          ]).bills;
    const jsonById = new Map(json.map((bill) => [bill.id, bill]));
    const xmlById = new Map(xml.map((bill) => [bill.id, bill]));

    it('produce the same 133 ids', () => {
      expect(xml).toHaveLength(133);
      expect(xml.map((bill) => bill.id)).toEqual(json.map((bill) => bill.id));
    });

    it('agree on title, introduced date and primary sponsor for every bill', () => {
      const disagreements = xml.flatMap((bill) => {
        const other = jsonById.get(bill.id);
        if (!other) return [bill.id];
        const checks = agreeing(bill, other);
        return Object.values(checks).every(Boolean) ? [] : [`${bill.id} ${JSON.stringify(checks)}`];
      });
      expect(disagreements).toEqual([]);
      // data.json carries no party; BILLSTATUS does.
      expect(xml.find((bill) => bill.id === 'us/116/sjres-1')?.sponsors[0]).toEqual({
        name: 'Ted Cruz',
        role: 'primary',
        party: 'R',
        district: 'TX',
        externalId: 'C001098',
      });
    });

    it('agree on votes and status, failed cloture votes included', () => {
      const statusDiffs = xml
        .filter((bill) => jsonById.get(bill.id)?.status !== bill.status)
        .map((bill) => `${bill.id}: ${bill.status} / ${jsonById.get(bill.id)?.status ?? '-'}`);
      // S.J.Res. 2 and 8 each failed a cloture vote, which disposes of neither: both sources
      // leave them on the Senate calendar.
      expect(statusDiffs).toEqual([]);
      for (const id of ['us/116/sjres-2', 'us/116/sjres-8']) {
        expect(xmlById.get(id)?.status, id).toBe('in-committee');
        expect(jsonById.get(id)?.status, id).toBe('in-committee');
        expect(
          xmlById.get(id)?.votes.some((vote) => vote.passed === false),
          id,
        ).toBe(true);
      }
      const voteDiffs = xml.filter(
        (bill) => JSON.stringify(jsonById.get(bill.id)?.votes) !== JSON.stringify(bill.votes),
      );
      expect(voteDiffs.map((bill) => bill.id)).toEqual([]);
    });

    it('merge into one bill each when imported together, the party filled in', () => {
      const both = importBills([
        ...readFixtures('billstatus-xml-116'),
        ...readFixtures('congress-json/116/bills/sconres'),
        ...readFixtures('congress-json/116/bills/sjres'),
      ]);
      expect(both.format).toBe('mixed');
      expect(both.recordsRead).toBe(266);
      expect(both.bills).toHaveLength(133);
      expect(both.errors).toEqual([]);
      expect(both.bills.every((bill) => bill.sponsors[0]?.party !== null)).toBe(true);
    });
  },
);

warnIfFixturesAbsent();
