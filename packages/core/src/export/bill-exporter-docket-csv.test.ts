import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bill } from '../bills/bill.ts';
import { billChangeHash, finalizeBill } from '../bills/bill.ts';
import { importBills } from '../importers/bill-import.ts';
import { exportDocketCsv } from './bill-exporter-docket-csv.ts';
import { importDocketCsv } from '../importers/bill-importer-docket-csv.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { fixturesRoot, readFixtures, readSamples } from '../test-support/test-files.ts';

function roundTrip(bills: readonly Bill[]) {
  return importDocketCsv([{ name: 'export.csv', bytes: encodeUtf8(exportDocketCsv(bills)) }]);
}

/**
 * The bill as Docket CSV carries it: each vote's totals, not who voted how (member votes are the
 * source's public data, kept from the source's own files), so its hash is of that content.
 */
function withoutMemberVotes(bill: Bill): Bill {
  const votes = bill.votes.map(({ members: _members, ...vote }) => vote);
  return { ...bill, votes, changeHash: billChangeHash({ ...bill, votes }) };
}

describe('Docket CSV export', () => {
  it('writes one row per bill after a BOM and a header, formulas guarded', () => {
    const bills = importBills(readSamples('docket-csv')).bills;
    const csv = exportDocketCsv(bills);
    expect(csv.startsWith('\uFEFFjurisdiction,session,identifier,title,')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(exportDocketCsv(bills, { byteOrderMark: false }).startsWith('jurisdiction,')).toBe(true);
  });

  it('round-trips every sample bill exactly, hashes included', () => {
    const samples = ['legiscan', 'openstates', 'billstatus', 'congress-json', 'docket-csv'].flatMap(
      (folder) => importBills(readSamples(folder)).bills,
    );
    expect(samples.length).toBeGreaterThan(10);
    const back = roundTrip(samples);
    expect(back.errors).toEqual([]);
    expect(back.bills).toEqual(samples.map(withoutMemberVotes));
    expect(samples.some((bill) => bill.votes.some((vote) => vote.members))).toBe(true);
  });

  it('can leave text bodies out for spreadsheets', () => {
    const bills = importBills(readSamples('legiscan/dataset')).bills;
    const back = importDocketCsv([
      {
        name: 'export.csv',
        bytes: encodeUtf8(exportDocketCsv(bills, { includeTextBodies: false })),
      },
    ]);
    expect(back.bills.flatMap((bill) => bill.texts.map((text) => text.text))).toEqual([null, null]);
  });

  // Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
  // is absent (a checkout without shared/ beside it); CI always has it.
  it.skipIf(fixturesRoot === null)(
    'round-trips the real congress and Open States bills exactly',
    () => {
      const bills = [
        ...importBills(readFixtures('congress-json/116/bills/hjres')).bills,
        ...importBills(readFixtures('openstates-scrape')).bills,
        ...importBills(readFixtures('legiscan')).bills,
      ];
      const back = roundTrip(bills);
      expect(back.errors).toEqual([]);
      expect(back.bills).toEqual(bills.map(withoutMemberVotes));
    },
  );

  it('round-trips arbitrary text in every field', () => {
    // Text with the characters the format has to escape: separators, quotes, formula starts,
    // line breaks and backslashes.
    const awkward = fc.string({
      unit: fc.constantFrom('a', ' ', '|', ';', '\\', '"', ',', '=', '+', '-', '@', "'", '\n', 'é'),
    });
    fc.assert(
      fc.property(awkward, awkward, awkward, awkward, (title, name, subject, action) => {
        const result = finalizeBill({
          source: 'docket-csv',
          sourceId: null,
          jurisdiction: 'us-wa',
          session: '2023',
          identifier: 'HB 1',
          title: `T${title}`,
          summary: title,
          introducedDate: null,
          status: 'other',
          rawStatus: null,
          statusDate: null,
          sponsors: [{ name: `N${name}`, role: 'primary', party: name, externalId: null }],
          cosponsors: [],
          subjects: [subject],
          actions: [{ date: null, text: `A${action}`, chamber: null }],
          texts: [{ date: null, type: 'V', url: null, mimeType: null, text: action }],
          votes: [],
          url: null,
        });
        if (!result.ok) return;
        const back = roundTrip([result.bill]);
        expect(back.errors).toEqual([]);
        expect(back.bills).toEqual([result.bill]);
      }),
      { numRuns: 150 },
    );
  });
});
