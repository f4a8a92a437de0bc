import { describe, expect, it } from 'vitest';
import type { Bill, BillDraft } from './bill.ts';
import { billChangeHash, billSchema, finalizeBill } from './bill.ts';
import {
  billId,
  formatBillIdentifier,
  normalizeJurisdiction,
  parseBillIdentifier,
} from './bill-identifiers.ts';
import { chronological, compareBills, mergeDuplicateBills } from './bill-merge.ts';
import { cleanBlock, isIsoDate, safeUrl, toIsoDate } from './bill-text-cleaning.ts';
import { canonicalJson, contentHash, fnv1a64Hex } from './canonical-hash.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

function draft(overrides: Partial<BillDraft> = {}): BillDraft {
  return {
    source: 'congress-json',
    sourceId: 'sjres1-116',
    jurisdiction: 'us',
    session: '116',
    identifier: 'SJRES 1',
    title: 'A joint resolution proposing an amendment.',
    summary: null,
    introducedDate: '2019-01-03',
    status: 'in-committee',
    rawStatus: 'REFERRED',
    statusDate: '2019-01-03',
    sponsors: [{ name: 'Ted Cruz', role: 'primary', party: 'R', externalId: 'C001098' }],
    cosponsors: [],
    subjects: ['Congress'],
    actions: [{ date: '2019-01-03', text: 'Introduced in Senate', chamber: 'upper' }],
    texts: [],
    votes: [],
    url: 'https://www.congress.gov/bill/116th-congress/senate-joint-resolution/1',
    ...overrides,
  };
}

function finalized(overrides: Partial<BillDraft> = {}): Bill {
  const result = finalizeBill(draft(overrides));
  if (!result.ok) throw new Error(result.reason);
  return result.bill;
}

describe('bill identifiers', () => {
  it('reads the spellings people and sources use as one type and number', () => {
    for (const spelling of [
      'S.J.Res. 1',
      'SJRES 1',
      'sjres1',
      'S. J. Res. 1',
      'SJRes 001',
      's.j.res.1',
    ]) {
      expect(parseBillIdentifier(spelling, 'us'), spelling).toEqual({ type: 'sjres', number: '1' });
    }
    expect(parseBillIdentifier('HB 1044', 'us-ar')).toEqual({ type: 'hb', number: '1044' });
    expect(parseBillIdentifier('HB1044', 'us-ar')).toEqual({ type: 'hb', number: '1044' });
    expect(parseBillIdentifier('AB 12a', 'us-ca')).toEqual({ type: 'ab', number: '12A' });
    expect(parseBillIdentifier('H-1234', 'us-vt')).toEqual({ type: 'h', number: '1234' });
  });

  it("reads the states' numbering conventions as one form", () => {
    const cases: [string, string, string, string][] = [
      ['S.B. No. 5', 'us-tx', 'sb', '5'],
      ['H.B. No. 12', 'us-tx', 'hb', '12'],
      ['HB #12', 'us-tx', 'hb', '12'],
      ['HB0001', 'us-wy', 'hb', '1'],
      ['SF0012', 'us-wy', 'sf', '12'],
      ['SSCR1', 'us-ca', 'sscr', '1'],
      ['AB 12', 'us-ca', 'ab', '12'],
      ['A 1234', 'us-ny', 'a', '1234'],
      ['S 1234-A', 'us-ny', 's', '1234A'],
      ['SB 2-A', 'us-fl', 'sb', '2A'],
      ['LB 1', 'us-ne', 'lb', '1'],
      ['Legislative Bill 1', 'us-ne', 'lb', '1'],
      ['HF 5', 'us-mn', 'hf', '5'],
      ['House File 5', 'us-mn', 'hf', '5'],
      ['SF 3', 'us-ia', 'sf', '3'],
      ['H 101', 'us-vt', 'h', '101'],
      ['H.101', 'us-vt', 'h', '101'],
      ['LD 1', 'us-me', 'ld', '1'],
      ['Legislative Document 1', 'us-me', 'ld', '1'],
      ['House Bill 5', 'us-ga', 'hb', '5'],
      ['Senate Joint Resolution 3', 'us-mo', 'sjr', '3'],
      ['Assembly Concurrent Resolution 7', 'us-ca', 'acr', '7'],
      ['SBX2 5', 'us-ca', 'sbx2', '5'],
    ];
    for (const [spelling, jurisdiction, type, number] of cases) {
      expect(parseBillIdentifier(spelling, jurisdiction), spelling).toEqual({ type, number });
    }
    // Congress keeps its own words: "Senate Bill" is not a type there.
    expect(parseBillIdentifier('S. No. 5', 'us')).toEqual({ type: 's', number: '5' });
  });

  it('keeps a space-marked number apart from a type ending in a digit', () => {
    expect(parseBillIdentifier('SBX2 5', 'us-ca')).toEqual({ type: 'sbx2', number: '5' });
    expect(parseBillIdentifier('SBX 25', 'us-ca')).toEqual({ type: 'sbx', number: '25' });
  });

  it("reads GovInfo's 'H' as a House bill only for Congress", () => {
    expect(parseBillIdentifier('H 1', 'us')).toEqual({ type: 'hr', number: '1' });
    expect(parseBillIdentifier('H 1', 'us-vt')).toEqual({ type: 'h', number: '1' });
  });

  it('refuses what is not letters followed by a number', () => {
    for (const bad of [
      '',
      '1044',
      'House Bill',
      'HB',
      'HB 12 13',
      `HB ${'1'.repeat(11)}`,
      'X'.repeat(101),
    ]) {
      expect(parseBillIdentifier(bad, 'us-wa'), bad).toBeNull();
    }
  });

  it('writes identifiers as people do', () => {
    expect(formatBillIdentifier('us', { type: 'sjres', number: '1' })).toBe('S.J.Res. 1');
    expect(formatBillIdentifier('us', { type: 'hr', number: '1' })).toBe('H.R. 1');
    expect(formatBillIdentifier('us', { type: 'hconres', number: '14' })).toBe('H.Con.Res. 14');
    expect(formatBillIdentifier('us', { type: 's', number: '5' })).toBe('S. 5');
    expect(formatBillIdentifier('us-ar', { type: 'hb', number: '1044' })).toBe('HB 1044');
  });

  it('builds the id from jurisdiction, session and normalized identifier only', () => {
    const ids = ['S.J.Res. 1', 'SJRES 1', 'sjres1'].map((spelling) => {
      const numbering = parseBillIdentifier(spelling, 'us');
      if (!numbering) throw new Error(spelling);
      return billId('us', '116', numbering);
    });
    expect(new Set(ids)).toEqual(new Set(['us/116/sjres-1']));
    expect(
      billId('us-ar', '88th General Assembly (2012 Fiscal)', { type: 'hb', number: '1044' }),
    ).toBe('us-ar/88th-general-assembly-2012-fiscal/hb-1044');
    expect(finalized({ identifier: 'S.J.Res. 1' }).id).toBe(finalized({ identifier: 'sjres1' }).id);
  });
});

describe('jurisdictions and dates', () => {
  it('normalizes jurisdictions to us or us-<code>', () => {
    expect(normalizeJurisdiction('US')).toBe('us');
    expect(normalizeJurisdiction('CA')).toBe('us-ca');
    expect(normalizeJurisdiction('us-ca')).toBe('us-ca');
    expect(normalizeJurisdiction('North Carolina')).toBe('us-nc');
    expect(normalizeJurisdiction('ocd-division/country:us/state:nc')).toBe('us-nc');
    expect(normalizeJurisdiction('ocd-jurisdiction/country:us/government')).toBe('us');
    expect(normalizeJurisdiction('ca-on')).toBe('ca-on');
    expect(normalizeJurisdiction('ZZ')).toBeNull();
    expect(normalizeJurisdiction('Atlantis')).toBeNull();
  });

  it('reads the date forms sources write and refuses impossible dates', () => {
    expect(toIsoDate('2019-01-03')).toBe('2019-01-03');
    expect(toIsoDate('2019-01-03T05:00:00Z')).toBe('2019-01-03');
    expect(toIsoDate('2025-01-03T23:21:55+00:00')).toBe('2025-01-03');
    expect(toIsoDate('2012-02-21 00:00:00')).toBe('2012-02-21');
    expect(toIsoDate('1/9/2023')).toBe('2023-01-09');
    expect(toIsoDate('0000-00-00')).toBeNull();
    expect(toIsoDate('2019-02-29')).toBeNull();
    expect(toIsoDate('2020-02-29')).toBe('2020-02-29');
    expect(toIsoDate('2019-13-01')).toBeNull();
    expect(toIsoDate(20190103)).toBeNull();
    expect(isIsoDate('2019-1-3')).toBe(false);
  });

  it('knows the calendar: every day of leap, common and century years, as Date counts them', () => {
    for (const year of [1900, 2000, 2023, 2024, 2100]) {
      for (let month = 1; month <= 12; month++) {
        const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
        for (let day = 0; day <= 32; day++) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          expect(isIsoDate(text), text).toBe(day >= 1 && day <= days);
        }
      }
    }
  });

  it('keeps only http(s) links', () => {
    expect(safeUrl('https://example.org/a b')).toBeNull();
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(' https://example.org/bill ')).toBe('https://example.org/bill');
    expect(safeUrl(`https://example.org/${'a'.repeat(3000)}`)).toBeNull();
  });
});

describe('finalizeBill', () => {
  it('normalizes a draft into a valid bill with id, identifier and hash', () => {
    const bill = finalized({
      title: '  A joint\nresolution   proposing an amendment.  ',
      subjects: ['Senate', 'congress', 'Congress'],
    });
    expect(bill).toMatchObject({
      id: 'us/116/sjres-1',
      jurisdiction: 'us',
      session: '116',
      type: 'sjres',
      number: '1',
      identifier: 'S.J.Res. 1',
      title: 'A joint resolution proposing an amendment.',
      subjects: ['congress', 'Senate'],
    });
    expect(bill.changeHash).toMatch(/^[0-9a-f]{16}$/);
    expect(billSchema.parse(bill)).toEqual(bill);
  });

  it('names what is missing or wrong instead of returning half a bill', () => {
    const reasons = [
      finalizeBill(draft({ title: '  ' })),
      finalizeBill(draft({ identifier: 'Senate joint resolution' })),
      finalizeBill(draft({ session: null })),
      finalizeBill(draft({ jurisdiction: null })),
      finalizeBill(draft({ jurisdiction: 'Atlantis' })),
      finalizeBill(draft({ title: 'x'.repeat(20_001) })),
      finalizeBill(draft({ introducedDate: '2019-02-30' })),
      finalizeBill(
        draft({
          votes: [
            { date: null, chamber: null, motion: 'x', yes: -1, no: 0, other: null, passed: null },
          ],
        }),
      ),
    ].map((result) => (result.ok ? 'ok' : result.reason));
    expect(reasons).toEqual([
      'missing title',
      'unrecognised bill identifier "Senate joint resolution"',
      'missing session',
      'jurisdiction unknown: give one with the jurisdiction option',
      'unknown jurisdiction "Atlantis"',
      expect.stringContaining('title'),
      expect.stringContaining('introducedDate'),
      expect.stringContaining('votes.0.yes'),
    ]);
  });

  it('applies jurisdiction and session overrides before building the id', () => {
    const result = finalizeBill(draft({ jurisdiction: null, session: null, identifier: 'HB 7' }), {
      jurisdiction: 'WA',
      session: '2023-2024 Regular Session',
    });
    expect(result.ok && result.bill.id).toBe('us-wa/2023-2024-regular-session/hb-7');
  });

  it('strips control characters and keeps line breaks in blocks', () => {
    expect(cleanBlock('Line one\u0007\r\nLine two   \n\n\n\nEnd')).toBe(
      'Line one\nLine two\n\nEnd',
    );
    expect(finalized({ title: 'Bell\u0007 title' }).title).toBe('Bell title');
  });
});

describe('change hash', () => {
  it('is FNV-1a 64', () => {
    expect(fnv1a64Hex(encodeUtf8(''))).toBe('cbf29ce484222325');
    expect(fnv1a64Hex(encodeUtf8('a'))).toBe('af63dc4c8601ec8c');
    expect(fnv1a64Hex(encodeUtf8('foobar'))).toBe('85944171f73967e8');
  });

  it('does not depend on key order, and excludes the hash itself', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
    expect(contentHash({ b: 1, a: 2 })).toBe(contentHash({ a: 2, b: 1 }));
    const bill = finalized();
    const reordered = Object.fromEntries(Object.entries(bill).reverse()) as Bill;
    expect(billChangeHash(reordered)).toBe(bill.changeHash);
    expect(billChangeHash({ ...bill, changeHash: '0000000000000000' })).toBe(bill.changeHash);
  });

  it('changes when the content changes', () => {
    expect(finalized({ status: 'passed-both' }).changeHash).not.toBe(finalized().changeHash);
    expect(finalized({ title: 'Another title' }).changeHash).not.toBe(finalized().changeHash);
  });
});

describe('ordering and merging', () => {
  it('puts actions oldest first, turning a newest-first list round', () => {
    const newestFirst = [
      { date: '2019-03-01', text: 'c' },
      { date: '2019-02-01', text: 'b2' },
      { date: '2019-02-01', text: 'b1' },
      { date: null, text: 'undated' },
      { date: '2019-01-01', text: 'a' },
    ];
    expect(chronological(newestFirst).map((item) => item.text)).toEqual([
      'a',
      'b1',
      'b2',
      'c',
      'undated',
    ]);
  });

  it('sorts bills by type and then numerically', () => {
    const bills = ['HR 10', 'S 2', 'HR 2', 'HR 1'].map((identifier) => finalized({ identifier }));
    expect(bills.sort(compareBills).map((bill) => bill.identifier)).toEqual([
      'H.R. 1',
      'H.R. 2',
      'H.R. 10',
      'S. 2',
    ]);
  });

  it('keeps the most up-to-date record and fills what it lacks from the others', () => {
    const official = finalized({
      source: 'billstatus',
      summary: null,
      statusDate: '2019-02-01',
      status: 'passed-one-chamber',
      sponsors: [{ name: 'Ted Cruz', role: 'primary', party: null, externalId: 'C001098' }],
    });
    const scraped = finalized({ summary: 'A summary.', statusDate: '2019-01-03' });
    const merged = mergeDuplicateBills([scraped, official]);
    expect(merged.source).toBe('billstatus');
    expect(merged.status).toBe('passed-one-chamber');
    expect(merged.summary).toBe('A summary.');
    expect(merged.sponsors[0]?.party).toBe('R');
    expect(merged.changeHash).toBe(billChangeHash(merged));
    expect(billSchema.safeParse(merged).success).toBe(true);
  });
});
