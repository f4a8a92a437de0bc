import { describe, expect, it } from 'vitest';
import type { Dataset, Job } from '@docket/core/store';
import {
  datasetStateWords,
  deletionDone,
  deletionQuestion,
  filesUnavailableWords,
  jobsEndedWords,
  lastResultWords,
  recordTallyWords,
} from './dataset-words.ts';

describe('the words around deleting a dataset', () => {
  it('say what goes, what stays and what is kept', () => {
    expect(deletionQuestion('Alaska 2025', { billsRemoved: 1200, billsKept: 1 })).toBe(
      '“Alaska 2025” and its 1,200 bills go from this device and your other devices. 1 bill another dataset also provides stays. Your tags, positions, decisions and notes on its bills are kept, and come back if you import the bills again.',
    );
    expect(deletionQuestion('Broken', { billsRemoved: 0, billsKept: 0 })).toMatch(
      /^“Broken” goes from this device and your other devices; no bill goes with it\. Your tags/,
    );
  });

  it('say what was deleted', () => {
    expect(deletionDone({ name: 'Alaska 2025', billsRemoved: 1, billsKept: 3 })).toBe(
      'Deleted “Alaska 2025” and 1 bill.',
    );
    expect(deletionDone({ name: 'Broken', billsRemoved: 0, billsKept: 0 })).toBe(
      'Deleted “Broken”.',
    );
  });
});

describe("an import's tally of records", () => {
  const job = (written: number, skipped: number, added: number, unchanged = 0) => ({
    progress: { recordsRead: written + skipped, written, skipped, total: written + skipped },
    result: { added, updated: 0, unchanged, removed: 0 },
  });

  it('adds up: bills, records merged into another record’s bill, records skipped', () => {
    expect(recordTallyWords(job(86, 0, 81))).toBe(
      '86 records read: 81 bills, 5 records merged into a bill another record also gave, 0 records skipped.',
    );
    expect(recordTallyWords(job(10, 2, 4, 6))).toBe(
      '12 records read: 10 bills, 2 records skipped.',
    );
  });

  it('is not said for a job that read nothing or does not add up', () => {
    expect(
      recordTallyWords({
        progress: { recordsRead: 0, written: 0, skipped: 0, total: 0 },
        result: { added: 0, updated: 0, unchanged: 81, removed: 0, sourceUnchanged: true },
      }),
    ).toBeNull();
    expect(recordTallyWords({ ...job(1, 0, 1), result: null })).toBeNull();
  });
});

describe('the last result of an import or a refresh', () => {
  const finished = (status: Job['status'], changes: Partial<Job> = {}): Job => ({
    id: 'job-1',
    kind: 'import',
    subjectId: 'dataset-1',
    status,
    createdAt: '2026-11-26T10:00:00.000Z',
    startedAt: '2026-11-26T10:00:01.000Z',
    finishedAt: '2026-11-26T10:00:02.000Z',
    progress: { recordsRead: 3, written: 3, skipped: 0, total: 3 },
    result: { added: 0, updated: 3, unchanged: 0, removed: 0, changed: 2 },
    errors: [],
    message: null,
    ...changes,
  });

  it('says what a finished one found', () => {
    expect(lastResultWords(finished('done'))).toBe(
      '0 added, 3 updated, 0 removed; 2 bills with news.',
    );
    expect(
      lastResultWords(
        finished('done', {
          result: { added: 0, updated: 0, unchanged: 3, removed: 0, sourceUnchanged: true },
        }),
      ),
    ).toBe('No changes: the source has not changed.');
  });

  it('says why a failed one failed, and nothing while one waits or runs', () => {
    const refused =
      'Could not download https://example.test/a.zip: the site does not let other sites download it (CORS).';
    expect(lastResultWords(finished('failed', { result: null, message: refused }))).toBe(
      `Failed: ${refused}`,
    );
    expect(
      lastResultWords(
        finished('failed', { result: null, errors: [{ record: 'a.json', reason: 'Not JSON' }] }),
      ),
    ).toBe('Failed: Not JSON');
    expect(lastResultWords(finished('running', { result: null }))).toBeNull();
    expect(lastResultWords(undefined)).toBeNull();
  });
});

describe("a dataset's state while it imports", () => {
  it('says how far a long download is, then the share of records written', () => {
    const dataset = { state: 'importing', lastImportAt: null } as unknown as Dataset;
    const running = (message: string, total: number | null) =>
      ({
        status: 'running',
        message,
        progress: { recordsRead: 0, written: 0, skipped: 0, total },
      }) as unknown as Job;
    expect(datasetStateWords(dataset, running('Reading bill 120 of 800', null))).toBe(
      'Importing: Reading bill 120 of 800',
    );
    expect(datasetStateWords(dataset, running('Reading files', null))).toBe('Importing');
  });
});

describe('a dataset whose files never reached this device', () => {
  const waiting = {
    state: 'new',
    lastImportAt: null,
    needsImport: true,
    origin: { kind: 'files', fileIds: ['f1'] },
  } as unknown as Dataset;
  const marked = (filesUnavailable: Dataset['filesUnavailable']): Dataset => ({
    ...waiting,
    filesUnavailable,
  });

  it('says why instead of waiting for sync', () => {
    expect(datasetStateWords(waiting, undefined)).toBe('Waiting for sync to bring its files');
    expect(
      datasetStateWords(marked({ reason: 'not-sent-since-reset', missing: 1 }), undefined),
    ).toBe(
      'Its files never reached this device: no device has sent them since the cloud password was reset.',
    );
    expect(datasetStateWords(marked({ reason: 'not-sent', missing: 2 }), undefined)).toBe(
      'Its files never reached this device: no device has sent them.',
    );
    const failed = { status: 'failed', message: 'no file' } as unknown as Job;
    expect(
      datasetStateWords(
        marked({
          reason: 'not-fetched',
          missing: 1,
          file: 'bills.csv',
          problem: 'part 1 is not on the server',
        }),
        failed,
      ),
    ).toBe(
      'Its files never reached this device: bills.csv could not be fetched (part 1 is not on the server).',
    );
    expect(filesUnavailableWords(waiting)).toBeNull();
  });

  it('gives way to an import that is on its way', () => {
    const queued = { status: 'queued' } as unknown as Job;
    expect(datasetStateWords(marked({ reason: 'not-sent', missing: 1 }), queued)).toBe(
      'Waiting to import',
    );
  });
});

describe('what the Jobs screen says when jobs end', () => {
  const job = (id: string, status: Job['status'], extra: Partial<Job> = {}): Job =>
    ({
      id,
      kind: 'import',
      status,
      subjectId: 'd1',
      message: null,
      result: null,
      ...extra,
    }) as Job;
  const label = (ended: Job) => `Import of ${ended.id}`;
  it('says each job that was running and has ended, with what it came to', () => {
    const before = new Map<string, Job['status']>([
      ['a', 'running'],
      ['b', 'queued'],
      ['c', 'done'],
      ['d', 'running'],
    ]);
    const now = [
      job('a', 'done', {
        result: { added: 6, updated: 0, unchanged: 0, removed: 0 },
      }),
      job('b', 'failed', { message: 'The file is not a ZIP archive.' }),
      job('c', 'done'),
      job('d', 'running'),
    ];
    expect(jobsEndedWords(before, now, label)).toBe(
      'Import of a: Done: 6 added, 0 updated, 0 removed. Import of b: Failed: The file is not a ZIP archive.',
    );
  });
  it('says nothing when no job ended, or for jobs it never saw running', () => {
    expect(jobsEndedWords(new Map(), [job('a', 'done')], label)).toBeNull();
    expect(jobsEndedWords(new Map([['a', 'running']]), [job('a', 'running')], label)).toBeNull();
  });
});
