import { describe, expect, it } from 'vitest';
import { LEGISCAN_MISSING_KEY, legiscanKept, type LegiscanKept } from '@docket/core/sources';
import { downloadLegiscan, type LegiscanDownloadDeps } from './legiscan-download.ts';
import type { SourceRequest } from './source-download.ts';

const KEY = 'my-secret-legiscan-key';
const ZIP = new Uint8Array([
  0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

const listAnswer = (hash: string) => ({
  status: 'OK',
  datasetlist: [
    {
      state_id: 2,
      session_id: 1843,
      special: 0,
      year_start: 2011,
      year_end: 2012,
      session_name: '27th Legislature',
      session_title: '27th Legislature',
      dataset_hash: hash,
      dataset_date: '2012-06-03',
      dataset_size: ZIP.length,
      access_key: 'ACCESS',
    },
  ],
});

const datasetAnswer = (hash: string) => ({
  status: 'OK',
  dataset: {
    state_id: 2,
    session_id: 1843,
    session_name: '27th Legislature',
    dataset_hash: hash,
    dataset_date: '2012-06-03',
    dataset_size: ZIP.length,
    mime_type: 'application/zip',
    zip: btoa(String.fromCharCode(...ZIP)),
  },
});

const json = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

/** LegiScan's API as the browser would reach it: answers by `op`, and records each request. */
function legiscan(answer: (op: string, params: URLSearchParams) => Response) {
  const requested: string[] = [];
  const fetch: LegiscanDownloadDeps['fetch'] = (url) => {
    requested.push(url);
    const params = new URL(url).searchParams;
    return Promise.resolve(answer(params.get('op') ?? '', params));
  };
  return { requested, fetch };
}

const origin = { state: 'AK', sessionId: 1843 };
/** What a dataset imported before the change_hash refresh kept: its dataset_hash alone. */
const previous = (datasetHash: string | null) => ({ datasetHash, kept: null });

describe('a dataset from LegiScan’s API', () => {
  it('asks getDatasetList for the state, then getDataset for the session with its access key', async () => {
    const api = legiscan((op) =>
      op === 'getDatasetList' ? json(listAnswer('h2')) : json(datasetAnswer('h2')),
    );
    const input = await downloadLegiscan(origin, KEY, previous('h1'), {
      fetch: api.fetch,
      relay: null,
    });
    expect(api.requested).toEqual([
      `https://api.legiscan.com/?key=${KEY}&op=getDatasetList&state=AK`,
      `https://api.legiscan.com/?key=${KEY}&op=getDataset&id=1843&access_key=ACCESS`,
    ]);
    if ('unchanged' in input) throw new Error('expected the dataset');
    expect(input.files).toHaveLength(1);
    expect(input.files[0]?.name).toBe('legiscan-AK-1843.zip');
    expect([...(input.files[0]?.bytes ?? [])]).toEqual([...ZIP]);
    expect(input.source).toEqual({
      etag: null,
      lastModified: null,
      hash: expect.stringMatching(/^h2\|[0-9a-f]{16}$/) as unknown,
    });
  });

  it('ends after one request when the dataset_hash is the one the last import kept', async () => {
    const api = legiscan(() => json(listAnswer('h1')));
    expect(
      await downloadLegiscan(origin, KEY, previous('h1'), { fetch: api.fetch, relay: null }),
    ).toEqual({
      unchanged: true,
    });
    expect(api.requested).toHaveLength(1);
  });

  it('says to add a key when there is none, asking LegiScan nothing', async () => {
    const api = legiscan(() => json(listAnswer('h1')));
    await expect(
      downloadLegiscan(origin, null, previous(null), { fetch: api.fetch, relay: null }),
    ).rejects.toThrow(LEGISCAN_MISSING_KEY);
    expect(LEGISCAN_MISSING_KEY).toContain('Add your LegiScan API key in Settings');
    expect(api.requested).toEqual([]);
  });

  it('says LegiScan refused the key, in its words, and never the address', async () => {
    const api = legiscan(() => json({ status: 'ERROR', alert: { message: 'Invalid API key' } }));
    const failure = await downloadLegiscan(origin, KEY, previous(null), {
      fetch: api.fetch,
      relay: null,
    }).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('LegiScan refused the API key: Invalid API key');
    expect((failure as Error).message).not.toContain(KEY);
  });

  it('waits out a short Retry-After once, then says when to try again', async () => {
    let calls = 0;
    const waited: number[] = [];
    const api = legiscan((op) => {
      calls++;
      if (calls === 1) return json({}, { status: 429, headers: { 'retry-after': '3' } });
      return op === 'getDatasetList' ? json(listAnswer('h1')) : json(datasetAnswer('h1'));
    });
    const wait = (ms: number) => {
      waited.push(ms);
      return Promise.resolve();
    };
    expect(
      await downloadLegiscan(origin, KEY, previous('h1'), { fetch: api.fetch, relay: null, wait }),
    ).toEqual({
      unchanged: true,
    });
    expect(waited).toEqual([3000]);

    const limited = legiscan(() => json({}, { status: 429, headers: { 'retry-after': '3600' } }));
    await expect(
      downloadLegiscan(origin, KEY, previous('h1'), { fetch: limited.fetch, relay: null, wait }),
    ).rejects.toThrow(
      'LegiScan is limiting requests from this key (429 Too Many Requests); refresh again in 60 minutes.',
    );
    expect(limited.requested).toHaveLength(1);
  });

  it('goes through the relay when the browser may not read LegiScan’s answer', async () => {
    const relayed: SourceRequest[] = [];
    const fetch: LegiscanDownloadDeps['fetch'] = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const relay = (request: SourceRequest) => {
      relayed.push(request);
      const op = new URL(request.url).searchParams.get('op');
      return Promise.resolve(
        op === 'getDatasetList' ? json(listAnswer('h1')) : json(datasetAnswer('h1')),
      );
    };
    expect(await downloadLegiscan(origin, KEY, previous('h1'), { fetch, relay })).toEqual({
      unchanged: true,
    });
    expect(relayed.map((request) => new URL(request.url).searchParams.get('op'))).toEqual([
      'getDatasetList',
    ]);

    await expect(
      downloadLegiscan(origin, KEY, previous('h1'), { fetch, relay: null }),
    ).rejects.toThrow('downloads through the Docket server are turned off in Settings');
  });

  it("says the relay's own limit as the relay's, not LegiScan's", async () => {
    const fetch: LegiscanDownloadDeps['fetch'] = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const relay = () =>
      Promise.resolve(
        json(
          {
            error: 'rate-limited',
            message:
              'This account asked the relay for more than 30 sources in a minute. Try again in 20 s.',
          },
          { status: 429, headers: { 'retry-after': '20' } },
        ),
      );
    const waited: number[] = [];
    await expect(
      downloadLegiscan(origin, KEY, previous(null), {
        fetch,
        relay,
        wait: (ms) => {
          waited.push(ms);
          return Promise.resolve();
        },
      }),
    ).rejects.toThrow('This account asked the relay for more than 30 sources in a minute.');
    expect(waited).toEqual([]);
  });

  it('does not pass on a failure whose message could hold the address', async () => {
    const fetch: LegiscanDownloadDeps['fetch'] = (url) =>
      Promise.reject(new Error(`Could not download ${url}: the site could not be reached.`));
    const failure = await downloadLegiscan(origin, KEY, previous(null), {
      fetch,
      relay: null,
    }).catch((error: unknown) => error as Error);
    expect((failure as Error).message).not.toContain(KEY);
    expect((failure as Error).message).toBe(
      "LegiScan's API could not be reached from this device. Check your connection and try again.",
    );
  });
});

describe('a LegiScan refresh of only the changed bills', () => {
  const kept = legiscanKept({
    datasetHash: 'h1',
    datasetDate: '2012-06-03',
    perBillAt: null,
    bills: { '230084': 'old1', '230085': 'same2' },
    rollCalls: [],
    people: [6033],
  });
  const masterList = {
    status: 'OK',
    masterlist: {
      session: { session_id: 1843, session_name: '27th Legislature' },
      '0': { bill_id: 230084, number: 'HB1', change_hash: 'new1' },
      '1': { bill_id: 230085, number: 'HB2', change_hash: 'same2' },
    },
  };
  const bill = {
    status: 'OK',
    bill: {
      bill_id: 230084,
      change_hash: 'new1',
      bill_number: 'HB1',
      sponsors: [{ people_id: 6033 }, { people_id: 6034 }],
      votes: [{ roll_call_id: 900 }],
    },
  };
  // Its voters: 6033 is known, 6034 is a sponsor too, 6050 is told by getPerson.
  const rollCall = {
    status: 'OK',
    roll_call: {
      roll_call_id: 900,
      bill_id: 230084,
      votes: [
        { people_id: 6033, vote_id: 1, vote_text: 'Yea' },
        { people_id: 6034, vote_id: 1, vote_text: 'Yea' },
        { people_id: 6050, vote_id: 2, vote_text: 'Nay' },
      ],
    },
  };
  const person = (peopleId: string | null) => ({
    status: 'OK',
    person: { people_id: Number(peopleId), name: 'Someone' },
  });
  const api = () =>
    legiscan((op, params) =>
      json(
        op === 'getMasterListRaw'
          ? masterList
          : op === 'getBill'
            ? bill
            : op === 'getRollCall'
              ? rollCall
              : person(params.get('id')),
      ),
    );

  it('reads the bill whose change_hash moved, its new vote and its unknown sponsor and voter, and counts each query', async () => {
    const source = api();
    const progress: string[] = [];
    const keptNext: LegiscanKept[] = [];
    let used = 7;
    const input = await downloadLegiscan(
      origin,
      KEY,
      { datasetHash: 'h1', kept },
      {
        fetch: source.fetch,
        relay: null,
        now: () => Date.parse('2026-11-27T00:00:00Z'),
        progress: (message) => {
          progress.push(message);
          return Promise.resolve();
        },
        keep: (next) => {
          keptNext.push(next);
          return Promise.resolve();
        },
        queries: {
          used: () => Promise.resolve(used),
          count: () => {
            used++;
            return Promise.resolve();
          },
        },
      },
    );
    expect(source.requested).toEqual([
      `https://api.legiscan.com/?key=${KEY}&op=getMasterListRaw&id=1843`,
      `https://api.legiscan.com/?key=${KEY}&op=getBill&id=230084`,
      `https://api.legiscan.com/?key=${KEY}&op=getRollCall&id=900`,
      `https://api.legiscan.com/?key=${KEY}&op=getPerson&id=6034`,
      `https://api.legiscan.com/?key=${KEY}&op=getPerson&id=6050`,
    ]);
    expect(used).toBe(12);
    expect(progress).toEqual(['Reading bill 1 of 1']);
    if ('unchanged' in input) throw new Error('expected bills');
    expect(input.partial).toBe(true);
    expect(input.files.map((file) => file.name)).toEqual([
      'bill/230084.json',
      'vote/900.json',
      'people/6034.json',
      'people/6050.json',
    ]);
    expect(keptNext).toHaveLength(1);
    expect(keptNext[0]?.bills).toEqual({ '230084': 'new1', '230085': 'same2' });
    expect(keptNext[0]?.perBillAt).toBe('2026-11-27T00:00:00.000Z');
    expect(keptNext[0]?.people).toEqual([6033, 6034, 6050]);
    expect(input.source?.hash).toBe(`h1|${keptNext[0]?.token ?? ''}`);
  });

  it('ends after the master list when no change_hash moved', async () => {
    const source = api();
    const same = { ...kept, bills: { '230084': 'new1', '230085': 'same2' } };
    expect(
      await downloadLegiscan(
        origin,
        KEY,
        { datasetHash: 'h1', kept: same },
        { fetch: source.fetch, relay: null },
      ),
    ).toEqual({ unchanged: true });
    expect(source.requested).toHaveLength(1);
  });

  it('stops before a query past the month’s quota, sending nothing more', async () => {
    const source = api();
    let used = 29_999;
    const queries = {
      used: () => Promise.resolve(used),
      count: () => {
        used++;
        return Promise.resolve();
      },
    };
    await expect(
      downloadLegiscan(
        origin,
        KEY,
        { datasetHash: 'h1', kept },
        { fetch: source.fetch, relay: null, queries },
      ),
    ).rejects.toThrow(
      'This refresh needs another LegiScan query, and this device has already sent 30,000 of the 30,000 a LegiScan key may send this month. Nothing was changed; refresh again next month.',
    );
    expect(source.requested).toEqual([
      `https://api.legiscan.com/?key=${KEY}&op=getMasterListRaw&id=1843`,
    ]);
  });
});
