import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bill } from '../bills/bill.ts';
import { billChangeHash, billSchema } from '../bills/bill.ts';
import { mergeDuplicateBills } from '../bills/bill-merge.ts';
import { importBills } from './bill-import.ts';
import type { ImportError, ImportFile } from './bill-import-record.ts';
import { readDatasetRecords } from '../import-jobs/dataset-import-records.ts';
import { fixturesRoot, readFixtures, readSamples, zipOf } from '../test-support/test-files.ts';

// Damage in transit or on disk — a flipped byte, a file cut short — must never crash an import
// or slip a half bill through: the answer is always valid bills, or a message, or both.

function corpus(): ImportFile[] {
  const samples = [
    ...readSamples('legiscan/getbill/HB1001.json'),
    ...readSamples('openstates/scrape/sessions/2023/bills/HB12/metadata.json'),
    ...readSamples('openstates/api-v3/bills-page.json'),
    ...readSamples('openstates/csv/VT/2023-2024/VT_2023-2024_bills.csv'),
    ...readSamples('billstatus/BILLSTATUS-118hr9901.xml'),
    ...readSamples('billstatus/BILLSTATUS-118sjres301.xml'),
    ...readSamples('congress-json/118/bills/hr/hr9901/data.json'),
    ...readSamples('docket-csv/bills.csv'),
    zipOf('dataset.zip', readSamples('legiscan/dataset'), 'legiscan/dataset/'),
  ];
  if (fixturesRoot === null) return samples;
  return [
    ...samples,
    ...readFixtures('legiscan/bill/HB1044.json'),
    ...readFixtures('legiscan/text/100932.json'),
    ...readFixtures('openstates-scrape/sessions/119/bills/HCONRES14/metadata.json'),
    ...readFixtures('billstatus-xml-116/116/bills/sjres/sjres68/fdsys_billstatus.xml'),
    ...readFixtures('billstatus-samples/samples/formatChange/future/BILLSTATUS-117sconres7.xml'),
    ...readFixtures('congress-json/116/bills/hjres/hjres31/data.json'),
    zipOf('sconres.zip', readFixtures('congress-json/116/bills/sconres').slice(0, 10)),
  ];
}

const files = corpus();

function expectValidOrExplained(damaged: ImportFile): void {
  const result = importBills([damaged]);
  for (const bill of result.bills) {
    expect(billSchema.safeParse(bill).success).toBe(true);
    expect(bill.changeHash).toBe(billChangeHash(bill));
  }
  expect(result.bills.length + result.errors.length).toBeGreaterThan(0);
}

describe('damaged files', () => {
  it('a flipped byte never throws and yields valid bills or a message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        (source, where, mask) => {
          const bytes = source.bytes.slice();
          const at = Math.min(bytes.length - 1, Math.floor(where * bytes.length));
          bytes[at] = (bytes[at] ?? 0) ^ mask;
          expectValidOrExplained({ name: source.name, bytes });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a file cut short never throws and yields valid bills or a message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (source, where) => {
          const bytes = source.bytes.slice(0, Math.floor(where * source.bytes.length));
          expectValidOrExplained({ name: source.name, bytes });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('importing the same damaged input twice gives the same result', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (source, where) => {
          const bytes = source.bytes.slice();
          const at = Math.floor(where * (bytes.length - 1));
          bytes[at] = (bytes[at] ?? 0) ^ 0x01;
          const damaged = { name: source.name, bytes };
          expect(importBills([damaged])).toEqual(importBills([damaged]));
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** What an import job makes of the files, read as it reads them: one item at a time, file by
 *  file, a bill met again merged with the one kept. */
function streamed(files: readonly ImportFile[]) {
  const stream = readDatasetRecords(files);
  const byId = new Map<string, Bill>();
  const errors: ImportError[] = [...stream.fileErrors];
  let records = 0;
  for (const item of stream.items()) {
    if (item.kind === 'file-error') {
      errors.push(item.error);
      continue;
    }
    if (item.kind === 'not-used') continue;
    records++;
    const { outcome } = item;
    if (!outcome.ok) {
      errors.push(outcome.error);
      continue;
    }
    const prior = byId.get(outcome.bill.id);
    byId.set(outcome.bill.id, prior ? mergeDuplicateBills([prior, outcome.bill]) : outcome.bill);
  }
  return { bills: [...byId.values()], errors, records, format: stream.format, total: stream.total };
}

const byId = (a: Bill, b: Bill) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const errorKey = (error: ImportError) => `${error.file}|${error.record ?? ''}|${error.reason}`;

/** The streamed read gives what importBills gives, whatever the input, damaged or not. */
function expectStreamedLikeImportBills(input: readonly ImportFile[]): void {
  const whole = importBills(input);
  const stream = streamed(input);
  expect(stream.bills.sort(byId)).toEqual([...whole.bills].sort(byId));
  const wholeErrors = whole.errors
    .filter((error) => error.reason !== 'no bills found in the files')
    .map(errorKey)
    .sort();
  expect(stream.errors.map(errorKey).sort()).toEqual(wholeErrors);
  expect(stream.records).toBe(whole.recordsRead);
  expect(stream.format).toBe(whole.format);
  if (stream.total !== null) expect(stream.total).toBe(stream.records);
}

describe('the streamed read of an import job', () => {
  it('gives the bills, errors, record count and format importBills gives, for every file and all of them together', () => {
    for (const file of files) expectStreamedLikeImportBills([file]);
    expectStreamedLikeImportBills(files);
  });

  it('gives what importBills gives for damaged files too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...files),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (source, where, mask, cut) => {
          const bytes = cut
            ? source.bytes.slice(0, Math.floor(where * source.bytes.length))
            : source.bytes.slice();
          if (!cut) {
            const at = Math.min(bytes.length - 1, Math.floor(where * bytes.length));
            bytes[at] = (bytes[at] ?? 0) ^ mask;
          }
          expectStreamedLikeImportBills([{ name: source.name, bytes }]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
