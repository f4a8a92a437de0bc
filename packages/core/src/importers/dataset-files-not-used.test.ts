import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../encoding/base64.ts';
import { importBills } from './bill-import.ts';
import type { ImportFile } from './bill-import-record.ts';
import { NOTE_NOT_USED, STORED_NOT_USED_LIMIT } from './dataset-files-not-used.ts';
import type { DatasetItem } from '../import-jobs/dataset-import-records.ts';
import { readDatasetRecords } from '../import-jobs/dataset-import-records.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  csvFile,
  numberedBills,
  queueFilesImport,
  runStoredImport,
  testClock,
} from '../test-support/dataset-import-harness.ts';
import {
  fixturesRoot,
  readFixtures,
  warnIfFixturesAbsent,
  zipOf,
} from '../test-support/test-files.ts';

const json = (name: string, value: unknown): ImportFile => ({
  name,
  bytes: encodeUtf8(JSON.stringify(value)),
});
const base64 = (text: string) => encodeBase64(encodeUtf8(text));

/** A small LegiScan dataset: one bill, a text of it in HTML and one in PDF, a roll call and a
 *  text of a bill not included, and a README. */
function handMadeDataset(): ImportFile {
  const bill = json('AK/2025/bill/HB1.json', {
    status: 'OK',
    bill: {
      bill_id: 1001,
      bill_number: 'HB1',
      state: 'AK',
      session: { session_name: '34th Legislature' },
      title: 'An Act relating to fisheries',
      status: 1,
      history: [{ date: '2025-01-21', action: 'Read the first time', chamber: 'H' }],
      texts: [{ doc_id: 1, date: '2025-01-21', type: 'Introduced', mime: 'text/html' }],
    },
  });
  const html = json('AK/2025/text/1.json', {
    status: 'OK',
    text: { doc_id: 1, bill_id: 1001, mime: 'text/html', doc: base64('<p>Be it enacted</p>') },
  });
  const pdf = json('AK/2025/text/2.json', {
    status: 'OK',
    text: { doc_id: 2, bill_id: 1001, mime: 'application/pdf', doc: base64('%PDF-1.4') },
  });
  const otherText = json('AK/2025/text/3.json', {
    status: 'OK',
    text: { doc_id: 3, bill_id: 2002, mime: 'text/html', doc: base64('<p>Other</p>') },
  });
  const otherVote = json('AK/2025/vote/9.json', {
    status: 'OK',
    roll_call: { roll_call_id: 9, bill_id: 2002, yea: 1, nay: 0 },
  });
  const readme = { name: 'AK/2025/README.md', bytes: encodeUtf8('# LegiScan dataset\n') };
  return zipOf('AK_2025.zip', [bill, html, pdf, otherText, otherVote, readme]);
}

function notUsedOf(items: Iterable<DatasetItem>) {
  return [...items].flatMap((item) => (item.kind === 'not-used' ? [item.notUsed] : []));
}

describe('files a dataset holds that no importer reads', () => {
  it('are named with why in the streamed records, the bill still imported', () => {
    const stream = readDatasetRecords([handMadeDataset()]);
    const items = [...stream.items()];
    expect(items.filter((item) => item.kind === 'record')).toHaveLength(1);
    expect(items.filter((item) => item.kind === 'file-error')).toEqual([]);
    expect(notUsedOf(items)).toEqual([
      {
        file: 'AK_2025.zip/AK/2025/text/3.json',
        reason: 'a LegiScan text of bill_id 2002, which is not among the bills imported',
      },
      {
        file: 'AK_2025.zip/AK/2025/vote/9.json',
        reason: 'a LegiScan roll call of bill_id 2002, which is not among the bills imported',
      },
      {
        file: 'AK_2025.zip/AK/2025/text/2.json',
        reason:
          'a LegiScan text document of type application/pdf, whose content is not read (only HTML and plain text are); the bill lists the document with its link',
      },
      { file: 'AK_2025.zip/AK/2025/README.md', reason: NOTE_NOT_USED },
    ]);
  });

  it('are in importBills’ result (the CLI prints them)', () => {
    const result = importBills([handMadeDataset()]);
    expect(result.bills).toHaveLength(1);
    expect(result.errors).toEqual([]);
    expect(result.notUsed.map((entry) => entry.file).sort()).toEqual([
      'AK_2025.zip/AK/2025/README.md',
      'AK_2025.zip/AK/2025/text/2.json',
      'AK_2025.zip/AK/2025/text/3.json',
      'AK_2025.zip/AK/2025/vote/9.json',
    ]);
  });

  it('a README alone is still refused as of no known format, not listed as not used', () => {
    const readme = { name: 'README.md', bytes: encodeUtf8('# notes\n') };
    const result = importBills([readme]);
    expect(result.notUsed).toEqual([]);
    expect(result.errors[0]?.reason).toMatch(/^Not a known bill format/);
  });

  it("are kept in the import job's result and summed up in its message", async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [handMadeDataset()],
      now: now(),
    });
    const job = await runStoredImport(store, jobId, now, { chunkSize: 1 });
    expect(job.status).toBe('done');
    expect(job.result?.notUsedCount).toBe(4);
    expect(job.result?.notUsed?.map((entry) => entry.file)).toContain(
      'AK_2025.zip/AK/2025/README.md',
    );
    expect(job.message).toBe('1 added, 0 updated, 0 unchanged, 0 removed; 4 files not used');
    // Not-used files are not items of the progress: nothing was read from them.
    expect(job.progress).toMatchObject({ recordsRead: 1, written: 1, skipped: 0 });
  });

  it(`keeps the first ${STORED_NOT_USED_LIMIT} in a job and counts them all`, async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const notes = Array.from({ length: STORED_NOT_USED_LIMIT + 5 }, (_, index) => ({
      name: `notes/${index}.txt`,
      bytes: encodeUtf8('a note\n'),
    }));
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [zipOf('set.zip', [csvFile('bills.csv', numberedBills(3)), ...notes])],
      now: now(),
    });
    const job = await runStoredImport(store, jobId, now);
    expect(job.result?.notUsed).toHaveLength(STORED_NOT_USED_LIMIT);
    expect(job.result?.notUsedCount).toBe(STORED_NOT_USED_LIMIT + 5);
  });

  it('a job with every file used has no not-used fields', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csvFile('bills.csv', numberedBills(2))],
      now: now(),
    });
    const job = await runStoredImport(store, jobId, now);
    expect(job.result).toEqual({ added: 2, updated: 0, unchanged: 0, removed: 0 });
  });

  // Real files from ../shared/fixtures, never copied into the project: skipped only where that
  // folder is absent (a checkout without shared/ beside it); CI always has it.
  it.skipIf(fixturesRoot === null)(
    'on the real LegiScan files zipped as a dataset: the texts and roll calls of bills not in it',
    () => {
      warnIfFixturesAbsent();
      if (fixturesRoot === null) return;
      const zip = zipOf('legiscan.zip', readFixtures('legiscan'));
      const result = importBills([zip]);
      expect(result.bills).toHaveLength(6);
      expect(result.errors).toEqual([]);
      // The five texts (CO and CA bills) and three roll calls are of bills not among the six.
      expect(result.notUsed).toHaveLength(8);
      for (const entry of result.notUsed) {
        expect(entry.file).toMatch(/^legiscan\.zip\/legiscan\/(text|vote)\/\d+\.json$/);
        expect(entry.reason).toMatch(/^a LegiScan (text|roll call) of bill_id \d+, which is not/);
      }
    },
  );
});
