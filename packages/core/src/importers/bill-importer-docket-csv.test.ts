import { describe, expect, it } from 'vitest';
import { importDocketCsv } from './bill-importer-docket-csv.ts';
import { decodeList, encodeItem, neutralizeFormula, restoreFormula } from './docket-csv-layout.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { readSamples } from '../test-support/test-files.ts';

describe('Docket CSV (hand-made, with a byte-order mark)', () => {
  const result = importDocketCsv(readSamples('docket-csv'));
  const byIdentifier = new Map(result.bills.map((bill) => [bill.identifier, bill]));

  it('reads a full row, lists and all', () => {
    const bill = byIdentifier.get('H.R. 9901');
    expect(bill?.changeHash).toMatch(/^[0-9a-f]{16}$/);
    expect({ ...bill, changeHash: undefined }).toEqual({
      id: 'us/118/hr-9901',
      source: 'billstatus',
      sourceId: 'hr9901-118',
      jurisdiction: 'us',
      session: '118',
      type: 'hr',
      number: '9901',
      identifier: 'H.R. 9901',
      title: 'Safer Rail Crossings Act',
      summary:
        'Safer Rail Crossings Act\n\nThis bill directs the Federal Railroad Administration to fund gates & lights at rural grade crossings.',
      introducedDate: '2024-03-05',
      status: 'passed-one-chamber',
      rawStatus: 'PASS_OVER:HOUSE',
      statusDate: '2024-04-10',
      sponsors: [{ name: 'Eleanor Marsh', role: 'primary', party: 'D', externalId: 'M009901' }],
      cosponsors: [
        { name: 'Silas K. Thornbury', role: 'cosponsor', party: 'R', externalId: 'T009902' },
      ],
      subjects: ['Railroads', 'Transportation safety and security'],
      actions: [
        { date: '2024-03-05', chamber: 'lower', text: 'Introduced in House' },
        {
          date: '2024-03-05',
          chamber: 'lower',
          text: 'Referred to the House Committee on Energy and Commerce.',
        },
        {
          date: '2024-04-10',
          chamber: 'lower',
          text: 'On motion to suspend the rules and pass the bill; as amended Agreed to by the Yeas and Nays: (2/3 required): 402 - 18 (Roll no. 120).',
        },
      ],
      texts: [
        {
          date: '2024-03-05',
          type: 'Introduced in House',
          url: 'https://www.govinfo.gov/content/pkg/BILLS-118hr9901ih/xml/BILLS-118hr9901ih.xml',
          mimeType: 'text/xml',
          text: null,
        },
      ],
      votes: [
        {
          date: '2024-04-10',
          chamber: 'lower',
          motion: 'On motion to suspend the rules and pass the bill, as amended',
          yes: 402,
          no: 18,
          other: 1,
          passed: true,
        },
      ],
      url: 'https://www.congress.gov/bill/118th-congress/house-bill/9901',
      changeHash: undefined,
    });
  });

  it('takes the formula guard off, unescapes list separators and reads US dates', () => {
    const bill = byIdentifier.get('HB 1001');
    expect(bill?.title).toBe('=HYPERLINK("http://evil.example","click")');
    expect(bill?.subjects).toEqual(['Agriculture', 'Water | Sewer']);
    expect(bill?.statusDate).toBe('2023-01-09');
    expect(bill?.source).toBe('docket-csv');
    expect(bill?.texts[0]?.text).toBe(
      'AN ACT Relating to water metering; first line.\nSec. 1. Meters shall be read monthly.',
    );
  });

  it('reads a minimal row, normalizing the jurisdiction', () => {
    expect(byIdentifier.get('AB 12')).toMatchObject({
      id: 'us-ca/2023-2024/ab-12',
      status: 'other',
      sponsors: [],
    });
  });

  // Lines are the file's physical lines: the first row's summary spans three of them.
  it('names each bad row, column and item', () => {
    expect(result.errors).toEqual([
      {
        file: 'docket-csv/bills.csv',
        record: 'row at line 11',
        reason: 'has 4 cells where the header has 19',
      },
      {
        file: 'docket-csv/bills.csv',
        record: 'row at line 8 (HB 1005)',
        reason:
          'status "pending" is not one of introduced, in-committee, passed-one-chamber, passed-both, enacted, vetoed, failed, other',
      },
      {
        file: 'docket-csv/bills.csv',
        record: 'row at line 9 (HB 1006)',
        reason: 'actions item 1 date "2024-13-01" is not a date (YYYY-MM-DD)',
      },
      {
        file: 'docket-csv/bills.csv',
        record: 'row at line 10 (H.R. 2)',
        reason:
          'id column says "us/118/hr-1" but jurisdiction, session and identifier give "us/118/hr-2" (clear the id cell after editing those)',
      },
    ]);
    expect(result.recordsRead).toBe(7);
  });

  it('refuses a CSV without identifier and title columns', () => {
    const other = importDocketCsv([{ name: 'other.csv', bytes: encodeUtf8('name,value\nx,1\n') }]);
    expect(other.errors[0]?.reason).toBe(
      'not a Docket CSV: the header needs identifier and title columns',
    );
  });
});

describe('Docket CSV cells', () => {
  it('guards formula cells and restores them exactly', () => {
    for (const value of [
      '=1+1',
      '+1',
      '-5',
      '@SUM(A1)',
      "'=already",
      "''-two",
      "'plain",
      'plain',
      '',
    ]) {
      const written = neutralizeFormula(value);
      expect(/^[=+\-@]/.test(written), value).toBe(false);
      expect(restoreFormula(written), value).toBe(value);
    }
  });

  it('escapes separators inside list items', () => {
    const cell = [encodeItem(['a|b', 'c;d', 'e\\f']), encodeItem(['plain', null, 'x'])].join(' | ');
    expect(decodeList(cell)).toEqual([
      ['a|b', 'c;d', 'e\\f'],
      ['plain', null, 'x'],
    ]);
    expect(decodeList('  ')).toEqual([]);
  });
});
