import { fnv1a64Hex } from '@docket/core/bills';
import { createMemoryLocalStore, type Job, type LocalStore } from '@docket/core/store';
import { describe, expect, it } from 'vitest';
import {
  LEGISCAN_QUERIES_SETTING,
  legiscanKeyId,
  queryMonth,
  readLegiscanQueries,
} from '@docket/core/sources';
import type { ImportRunnerDeps, PickedFile } from './import-runner.ts';
import { createImportRunner } from './import-runner.ts';
import { IMPORTS_LOCK, jobLockName, localJobLocks } from './job-locks.ts';
import { stallGuardedFetch } from './stall-guard.ts';
import { readSamples, zipOf } from '@docket/core/test-support/test-files';
import { tinyPdf } from '@docket/core/test-support/tiny-pdf';

const csv = (rows: string[]) =>
  new TextEncoder().encode(['jurisdiction,session,identifier,title', ...rows].join('\n'));

const picked = (name: string, bytes: Uint8Array<ArrayBuffer>): PickedFile => ({
  name,
  // jsdom's Blob cannot be read back; the runner only needs arrayBuffer().
  blob: { arrayBuffer: () => Promise.resolve(bytes.buffer) } as unknown as Blob,
});

function setup(overrides: Partial<ImportRunnerDeps> = {}) {
  const store = createMemoryLocalStore();
  const locks = localJobLocks();
  let id = 0;
  let tick = 0;
  const runner = createImportRunner({
    store,
    locks,
    fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    sha256Hex: (bytes) => Promise.resolve(fnv1a64Hex(bytes)),
    newId: () => `id-${++id}`,
    now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, ++tick)).toISOString(),
    deviceId: () => Promise.resolve('device-a'),
    onError: (error) => {
      throw error;
    },
    ...overrides,
  });
  return { store, locks, runner };
}

async function jobWhen(
  store: LocalStore,
  jobId: string,
  done: (job: Job) => boolean,
): Promise<Job> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const job = await store.read(['jobs'], (tx) => tx.get('jobs', jobId));
    if (job && done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`job ${jobId} never got there`);
}

const finished = (job: Job) => job.status !== 'queued' && job.status !== 'running';

/** An import of a new dataset "Waiting" queued while another import holds the imports lock;
 *  `release` lets that one end. */
async function importWaitingItsTurn({ store, locks, runner }: ReturnType<typeof setup>) {
  let release = (): void => undefined;
  const busy = locks.hold(IMPORTS_LOCK, () => new Promise<void>((resolve) => (release = resolve)));
  const { datasetId, jobId } = await runner.saveAndImport({
    name: 'Waiting',
    url: '',
    jurisdiction: '',
    session: '',
    files: [picked('bills.csv', csv(['us-ca,2023,AB 1,Water']))],
  });
  expect((await jobWhen(store, jobId, () => true)).status).toBe('queued');
  return {
    datasetId,
    jobId,
    busy,
    release: () => {
      release();
    },
  };
}

describe('the import runner', () => {
  it('stores the dataset and its files, then imports them', async () => {
    const { store, runner } = setup();
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'California',
      url: '',
      jurisdiction: '',
      session: '',
      files: [picked('bills.csv', csv(['us-ca,2023,AB 1,Water', 'us-ca,2023,AB 2,Air']))],
    });
    const job = await jobWhen(store, jobId, finished);
    expect(job).toMatchObject({ status: 'done', result: { added: 2 } });
    const files = await store.read(['datasetFiles'], (tx) => tx.all('datasetFiles'));
    expect(files.map((file) => [file.name, file.datasetId])).toEqual([['bills.csv', datasetId]]);
  });

  it('says plainly when a URL cannot be downloaded, and retries on request', async () => {
    let online = false;
    const { store, runner } = setup({
      fetch: () =>
        online
          ? Promise.resolve(new Response(csv(['us-ca,2023,AB 1,Water'])))
          : Promise.reject(new TypeError('Failed to fetch')),
    });
    const { jobId } = await runner.saveAndImport({
      name: 'Remote',
      url: 'https://example.org/data/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    const failed = await jobWhen(store, jobId, finished);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(
      /^Could not download https:\/\/example\.org\/data\/bills\.csv: /,
    );
    online = true;
    await runner.retry(jobId);
    expect(await jobWhen(store, jobId, finished)).toMatchObject({ status: 'done' });
  });

  it('ends an import whose source never answers as failed, saying so, instead of reading forever', async () => {
    const { store, runner } = setup({
      fetch: stallGuardedFetch(() => new Promise<Response>(() => undefined), 300),
    });
    const { jobId } = await runner.saveAndImport({
      name: 'Silent',
      url: 'https://example.org/data/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    expect(await jobWhen(store, jobId, finished)).toMatchObject({
      status: 'failed',
      message:
        'Could not download https://example.org/data/bills.csv: nothing came for 0.3 seconds, so Docket stopped waiting. Try again later.',
    });
  });

  it('refreshes a URL dataset with one request: the same ETag is "No changes"; a files dataset is refused', async () => {
    const requests: (string | null)[] = [];
    const { store, runner } = setup({
      fetch: (_, init) => {
        requests.push(init.cache ?? null);
        return Promise.resolve(
          new Response(csv(['us-ca,2023,AB 1,Water']), { headers: { etag: '"v1"' } }),
        );
      },
    });
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'Remote',
      url: 'https://example.org/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    await jobWhen(store, jobId, finished);
    const refreshed = await runner.refresh(datasetId);
    const job = await jobWhen(store, refreshed.jobId, finished);
    expect(job).toMatchObject({
      status: 'done',
      message: 'No changes: the source is as it was at the last import.',
    });
    expect(requests).toEqual(['no-cache', 'no-cache']);
    const all = await runner.refreshAll();
    expect(all.jobIds).toHaveLength(1);
    await jobWhen(store, all.jobIds[0] ?? '', finished);
    expect(requests).toHaveLength(3);

    const files = await runner.saveAndImport({
      name: 'Files',
      url: '',
      jurisdiction: '',
      session: '',
      files: [picked('bills.csv', csv(['us-ca,2023,AB 2,Air']))],
    });
    await jobWhen(store, files.jobId, finished);
    await expect(runner.refresh(files.datasetId)).rejects.toThrow(/made of picked files/);
    expect((await runner.refreshAll()).jobIds).toHaveLength(1);
  });

  it('an automatic refresh asks only the datasets not looked at since the time it is given', async () => {
    let requests = 0;
    const { store, runner } = setup({
      fetch: () => {
        requests++;
        return Promise.resolve(
          new Response(csv(['us-ca,2023,AB 1,Water']), { headers: { etag: '"v1"' } }),
        );
      },
    });
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'Remote',
      url: 'https://example.org/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    const imported = await jobWhen(store, jobId, finished);
    const importedAt = imported.finishedAt ?? '';
    expect(requests).toBe(1);
    // Imported after the time given: fresh, nothing asked.
    expect((await runner.refreshAll({ staleBefore: '2025-01-01T00:00:00.000Z' })).jobIds).toEqual(
      [],
    );
    expect(requests).toBe(1);
    // Looked at before it: refreshed ("No changes", which leaves lastImportAt as it was).
    const due = await runner.refreshAll({ staleBefore: '2025-01-02T00:00:00.000Z' });
    expect(due.jobIds).toHaveLength(1);
    const unchanged = await jobWhen(store, due.jobIds[0] ?? '', finished);
    expect(unchanged.message).toBe('No changes: the source is as it was at the last import.');
    expect(requests).toBe(2);
    const dataset = await store.read(['datasets'], (tx) => tx.get('datasets', datasetId));
    expect(dataset?.lastImportAt).toBe(importedAt);
    // That unchanged check counts as looked at: a time between the import and it asks nothing.
    const between = new Date(Date.parse(importedAt) + 500).toISOString();
    expect((unchanged.finishedAt ?? '') > between).toBe(true);
    expect((await runner.refreshAll({ staleBefore: between })).jobIds).toEqual([]);
    expect(requests).toBe(2);
  });

  it('imports a LegiScan API dataset with the saved key, and a refresh with no change_hash moved is one request', async () => {
    const zip = zipOf('dataset.zip', readSamples('legiscan'));
    const ops: string[] = [];
    // The bills' change_hash as the samples have them: the same on the master list.
    const masterlist = {
      '0': { bill_id: 1900001, number: 'HB1001', change_hash: '0f0e0d0c0b0a09080706050403020100' },
      '1': { bill_id: 1900002, number: 'HB1002', change_hash: '1f1e1d1c1b1a19181716151413121110' },
    };
    const { store, runner } = setup({
      fetch: (url) => {
        const params = new URL(url).searchParams;
        ops.push(`${params.get('op')} ${params.get('key')}`);
        const entry = { state_id: 2, session_id: 1843, dataset_hash: 'h1', access_key: 'a1' };
        return Promise.resolve(
          Response.json(
            params.get('op') === 'getDatasetList'
              ? { status: 'OK', datasetlist: [entry] }
              : params.get('op') === 'getMasterListRaw'
                ? { status: 'OK', masterlist }
                : {
                    status: 'OK',
                    dataset: { ...entry, zip: btoa(String.fromCharCode(...zip.bytes)) },
                  },
          ),
        );
      },
    });
    const request = {
      name: 'Alaska',
      sourceKind: 'legiscan' as const,
      legiscanState: 'ak',
      legiscanSession: '1843',
      url: '',
      jurisdiction: '',
      session: '',
      files: [],
    };
    const missing = await runner.saveAndImport(request);
    expect(await jobWhen(store, missing.jobId, finished)).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('Add your LegiScan API key in Settings') as unknown,
    });
    expect(ops).toEqual([]);

    await store.write(['apiKeys'], (tx) =>
      tx.put('apiKeys', { source: 'legiscan', key: 'KEY1', updatedAt: '2025-01-01T00:00:00Z' }),
    );
    const { datasetId, jobId } = await runner.saveAndImport({
      ...request,
      datasetId: missing.datasetId,
    });
    expect(await jobWhen(store, jobId, finished)).toMatchObject({ status: 'done' });
    const dataset = await store.read(['datasets'], (tx) => tx.get('datasets', datasetId));
    expect(dataset?.origin).toEqual({ kind: 'legiscan', state: 'AK', sessionId: 1843 });
    expect(dataset?.sourceHash).toMatch(/^h1\|[0-9a-f]{16}$/);
    expect(dataset?.billCount).toBeGreaterThan(0);
    expect(ops).toEqual(['getDatasetList KEY1', 'getDataset KEY1']);
    // Each query counted for the key this month, on this device.
    expect(
      await store.read(['settings'], (tx) =>
        readLegiscanQueries(tx, legiscanKeyId('KEY1'), queryMonth('2025-01-01T00:00:00.000Z')),
      ),
    ).toBe(2);

    const refreshed = await runner.refresh(datasetId);
    expect(await jobWhen(store, refreshed.jobId, finished)).toMatchObject({
      status: 'done',
      message: 'No changes: the source is as it was at the last import.',
    });
    expect(ops.slice(2)).toEqual(['getMasterListRaw KEY1']);
    const all = (await runner.refreshAll()).jobIds;
    expect(all).toHaveLength(1);
    await jobWhen(store, all[0] ?? '', finished);

    // A bill moved, but the month's quota has one query left: the master list takes it, and the
    // refresh stops before getBill, in words, changing nothing.
    masterlist['0'].change_hash = 'moved';
    await store.write(['settings'], (tx) =>
      tx.put('settings', {
        key: LEGISCAN_QUERIES_SETTING,
        value: { month: '2025-01', counts: { [legiscanKeyId('KEY1')]: 29_999 } },
      }),
    );
    const state = () =>
      store.read(['bills', 'datasets'], async (tx) => ({
        bills: await tx.all('bills'),
        hash: (await tx.get('datasets', datasetId))?.sourceHash,
        count: (await tx.get('datasets', datasetId))?.billCount,
      }));
    const before = await state();
    const stopped = await runner.refresh(datasetId);
    expect(await jobWhen(store, stopped.jobId, finished)).toMatchObject({
      status: 'failed',
      message:
        'This refresh needs another LegiScan query, and this device has already sent 30,000 of the 30,000 a LegiScan key may send this month. Nothing was changed; refresh again next month.',
    });
    expect(ops.slice(-1)).toEqual(['getMasterListRaw KEY1']);
    expect(await state()).toEqual(before);
  });

  it('refreshes an Open States API dataset with only the bills updated since, keeping the others', async () => {
    const [sample] = readSamples('openstates/api-v3/bills-page.json');
    if (sample === undefined) throw new Error('the Open States sample is missing');
    const full = JSON.parse(new TextDecoder().decode(sample.bytes)) as {
      results: { updated_at: string; title: string }[];
      pagination: object;
    };
    const urls: string[] = [];
    const { store, runner } = setup({
      fetch: (url) => {
        urls.push(url);
        const since = new URL(url).searchParams.get('updated_since');
        const results =
          since === null
            ? full.results
            : full.results
                .slice(0, 1)
                .map((bill) => ({ ...bill, title: `${bill.title} (amended)` }));
        return Promise.resolve(
          Response.json({ results, pagination: { page: 1, max_page: 1, per_page: 20 } }),
        );
      },
    });
    await store.write(['apiKeys'], (tx) =>
      tx.put('apiKeys', { source: 'openstates', key: 'OSKEY', updatedAt: '2025-01-01T00:00:00Z' }),
    );
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'Open States',
      sourceKind: 'openstates',
      openstatesJurisdiction: 'ak',
      openstatesSession: '33',
      url: '',
      jurisdiction: '',
      session: '',
      files: [],
    });
    expect(await jobWhen(store, jobId, finished)).toMatchObject({ status: 'done' });
    const first = await store.read(['datasets'], (tx) => tx.get('datasets', datasetId));
    const count = first?.billCount ?? 0;
    expect(count).toBeGreaterThan(1);
    expect(first?.sourceUpdatedSince).toBeDefined();

    const refreshed = await runner.refresh(datasetId);
    expect(await jobWhen(store, refreshed.jobId, finished)).toMatchObject({ status: 'done' });
    expect(urls[1]).toContain(
      `updated_since=${encodeURIComponent(first?.sourceUpdatedSince ?? '')}`,
    );
    const after = await store.read(['datasets', 'bills'], async (tx) => ({
      dataset: await tx.get('datasets', datasetId),
      bills: await tx.all('bills'),
    }));
    // The unchanged bills stay; the one updated is changed.
    expect(after.dataset?.billCount).toBe(count);
    expect(after.bills).toHaveLength(count);
    expect(after.bills.filter((bill) => bill.title.endsWith('(amended)'))).toHaveLength(1);
  });

  it('cancels a job that waits for its turn without touching anything', async () => {
    const { store, locks, runner } = setup();
    const { jobId, release, busy } = await importWaitingItsTurn({ store, locks, runner });
    // While it waits, it is alive: a start-up check in another tab must leave it alone.
    expect(await runner.recoverInterrupted()).toBe(0);
    await runner.cancel(jobId);
    expect(await jobWhen(store, jobId, finished)).toMatchObject({ status: 'cancelled' });
    release();
    await busy;
    expect(await store.read(['bills'], (tx) => tx.count('bills'))).toBe(0);
  });

  it('deletes a dataset whose import waits its turn, and the waiting job ends quietly', async () => {
    const reported: unknown[] = [];
    const { store, locks, runner } = setup({ onError: (error) => reported.push(error) });
    const { datasetId, release, busy } = await importWaitingItsTurn({ store, locks, runner });

    expect(await runner.deleteDataset(datasetId)).toEqual({
      name: 'Waiting',
      billsRemoved: 0,
      billsKept: 0,
    });
    release();
    await busy;
    // The lock passes to the deleted job, which finds nothing to do.
    await locks.hold(IMPORTS_LOCK, () => Promise.resolve());

    const left = await store.read(['datasets', 'jobs', 'bills', 'datasetFiles'], async (tx) => [
      await tx.count('datasets'),
      await tx.count('jobs'),
      await tx.count('bills'),
      await tx.count('datasetFiles'),
    ]);
    expect(left).toEqual([0, 0, 0, 0]);
    expect(reported).toEqual([]);
  });

  it('marks a job nobody holds as interrupted, and resumes it', async () => {
    const { store, runner } = setup();
    await store.write(['datasets', 'jobs'], async (tx) => {
      await tx.put('datasets', {
        id: 'd1',
        name: 'Left behind',
        origin: { kind: 'url', url: 'https://example.org/x.csv' },
        jurisdiction: null,
        session: null,
        format: null,
        billCount: 0,
        lastImportAt: null,
        lastJobId: 'j1',
        state: 'importing',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      });
      await tx.put('jobs', {
        id: 'j1',
        kind: 'import',
        subjectId: 'd1',
        status: 'running',
        createdAt: '2025-01-01T00:00:00.000Z',
        startedAt: '2025-01-01T00:00:00.000Z',
        finishedAt: null,
        progress: { recordsRead: 0, written: 0, skipped: 0, total: null },
        result: null,
        errors: [],
        message: null,
      });
    });
    expect(await runner.recoverInterrupted()).toBe(1);
    expect((await jobWhen(store, 'j1', () => true)).status).toBe('interrupted');
    await runner.resume('j1');
    // The URL cannot be fetched in this test, so the resumed job ends failed, not stuck.
    expect((await jobWhen(store, 'j1', finished)).status).toBe('failed');
  });
});

describe('a job another tab holds', () => {
  it('is left alone while held, and interrupted once its lock is let go', async () => {
    const { store, locks, runner } = setup();
    await store.write(['datasets', 'jobs'], async (tx) => {
      await tx.put('datasets', {
        id: 'd1',
        name: 'Elsewhere',
        origin: { kind: 'url', url: 'https://example.org/x.csv' },
        jurisdiction: null,
        session: null,
        format: null,
        billCount: 0,
        lastImportAt: null,
        lastJobId: 'j1',
        state: 'importing',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      });
      await tx.put('jobs', {
        id: 'j1',
        kind: 'import',
        subjectId: 'd1',
        status: 'running',
        createdAt: '2025-01-01T00:00:00.000Z',
        startedAt: '2025-01-01T00:00:00.000Z',
        finishedAt: null,
        progress: { recordsRead: 0, written: 0, skipped: 0, total: null },
        result: null,
        errors: [],
        message: null,
      });
    });
    let closeOtherTab = (): void => undefined;
    const otherTab = locks.hold(
      jobLockName('j1'),
      () => new Promise<void>((resolve) => (closeOtherTab = resolve)),
    );
    expect(await runner.recoverInterrupted()).toBe(0);
    expect((await jobWhen(store, 'j1', () => true)).status).toBe('running');
    closeOtherTab();
    await otherTab;
    expect((await jobWhen(store, 'j1', (job) => job.status !== 'running')).status).toBe(
      'interrupted',
    );
  });
});

describe('text versions a refresh brings', () => {
  const textsCsv = (texts: string) =>
    new TextEncoder().encode(
      [
        'jurisdiction,session,identifier,title,texts',
        `us-wa,2023,HB 1,Library hours,${texts}`,
        `us-wa,2023,HB 2,Parks,${texts.replaceAll('hb1', 'hb2')}`,
        `us-wa,2023,HB 3,Roads,${texts.replaceAll('hb1', 'hb3').replace('hb3-2.htm', 'hb3-2.pdf')}`,
      ].join('\n'),
    );
  const introduced = '2023-01-09; Introduced; https://src.example/hb1-1.htm; text/html; ';
  const engrossed = '2023-02-20; Engrossed; https://src.example/hb1-2.htm; text/html; ';
  const html = (words: string) =>
    new Response(`<html><body><pre>Sec. 1. HOURS.\n\n${words}</pre></body></html>`);

  it('fetches the new version of a tracked bill after a refresh, and lists one it could not fetch among the errors', async () => {
    let snapshot = 1;
    const requests: string[] = [];
    const { store, runner } = setup({
      fetch: (url) => {
        requests.push(url);
        if (url === 'https://src.example/bills.csv') {
          return Promise.resolve(
            new Response(textsCsv(snapshot === 1 ? introduced : `${introduced} | ${engrossed}`), {
              headers: { etag: `"v${snapshot}"` },
            }),
          );
        }
        if (url === 'https://src.example/hb1-2.htm') {
          return Promise.resolve(html('Libraries stay open until ten.'));
        }
        if (url === 'https://src.example/hb3-2.pdf')
          return Promise.resolve(new Response(tinyPdf([['x']])));
        return Promise.resolve(new Response('gone', { status: 404, statusText: 'Not Found' }));
      },
    });
    const { datasetId, jobId } = await runner.saveAndImport({
      name: 'Remote',
      url: 'https://src.example/bills.csv',
      jurisdiction: '',
      session: '',
      files: [],
    });
    await jobWhen(store, jobId, finished);
    const bills = await store.read(['bills'], (tx) => tx.all('bills'));
    const idOf = (identifier: string) => bills.find((b) => b.identifier === identifier)?.id ?? '';
    // All three are tracked (that others are not is core's refreshed-versions test).
    await store.write(['decisions'], async (tx) => {
      for (const identifier of ['HB 1', 'HB 2', 'HB 3']) {
        await tx.put('decisions', {
          billId: idOf(identifier),
          decision: 'track',
          decidedAt: '2025-01-01T00:00:00.000Z',
        });
      }
    });

    snapshot = 2;
    const refreshed = await runner.refresh(datasetId);
    await jobWhen(store, refreshed.jobId, finished);
    const texts = async () => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const job = await store.read(['jobs'], (tx) => tx.get('jobs', refreshed.jobId));
        if ((job?.errors.length ?? 0) > 1) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return store.read(['versionTexts'], (tx) => tx.all('versionTexts'));
    };
    const fetched = await texts();
    expect(fetched.map((row) => [row.billId, row.index, row.text])).toEqual([
      [idOf('HB 1'), 1, 'Sec. 1. HOURS.\n\nLibraries stay open until ten.'],
    ]);
    // Only the new versions were asked for, not the introduced ones.
    expect(requests.filter((url) => /\.(htm|pdf)$/.test(url)).sort()).toEqual([
      'https://src.example/hb1-2.htm',
      'https://src.example/hb2-2.htm',
      'https://src.example/hb3-2.pdf',
    ]);
    const job = await store.read(['jobs'], (tx) => tx.get('jobs', refreshed.jobId));
    expect(job?.status).toBe('done');
    const errors = [...(job?.errors ?? [])].sort((a, b) =>
      (a.record ?? '').localeCompare(b.record ?? ''),
    );
    expect(errors.map((error) => error.record)).toEqual(['HB 2', 'HB 3']);
    expect(errors[0]?.reason).toMatch(
      /^The text of "Engrossed" was not fetched: .*hb2-2\.htm.*404/,
    );
    // A PDF is left to "Get text" on the page (PDF_ON_THE_PAGE), said in the job's errors.
    expect(errors[1]?.reason).toBe(
      'The text of "Engrossed" was not fetched: Could not read the PDF at https://src.example/hb3-2.pdf: a PDF is read when you choose "Get text" on the bill.',
    );
  });
});
