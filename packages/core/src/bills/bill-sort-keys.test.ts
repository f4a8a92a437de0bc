import { describe, expect, it } from 'vitest';
import { billId, formatBillIdentifier, parseBillIdentifier } from './bill-identifiers.ts';
import { compareBills } from './bill-merge.ts';
import { compareBillsByNumber } from './bill-naming.ts';
import {
  billActivityKey,
  billIdOfOrderKey,
  billNumberKey,
  compareBillsByActivity,
  latestActivityDate,
  type OrderedBill,
} from './bill-sort-keys.ts';

/** A bill as an importer makes it from an identifier written the way its source writes it. */
function bill(
  jurisdiction: string,
  session: string,
  written: string,
  latest: string | null = null,
): OrderedBill {
  const numbering = parseBillIdentifier(written, jurisdiction);
  if (numbering === null) throw new Error(`not an identifier: ${written}`);
  return {
    id: billId(jurisdiction, session, numbering),
    jurisdiction,
    session,
    ...numbering,
    statusDate: null,
    actions: latest === null ? [] : [{ date: '2001-01-01' }, { date: latest }],
  };
}

const shown = (bills: readonly OrderedBill[]) =>
  bills.map((each) => formatBillIdentifier(each.jurisdiction, each));

/** Sorted three ways that must agree: the comparison, and the number key as plain text. */
function byNumber(bills: readonly OrderedBill[]): string[] {
  const compared = shown([...bills].sort(compareBillsByNumber));
  const keyed = shown([...bills].sort((a, b) => (billNumberKey(a) < billNumberKey(b) ? -1 : 1)));
  expect(keyed).toEqual(compared);
  return compared;
}

// Each style as the sources write it: Alaska's "HB 1" (LegiScan, Open States), GovInfo's
// "H.R. 1" and "S.J.Res. 9", Wyoming's zero-padded "HB0001", California's "SB 2A".
describe('bills in number order', () => {
  it('sorts state numbers as numbers: HB 1, HB 2, HB 10, not HB 1, HB 10, HB 2', () => {
    const alaska = ['HB 10', 'HB 2', 'HB 1', 'HB 100', 'HB 11'].map((id) =>
      bill('us-ak', '34', id),
    );
    expect(byNumber(alaska)).toEqual(['HB 1', 'HB 2', 'HB 10', 'HB 11', 'HB 100']);
  });

  it("sorts Congress's numbers as numbers, H.R. 1, 10, 100 and S.J.Res. 9 before 10", () => {
    const congress = ['H.R. 100', 'H.R. 10', 'H.R. 1', 'S.J.Res. 10', 'S.J.Res. 9'].map((id) =>
      bill('us', '114', id),
    );
    expect(byNumber(congress)).toEqual([
      'H.R. 1',
      'H.R. 10',
      'H.R. 100',
      'S.J.Res. 9',
      'S.J.Res. 10',
    ]);
    const resolutions = Array.from({ length: 12 }, (_, at) => `H.Con.Res. ${12 - at}`).map((id) =>
      bill('us', '114', id),
    );
    expect(byNumber(resolutions)).toEqual(
      Array.from({ length: 12 }, (_, at) => `H.Con.Res. ${at + 1}`),
    );
  });

  it('reads zero-padded numbers (HB0001) as the numbers they are', () => {
    const wyoming = ['HB0010', 'HB0002', 'HB0001', 'SF0003'].map((id) => bill('us-wy', '2026', id));
    expect(byNumber(wyoming)).toEqual(['HB 1', 'HB 2', 'HB 10', 'SF 3']);
    const california = ['SB 10', 'SB 2A', 'SB 2'].map((id) => bill('us-ca', '2025', id));
    expect(byNumber(california)).toEqual(['SB 2', 'SB 2A', 'SB 10']);
  });

  it("puts Congress's kinds of measure in the order Congress numbers and lists them", () => {
    const kinds = [
      'S.Res. 1',
      'H.Res. 1',
      'S.Con.Res. 1',
      'H.Con.Res. 1',
      'S.J.Res. 1',
      'H.J.Res. 1',
      'S. 1',
      'H.R. 1',
    ];
    expect(byNumber(kinds.map((id) => bill('us', '114', id)))).toEqual([...kinds].reverse());
  });

  it('groups by jurisdiction name, then session in number order', () => {
    const bills = [
      bill('us-wy', '2026', 'HB0001'),
      bill('us', '114', 'H.R. 1'),
      bill('us-ak', '34', 'HB 1'),
      bill('us-ak', '9', 'HB 1'),
      bill('us-ar', '2025', 'HB 1'),
    ];
    const named = [...bills]
      .sort((a, b) => (billNumberKey(a) < billNumberKey(b) ? -1 : 1))
      .map((each) => `${each.jurisdiction} ${each.session}`);
    expect(named).toEqual(['us-ak 9', 'us-ak 34', 'us-ar 2025', 'us 114', 'us-wy 2026']);
    expect(byNumber(bills)).toHaveLength(5);
  });

  it("compareBills (the importers' output order) also sorts numbers naturally, by type code", () => {
    const congress = ['H.R. 100', 'H.R. 10', 'H.R. 2', 'H.Con.Res. 10', 'H.Con.Res. 9'].map((id) =>
      bill('us', '114', id),
    );
    expect(shown([...congress].sort(compareBills))).toEqual([
      'H.Con.Res. 9',
      'H.Con.Res. 10',
      'H.R. 2',
      'H.R. 10',
      'H.R. 100',
    ]);
  });
});

describe('bills in order of recent activity', () => {
  const bills = [
    bill('us-ak', '34', 'HB 10', '2026-02-01'),
    bill('us-ak', '34', 'HB 2', '2026-02-01'),
    bill('us', '119', 'H.R. 5', '2026-03-15'),
    bill('us-ak', '34', 'HB 1', null),
    bill('us-wy', '2026', 'HB0003', '2025-12-31'),
  ];

  it('puts the latest activity first, same-day bills in number order, undated bills last', () => {
    const compared = shown([...bills].sort(compareBillsByActivity));
    expect(compared).toEqual(['H.R. 5', 'HB 2', 'HB 10', 'HB 3', 'HB 1']);
    const keyed = shown(
      [...bills].sort((a, b) => (billActivityKey(a) < billActivityKey(b) ? -1 : 1)),
    );
    expect(keyed).toEqual(compared);
  });

  it('takes the newest dated action, else the status date', () => {
    expect(
      latestActivityDate({
        statusDate: '2020-01-01',
        actions: [{ date: '2024-05-01' }, { date: null }, { date: '2023-01-01' }],
      }),
    ).toBe('2024-05-01');
    expect(latestActivityDate({ statusDate: '2020-01-01', actions: [{ date: null }] })).toBe(
      '2020-01-01',
    );
  });

  it('ends each key with the bill id', () => {
    for (const each of bills) {
      expect(billIdOfOrderKey(billActivityKey(each))).toBe(each.id);
      expect(billIdOfOrderKey(billNumberKey(each))).toBe(each.id);
    }
  });
});
