import { describe, expect, it } from 'vitest';
import type { Bill } from '../bills/bill.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import type { ImportFile } from '../importers/bill-import-record.ts';
import { NO_CHANGES_MESSAGE } from '../import-jobs/dataset-import-job.ts';
import { queueRefresh, saveDatasetAndQueueImport } from '../commands/dataset-commands.ts';
import type { Dataset } from '../store/local-records.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  allRows,
  queueFilesImport,
  runStoredImport,
  testClock,
} from '../test-support/dataset-import-harness.ts';
import { changeWords, diffBill } from './bill-changes.ts';

interface Row {
  identifier: string;
  title: string;
  status?: string;
  actions?: string[];
  sponsors?: string[];
  texts?: string[];
  votes?: string[];
}

/** A Docket CSV with the columns what-changed is about; actions are "date; chamber; text". */
function csv(name: string, rows: readonly Row[]): ImportFile {
  const lines = ['jurisdiction,session,identifier,title,status,sponsors,actions,texts,votes'];
  for (const row of rows) {
    lines.push(
      [
        'us-ca',
        '2025',
        row.identifier,
        row.title,
        row.status ?? 'introduced',
        (row.sponsors ?? []).map((name) => `${name}; ; primary; `).join(' | '),
        (row.actions ?? []).join(' | '),
        (row.texts ?? []).join(' | '),
        (row.votes ?? []).join(' | '),
      ]
        .map((cell) => `"${cell.replace(/"/g, '""')}"`)
        .join(','),
    );
  }
  return { name, bytes: encodeUtf8(`${lines.join('\n')}\n`) };
}

const first: Row[] = [
  {
    identifier: 'AB 1',
    title: 'Housing',
    actions: ['2025-01-05; lower; Introduced'],
    sponsors: ['Ana Lee'],
  },
  { identifier: 'AB 2', title: 'Water', actions: ['2025-01-06; lower; Introduced'] },
  { identifier: 'AB 3', title: 'Schools' },
];

const second: Row[] = [
  {
    identifier: 'AB 1',
    title: 'Housing',
    status: 'in-committee',
    actions: [
      '2025-01-05; lower; Introduced',
      '2025-02-01; lower; Referred to the Committee on Finance',
    ],
    sponsors: ['Ana Lee', 'Bo Chen'],
    texts: ['2025-02-01; Amended; ; ; '],
    votes: ['2025-02-02; lower; Do pass; 5; 2; 0; passed'],
  },
  { identifier: 'AB 2', title: 'Water and power', actions: ['2025-01-06; lower; Introduced'] },
  { identifier: 'AB 3', title: 'Schools' },
  { identifier: 'AB 4', title: 'New bill, not news' },
];

async function importTwice(files: [ImportFile, ImportFile]) {
  const store = createMemoryLocalStore();
  const now = testClock();
  const firstJob = await queueFilesImport(store, {
    datasetId: 'd1',
    jobId: 'j1',
    files: [files[0]],
    now: now(),
  });
  const one = await runStoredImport(store, firstJob, now);
  const afterFirst = await allRows(store, 'billChanges');
  const secondJob = await queueFilesImport(store, {
    datasetId: 'd1',
    jobId: 'j2',
    files: [files[1]],
    now: now(),
  });
  const two = await runStoredImport(store, secondJob, now);
  return { store, now, one, two, afterFirst, changes: await allRows(store, 'billChanges') };
}

describe('what an import changed', () => {
  it('records nothing on a first import, and on a re-import what changed per bill, in words', async () => {
    const { one, two, afterFirst, changes, store } = await importTwice([
      csv('a.csv', first),
      csv('b.csv', second),
    ]);
    expect(one.status).toBe('done');
    expect(afterFirst).toEqual([]);
    expect(two.status).toBe('done');
    expect(two.result).toMatchObject({ added: 1, updated: 2, unchanged: 1, changed: 2 });
    expect(changes.map((row) => row.billId)).toEqual(['us-ca/2025/ab-1', 'us-ca/2025/ab-2']);
    const [ab1, ab2] = changes;
    expect(ab1?.at).toBe(two.finishedAt);
    expect(ab1?.datasetId).toBe('d1');
    const bills = await allRows(store, 'bills');
    expect(ab1?.toHash).toBe(bills.find((bill) => bill.id === 'us-ca/2025/ab-1')?.changeHash);
    expect(ab1?.changes.map(changeWords)).toEqual([
      'New action: Referred to the Committee on Finance',
      'Status: In committee (was Introduced)',
      'New text version: Amended',
      'New vote: Do pass (passed)',
      'Sponsors: Bo Chen joined',
    ]);
    expect(ab2?.changes.map(changeWords)).toEqual(['Title: Water and power']);
  });

  it('records nothing when the same file is imported again, and nothing for a cancelled import', async () => {
    const same = await importTwice([csv('a.csv', first), csv('a2.csv', first)]);
    expect(same.two.result).toMatchObject({ added: 0, updated: 0, unchanged: 3 });
    expect(same.changes).toEqual([]);

    const store = createMemoryLocalStore();
    const now = testClock();
    await runStoredImport(
      store,
      await queueFilesImport(store, {
        datasetId: 'd1',
        jobId: 'j1',
        files: [csv('a.csv', first)],
        now: now(),
      }),
      now,
    );
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j2',
      files: [csv('b.csv', second)],
      now: now(),
    });
    const cancelled = await runStoredImport(store, jobId, now, {
      chunkSize: 1,
      onProgress: (job) => {
        if (job.progress.written >= 2) controller.aborted = true;
      },
      signal: {
        get aborted() {
          return controller.aborted;
        },
      },
    });
    expect(cancelled.status).toBe('cancelled');
    expect(await allRows(store, 'billChanges')).toEqual([]);
    expect(await allRows(store, 'importStaging')).toEqual([]);
  });

  it('a URL dataset refreshes; a source that has not changed ends "No changes" and writes no bill', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    await saveDatasetAndQueueImport(store, {
      deviceId: 'device-a',
      datasetId: 'd1',
      name: 'From a URL',
      jurisdiction: null,
      session: null,
      source: { kind: 'url', url: 'https://example.org/bills.csv' },
      jobId: 'j1',
      now: now(),
    });
    let served: ImportFile = csv('a.csv', first);
    const seenValidators: (string | undefined)[] = [];
    const loadInput = (dataset: Dataset) => {
      seenValidators.push(dataset.sourceEtag);
      return Promise.resolve({
        files: [served],
        fingerprint: served.name,
        source: { etag: `"${served.name}"`, lastModified: null },
      });
    };
    await runStoredImport(store, 'j1', now, { loadInput });
    served = csv('b.csv', second);
    await queueRefresh(store, { datasetId: 'd1', jobId: 'j2', now: now() });
    const refreshed = await runStoredImport(store, 'j2', now, { loadInput });
    expect(refreshed.result).toMatchObject({ changed: 2 });
    expect(seenValidators).toEqual([undefined, '"a.csv"']);
    const before = await allRows(store, 'bills');
    await queueRefresh(store, { datasetId: 'd1', jobId: 'j3', now: now() });
    const job = await runStoredImport(store, 'j3', now, {
      loadInput: () => Promise.resolve({ unchanged: true }),
    });
    expect(job.status).toBe('done');
    expect(job.message).toBe(NO_CHANGES_MESSAGE);
    expect(job.result).toMatchObject({
      added: 0,
      updated: 0,
      removed: 0,
      changed: 0,
      unchanged: 4,
      sourceUnchanged: true,
    });
    expect(await allRows(store, 'bills')).toEqual(before);
    expect((await allRows(store, 'billChanges')).length).toBe(2);
    expect((await allRows(store, 'datasets'))[0]).toMatchObject({
      state: 'ready',
      sourceEtag: '"b.csv"',
    });
  });

  it('refuses to refresh a dataset of picked files, saying why', async () => {
    const { store, now } = await importTwice([csv('a.csv', first), csv('b.csv', second)]);
    await expect(queueRefresh(store, { datasetId: 'd1', jobId: 'j9', now: now() })).rejects.toThrow(
      /made of picked files/,
    );
    await expect(
      queueRefresh(store, { datasetId: 'nope', jobId: 'j9', now: now() }),
    ).rejects.toThrow(/no longer on this device/);
    expect((await allRows(store, 'jobs')).map((job) => job.id)).toEqual(['j1', 'j2']);
  });

  it('keeps the source validators of a download with the dataset, and drops them with a files import', async () => {
    const store = createMemoryLocalStore();
    const now = testClock();
    const jobId = await queueFilesImport(store, {
      datasetId: 'd1',
      jobId: 'j1',
      files: [csv('a.csv', first)],
      now: now(),
    });
    await runStoredImport(store, jobId, now, {
      loadInput: () =>
        Promise.resolve({
          files: [csv('a.csv', first)],
          fingerprint: 'url-1',
          source: { etag: '"v1"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' },
        }),
    });
    const [dataset] = await allRows(store, 'datasets');
    expect(dataset).toMatchObject({
      sourceEtag: '"v1"',
      sourceLastModified: 'Wed, 01 Jan 2025 00:00:00 GMT',
    });
  });
});

const controller = { aborted: false };

describe('diffBill', () => {
  const base: Bill = {
    id: 'us/119/hr-1',
    source: 'docket-csv',
    sourceId: null,
    jurisdiction: 'us',
    session: '119',
    type: 'hr',
    number: '1',
    identifier: 'H.R. 1',
    title: 'A bill',
    summary: null,
    introducedDate: null,
    status: 'introduced',
    rawStatus: null,
    statusDate: null,
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [
      { date: '2025-01-01', chamber: 'lower', text: 'Read' },
      { date: '2025-01-01', chamber: 'lower', text: 'Read' },
    ],
    texts: [],
    votes: [],
    url: null,
    changeHash: 'a',
  };

  it('counts repeated actions as a multiset, and ignores what is not news (summary, subjects)', () => {
    const after: Bill = {
      ...base,
      summary: 'Now with a summary',
      subjects: ['Taxes'],
      actions: [...base.actions, { date: '2025-01-01', chamber: 'lower', text: 'Read' }],
    };
    expect(diffBill(base, after).map(changeWords)).toEqual(['New action: Read']);
    expect(diffBill(base, { ...base, summary: 'x' })).toEqual([]);
  });

  it('says who left the sponsors, and cuts very long texts', () => {
    const sponsor = { name: 'Ana Lee', role: 'primary' as const, party: null, externalId: null };
    const long = 'x'.repeat(5000);
    const items = diffBill(
      { ...base, sponsors: [sponsor] },
      { ...base, actions: [...base.actions, { date: null, chamber: null, text: long }] },
    );
    expect(items.map((item) => item.kind)).toEqual(['action', 'sponsors']);
    expect(items.slice(1).map(changeWords)).toEqual(['Sponsors: Ana Lee left']);
    expect(items[0]?.kind === 'action' && items[0].text.length).toBe(2000);
  });
});
