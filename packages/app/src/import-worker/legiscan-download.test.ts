import { describe, expect, it } from 'vitest';
import { LEGISCAN_MISSING_KEY } from '@docket/core/sources';
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

describe('a dataset from LegiScan’s API', () => {
  it('asks getDatasetList for the state, then getDataset for the session with its access key', async () => {
    const api = legiscan((op) =>
      op === 'getDatasetList' ? json(listAnswer('h2')) : json(datasetAnswer('h2')),
    );
    const input = await downloadLegiscan(origin, KEY, 'h1', { fetch: api.fetch, relay: null });
    expect(api.requested).toEqual([
      `https://api.legiscan.com/?key=${KEY}&op=getDatasetList&state=AK`,
      `https://api.legiscan.com/?key=${KEY}&op=getDataset&id=1843&access_key=ACCESS`,
    ]);
    if ('unchanged' in input) throw new Error('expected the dataset');
    expect(input.files).toHaveLength(1);
    expect(input.files[0]?.name).toBe('legiscan-AK-1843.zip');
    expect([...(input.files[0]?.bytes ?? [])]).toEqual([...ZIP]);
    expect(input.source).toEqual({ etag: null, lastModified: null, hash: 'h2' });
  });

  it('ends after one request when the dataset_hash is the one the last import kept', async () => {
    const api = legiscan(() => json(listAnswer('h1')));
    expect(await downloadLegiscan(origin, KEY, 'h1', { fetch: api.fetch, relay: null })).toEqual({
      unchanged: true,
    });
    expect(api.requested).toHaveLength(1);
  });

  it('says to add a key when there is none, asking LegiScan nothing', async () => {
    const api = legiscan(() => json(listAnswer('h1')));
    await expect(
      downloadLegiscan(origin, null, null, { fetch: api.fetch, relay: null }),
    ).rejects.toThrow(LEGISCAN_MISSING_KEY);
    expect(LEGISCAN_MISSING_KEY).toContain('Add your LegiScan API key in Settings');
    expect(api.requested).toEqual([]);
  });

  it('says LegiScan refused the key, in its words, and never the address', async () => {
    const api = legiscan(() => json({ status: 'ERROR', alert: { message: 'Invalid API key' } }));
    const failure = await downloadLegiscan(origin, KEY, null, {
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
      await downloadLegiscan(origin, KEY, 'h1', { fetch: api.fetch, relay: null, wait }),
    ).toEqual({
      unchanged: true,
    });
    expect(waited).toEqual([3000]);

    const limited = legiscan(() => json({}, { status: 429, headers: { 'retry-after': '3600' } }));
    await expect(
      downloadLegiscan(origin, KEY, 'h1', { fetch: limited.fetch, relay: null, wait }),
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
    expect(await downloadLegiscan(origin, KEY, 'h1', { fetch, relay })).toEqual({
      unchanged: true,
    });
    expect(relayed.map((request) => new URL(request.url).searchParams.get('op'))).toEqual([
      'getDatasetList',
    ]);

    await expect(downloadLegiscan(origin, KEY, 'h1', { fetch, relay: null })).rejects.toThrow(
      'downloads through the Docket server are turned off in Settings',
    );
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
      downloadLegiscan(origin, KEY, null, {
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
    const failure = await downloadLegiscan(origin, KEY, null, { fetch, relay: null }).catch(
      (error: unknown) => error as Error,
    );
    expect((failure as Error).message).not.toContain(KEY);
    expect((failure as Error).message).toBe(
      "LegiScan's API could not be reached from this device. Check your connection and try again.",
    );
  });
});
