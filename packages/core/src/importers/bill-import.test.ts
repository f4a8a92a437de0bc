import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { billChangeHash, billSchema } from '../bills/bill.ts';
import type { ImportBillsResult, ImportSlice } from './bill-import.ts';
import { combineImportSlices, importBills, readImportSlice } from './bill-import.ts';
import { UNKNOWN_FORMAT_MESSAGE } from './bill-format-detection.ts';
import type { ImportFile, RecordOutcome } from './bill-import-record.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
} from '../test-support/test-files.ts';

const file = (name: string, text: string): ImportFile => ({ name, bytes: encodeUtf8(text) });

/** What every import must satisfy, whatever it was given. */
function expectWellFormed(result: ImportBillsResult): void {
  for (const bill of result.bills) {
    expect(billSchema.safeParse(bill).success, bill.id).toBe(true);
    expect(bill.changeHash).toBe(billChangeHash(bill));
  }
  expect(new Set(result.bills.map((bill) => bill.id)).size).toBe(result.bills.length);
  if (result.bills.length === 0) expect(result.errors.length).toBeGreaterThan(0);
}

const allSamples = () =>
  ['legiscan', 'openstates', 'billstatus', 'congress-json', 'docket-csv'].flatMap((folder) =>
    readSamples(folder),
  );

describe('importBills on the hand-made samples', () => {
  it('reads every format in one go, merging the bill two formats describe', () => {
    const seen: RecordOutcome[] = [];
    const result = importBills(allSamples(), { onRecord: (outcome) => seen.push(outcome) });
    expectWellFormed(result);
    expect(result.format).toBe('mixed');
    expect(result.formats).toEqual([
      'legiscan',
      'openstates',
      'billstatus',
      'congress-json',
      'docket-csv',
    ]);
    expect(seen).toHaveLength(result.recordsRead);
    // H.R. 9901 is in the BILLSTATUS sample, the data.json sample and the Docket CSV sample.
    const railBills = result.bills.filter((bill) => bill.id === 'us/118/hr-9901');
    expect(railBills).toHaveLength(1);
    expect(railBills[0]).toMatchObject({ source: 'billstatus', title: 'Safer Rail Crossings Act' });
    expect(railBills[0]?.sponsors[0]?.party).toBe('D');
    expect(result.errors.map((error) => error.file)).toContain('docket-csv/bills.csv');
  });

  it('applies jurisdiction and session overrides', () => {
    const [single] = readSamples('openstates/api-v3/single-bill.json');
    if (!single) throw new Error('sample missing');
    const result = importBills([single], { jurisdiction: 'KY', session: '2024RS' });
    expect(result.bills.map((bill) => bill.id)).toEqual(['us-ky/2024rs/sb-99']);
  });

  it('is the same bills with the same hashes when run twice', () => {
    fc.assert(
      fc.property(fc.subarray(allSamples(), { minLength: 1 }), (files) => {
        const first = importBills(files);
        const second = importBills(files);
        expect(second).toEqual(first);
        expect(second.bills.map((bill) => bill.changeHash)).toEqual(
          first.bills.map((bill) => bill.changeHash),
        );
      }),
      { numRuns: 25 },
    );
  });
});

describe('importBills on hostile input', () => {
  it('refuses unknown files with the expected-formats message', () => {
    const result = importBills([file('notes.csv', 'name,phone\nA,1\n')]);
    expect(result).toMatchObject({
      format: null,
      bills: [],
      errors: [{ file: 'notes.csv', record: null, reason: UNKNOWN_FORMAT_MESSAGE }],
    });
  });

  it('returns errors for malformed JSON, XML and CSV instead of throwing', () => {
    const result = importBills([
      file('a.json', '{"bill": {"bill_id": 1, "bill_number": "HB1",'),
      file(
        'b.xml',
        '<billStatus><bill><number>1</number><type>HR</type><congress>118</congress><title>x</title></bill>',
      ),
      file('c.csv', 'identifier,title,jurisdiction,session\nHB 1,"never closed,us-wa,2023\n'),
    ]);
    expect(result.bills).toEqual([]);
    expect(result.errors.map((error) => [error.file, error.reason.split(':')[0]])).toEqual([
      ['a.json', 'Malformed JSON'],
      // Its root element is never closed.
      ['b.xml', 'XML cut short'],
      ['c.csv', 'a quoted field is never closed'],
    ]);
  });

  it('refuses a ZIP that declares more than the size limit, before inflating anything', () => {
    const zip = zipSync({ 'bill/HB1.json': encodeUtf8('{}') }, { level: 0 });
    // Declare a 4 GB entry in the central directory and the local header.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const central = zip.findIndex((_, at) => view.getUint32(at, true) === 0x02014b50);
    view.setUint32(central + 24, 0xfffffff0, true);
    view.setUint32(22, 0xfffffff0, true);
    const result = importBills([{ name: 'bomb.zip', bytes: zip }]);
    expect(result.bills).toEqual([]);
    expect(result.errors[0]?.reason).toMatch(
      /^ZIP entry bill\/HB1\.json would expand to \d+ MB, over the 256 MB limit; refused as a possible ZIP bomb$/,
    );
  });

  it('refuses a ZIP bomb that expands past the total limit', () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = zipSync({ 'a.json': zeros, 'b.json': zeros }, { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const result = importBills([{ name: 'bomb.zip', bytes: bomb }], {
      limits: { maxTotalBytes: 10 * 1024 * 1024 },
    });
    expect(result.errors).toEqual([
      {
        file: 'bomb.zip',
        record: null,
        reason:
          'ZIP archive would expand to 16 MB, over the 10 MB limit; refused as a possible ZIP bomb',
      },
    ]);
  });

  it('refuses a ZIP with too many entries', () => {
    const entries = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [`f${index}.json`, encodeUtf8('{}')]),
    );
    const result = importBills([{ name: 'many.zip', bytes: zipSync(entries) }], {
      limits: { maxEntries: 20 },
    });
    expect(result.errors[0]?.reason).toBe(
      'ZIP archive has 30 entries, over the limit of 20; refused as a possible ZIP bomb',
    );
  });

  it('reports a damaged ZIP entry and a ZIP inside a ZIP, and keeps the good entries', () => {
    const [good] = readSamples('congress-json/118/bills/hr/hr9901/data.json');
    if (!good) throw new Error('sample missing');
    const damaged = zipSync(
      {
        'good.json': good.bytes,
        'bad.json': good.bytes,
        'inner.zip': zipSync({ 'x.json': good.bytes }),
      },
      { level: 0 },
    );
    // Flip a byte inside the stored data of the second entry.
    const second = damaged.findIndex(
      (_, at) =>
        at > 30 && damaged[at] === 0x50 && damaged[at + 1] === 0x4b && damaged[at + 2] === 3,
    );
    const at = second + 30 + 'bad.json'.length + 10;
    damaged[at] = (damaged[at] ?? 0) ^ 0x20;
    const result = importBills([{ name: 'set.zip', bytes: damaged }]);
    expect(result.bills.map((bill) => bill.id)).toEqual(['us/118/hr-9901']);
    expect(result.errors).toEqual([
      {
        file: 'set.zip/bad.json',
        record: null,
        reason: 'ZIP entry is damaged (its CRC-32 does not match)',
      },
      {
        file: 'set.zip/inner.zip',
        record: null,
        reason: 'a ZIP inside a ZIP is not read; unzip the outer archive first',
      },
    ]);
  });

  // A quadratic pass over this text would run for hours: the generous timeout catches that;
  // speed itself is measured in bench/.
  it(
    'refuses enormous values by name and finishes on pathological text',
    { timeout: 120_000 },
    () => {
      const [good] = readSamples('congress-json/118/bills/hr/hr9901/data.json');
      if (!good) throw new Error('sample missing');
      const bill = JSON.parse(decodeUtf8(good.bytes)) as Record<string, unknown>;
      const huge = importBills([
        file(
          'huge-title.json',
          JSON.stringify({ ...bill, titles: [], short_title: 'x'.repeat(25_000_000) }),
        ),
        file(
          'spaces.json',
          JSON.stringify({
            ...bill,
            bill_id: 'hr9902-118',
            number: '9902',
            actions: [
              { acted_at: '2024-01-01', text: `${' '.repeat(1_000_000)}x by Yea-Nay Vote` },
            ],
          }),
        ),
        file(
          'script.json',
          JSON.stringify({
            ...bill,
            bill_id: 'hr9903-118',
            number: '9903',
            summary: { text: '<script'.repeat(200_000) },
          }),
        ),
      ]);
      expect(huge.errors).toEqual([
        {
          file: 'huge-title.json',
          record: 'hr9901-118',
          reason: 'title: Too big: expected string to have <=20000 characters',
        },
      ]);
      expect(huge.bills.map((result) => result.id)).toEqual(['us/118/hr-9902', 'us/118/hr-9903']);
    },
  );

  it('says so when nothing was given', () => {
    expect(importBills([]).errors).toEqual([
      { file: '(no files)', record: null, reason: 'no bills found in the files' },
    ]);
  });
});

describe('the member directory of an import (who voted how, issue 41)', () => {
  const slice = (members: ImportSlice['members']): ImportSlice => ({
    format: 'openstates',
    formats: ['openstates'],
    records: [],
    errors: [],
    notUsed: [],
    members,
    recordsRead: 0,
    filesRead: 0,
  });

  it('keeps one entry per id across slices: the first, its missing values filled from later ones', () => {
    const combined = combineImportSlices(
      [
        slice([
          { id: 'bioguide:A000370', name: 'Adams', party: null, district: null, role: null },
          { id: 'legiscan:1', name: 'Ann Lee', party: 'D', district: null, role: 'Rep' },
        ]),
        slice([
          { id: 'bioguide:A000370', name: 'Alma Adams', party: 'D', district: 'NC-12', role: null },
          { id: 'legiscan:1', name: 'Ann B. Lee', party: 'R', district: 'HD-1', role: 'Sen' },
          { id: 'legiscan:2', name: 'Bo Park', party: null, district: null, role: null },
        ]),
      ],
      ['a', 'b'],
    );
    expect(combined.members).toEqual([
      { id: 'bioguide:A000370', name: 'Adams', party: 'D', district: 'NC-12', role: null },
      { id: 'legiscan:1', name: 'Ann Lee', party: 'D', district: 'HD-1', role: 'Rep' },
      { id: 'legiscan:2', name: 'Bo Park', party: null, district: null, role: null },
    ]);
  });

  it("collects the outcomes' members as a slice is read, and none from formats without them", () => {
    const legiscan = readImportSlice(readSamples('legiscan/dataset'));
    expect(legiscan.members.map((member) => member.id)).toEqual(['legiscan:503']);
    expect(readImportSlice(readSamples('billstatus')).members).toEqual([]);
    expect(importBills(allSamples()).members.map((member) => member.id)).toEqual([
      'legiscan:503',
      'name:us-nc:lower:Okafor',
      'name:us-nc:lower:Solberg',
      'name:us-vt:lower:Abernathy',
    ]);
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)(
  'importBills on every real file under ../shared/fixtures at once',
  () => {
    it('reads all 915 files, skips SOURCES.md, merges the paired bills and reports no errors', () => {
      const files = readFixtures('');
      const result = importBills(files);
      expectWellFormed(result);
      expect(files).toHaveLength(916);
      expect(result.format).toBe('mixed');
      expect(result.formats).toEqual(['legiscan', 'openstates', 'billstatus', 'congress-json']);
      expect(result.errors).toEqual([]);
      // 16 LegiScan files hold 6 bills; 168 Open States files 153 bills; 169 BILLSTATUS files and
      // 562 data.json files 31 + 562 bills once the 133 pairs and 5 repeated samples are merged.
      expect(result.recordsRead).toBe(6 + 153 + 133 + 36 + 562);
      expect(result.bills).toHaveLength(6 + 153 + 31 + 562);
    });
  },
);

warnIfFixturesAbsent();
