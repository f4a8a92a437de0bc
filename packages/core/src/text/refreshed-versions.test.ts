import { describe, expect, it } from 'vitest';
import type { BillText } from '../bills/bill.ts';
import { billIdOf, storedBill } from '../test-support/bill-command-harness.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import type { Job } from '../store/local-records.ts';
import {
  fetchRefreshedVersions,
  recordRefreshedTextFailures,
  refreshedVersionsToFetch,
} from './refreshed-versions.ts';
import { saveVersionText } from './version-text-rows.ts';

const AT = '2025-02-01T10:00:00.000Z';
const version = (type: string, date: string, url: string | null): BillText => ({
  date,
  type,
  url,
  mimeType: 'text/html',
  text: null,
});
const introduced = version('Introduced', '2025-01-03', 'https://src.example/1.htm');
const engrossed = version('Engrossed', '2025-01-20', 'https://src.example/2.htm');

async function refreshedStore() {
  const store = createMemoryLocalStore();
  const bills = [1, 2, 3, 4].map((n) =>
    storedBill(n, {
      texts:
        n === 3
          ? [introduced, { ...engrossed, text: 'Its own text.' }]
          : n === 4
            ? [introduced, { ...engrossed, url: null }]
            : [introduced, engrossed],
    }),
  );
  const textChange = [{ kind: 'text' as const, date: '2025-01-20', type: 'Engrossed' }];
  await store.write(['bills', 'decisions', 'billChanges'], async (tx) => {
    await tx.putMany('bills', bills);
    for (const n of [1, 3, 4]) {
      await tx.put('decisions', { billId: billIdOf(n), decision: 'track', decidedAt: AT });
    }
    // Bill 2 is not tracked: nothing of it is fetched.
    await tx.put('decisions', { billId: billIdOf(2), decision: 'later', decidedAt: AT });
    for (const n of [1, 2, 3, 4]) {
      await tx.put('billChanges', {
        id: `${billIdOf(n)}|${AT}`,
        billId: billIdOf(n),
        datasetId: 'dataset-1',
        at: AT,
        toHash: `hash-${n}`,
        changes: textChange,
      });
    }
  });
  return store;
}

const job: Pick<Job, 'status' | 'subjectId' | 'finishedAt'> = {
  status: 'done',
  subjectId: 'dataset-1',
  finishedAt: AT,
};

describe('refreshedVersionsToFetch', () => {
  it('names the new versions of tracked bills with a URL and no text, once', async () => {
    const store = await refreshedStore();
    expect(await refreshedVersionsToFetch(store, job)).toEqual([
      {
        billId: billIdOf(1),
        identifier: 'H.R. 1',
        index: 1,
        type: 'Engrossed',
        url: engrossed.url,
      },
    ]);

    // Fetched already from that URL: nothing to do; from another URL: fetched again.
    const fetched = {
      billId: billIdOf(1),
      index: 1,
      url: engrossed.url ?? '',
      format: 'html' as const,
      text: { text: 'Sec. 1.', headings: [] },
      fetchedAt: AT,
    };
    await saveVersionText(store, fetched);
    expect(await refreshedVersionsToFetch(store, job)).toEqual([]);
    await saveVersionText(store, { ...fetched, url: 'https://src.example/old.htm' });
    expect(await refreshedVersionsToFetch(store, job)).toHaveLength(1);
  });

  it('names nothing for another dataset, another refresh, a failed job, or past its limit', async () => {
    const store = await refreshedStore();
    expect(await refreshedVersionsToFetch(store, { ...job, subjectId: 'dataset-2' })).toEqual([]);
    expect(
      await refreshedVersionsToFetch(store, { ...job, finishedAt: '2025-02-02T00:00:00.000Z' }),
    ).toEqual([]);
    expect(await refreshedVersionsToFetch(store, { ...job, status: 'failed' })).toEqual([]);
    expect(await refreshedVersionsToFetch(store, job, 0)).toEqual([]);
  });
});

describe('fetchRefreshedVersions', () => {
  it('fetches a few at a time, and a failure neither stops the others nor throws', async () => {
    const versions = Array.from({ length: 7 }, (_, index) => ({
      billId: `bill-${index}`,
      identifier: `HB ${index}`,
      index: 0,
      type: 'Introduced',
      url: `https://src.example/${index}.htm`,
    }));
    let running = 0;
    let most = 0;
    const done: string[] = [];
    const failures = await fetchRefreshedVersions(versions, async (one) => {
      running++;
      most = Math.max(most, running);
      for (let turn = 0; turn < 5; turn++) await Promise.resolve();
      running--;
      if (one.identifier === 'HB 4') throw new Error('the server answered 404 Not Found');
      done.push(one.identifier);
    });
    expect(most).toBe(3);
    expect(done).toHaveLength(6);
    expect(failures.map((failure) => [failure.version.identifier, failure.reason])).toEqual([
      ['HB 4', 'the server answered 404 Not Found'],
    ]);
  });

  it('records failures on the job, which stays done', async () => {
    const store = createMemoryLocalStore();
    const row: Job = {
      id: 'job-1',
      kind: 'import',
      subjectId: 'dataset-1',
      status: 'done',
      createdAt: AT,
      startedAt: AT,
      finishedAt: AT,
      progress: { recordsRead: 1, written: 1, skipped: 0, total: 1 },
      checkpoint: null,
      result: { added: 0, updated: 1, unchanged: 0, removed: 0, changed: 1 },
      errors: [],
      message: null,
    } as unknown as Job;
    await store.write(['jobs'], (tx) => tx.put('jobs', row));
    await recordRefreshedTextFailures(store, 'job-1', [
      {
        version: { billId: 'b', identifier: 'HB 4', index: 1, type: 'Engrossed', url: 'https://x' },
        reason: 'Could not download https://x: the server answered 404 Not Found.',
      },
    ]);
    const after = await store.read(['jobs'], (tx) => tx.get('jobs', 'job-1'));
    expect(after?.status).toBe('done');
    expect(after?.errors).toEqual([
      {
        record: 'HB 4',
        reason:
          'The text of "Engrossed" was not fetched: Could not download https://x: the server answered 404 Not Found.',
      },
    ]);
  });
});
