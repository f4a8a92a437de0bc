import { describe, expect, it } from 'vitest';
import { OPENSTATES_MISSING_KEY } from '@docket/core/sources';
import type { LegiscanDownloadDeps } from './legiscan-download.ts';
import { downloadOpenStates } from './openstates-download.ts';
import type { SourceRequest } from './source-download.ts';
import { stallGuarded, stallGuardedFetch } from './stall-guard.ts';

const KEY = 'open-states-key-0123';
const origin = { jurisdiction: 'ak', session: '33' };

const bill = (n: number) => ({
  id: `ocd-bill/${n}`,
  identifier: `HB ${n}`,
  title: `Bill ${n}`,
  session: '33',
  jurisdiction: { id: 'ocd-jurisdiction/country:us/state:ak/government', name: 'Alaska' },
  actions: [],
});

const page = (n: number, maxPage: number, bills: unknown[]) =>
  Response.json({
    results: bills,
    pagination: { per_page: 20, page: n, max_page: maxPage, total_items: bills.length },
  });

function openStates(answer: (params: URLSearchParams) => Response) {
  const requested: { url: string; key: string | null }[] = [];
  const fetch: LegiscanDownloadDeps['fetch'] = (url, init) => {
    requested.push({ url, key: new Headers(init.headers).get('x-api-key') });
    return Promise.resolve(answer(new URL(url).searchParams));
  };
  return { requested, fetch };
}

const now = () => Date.parse('2026-11-26T12:00:00Z');

describe('a dataset from the Open States API', () => {
  it('reads every page of the session with the includes, the key in X-API-KEY', async () => {
    const api = openStates((params) =>
      page(Number(params.get('page')), 2, [bill(Number(params.get('page')))]),
    );
    const input = await downloadOpenStates(origin, KEY, null, {
      fetch: api.fetch,
      relay: null,
      now,
    });
    expect(api.requested.map((request) => request.url)).toEqual([
      'https://v3.openstates.org/bills?jurisdiction=ak&session=33&include=actions&include=sponsorships&include=votes&include=versions&include=sources&per_page=20&page=1',
      'https://v3.openstates.org/bills?jurisdiction=ak&session=33&include=actions&include=sponsorships&include=votes&include=versions&include=sources&per_page=20&page=2',
    ]);
    expect(api.requested.every((request) => request.key === KEY)).toBe(true);
    if ('unchanged' in input) throw new Error('expected bills');
    expect(input.files.map((file) => file.name)).toEqual([
      'openstates-bills-page-1.json',
      'openstates-bills-page-2.json',
    ]);
    expect(input.partial).toBeUndefined();
    expect(input.source).toEqual({
      etag: null,
      lastModified: null,
      since: '2026-11-26T12:00:00.000Z',
    });
  });

  it('a refresh asks only for bills updated since the last one, and keeps the rest (partial)', async () => {
    const api = openStates(() => page(1, 1, [bill(7)]));
    const input = await downloadOpenStates(origin, KEY, '2026-11-25T00:00:00.000Z', {
      fetch: api.fetch,
      relay: null,
      now,
    });
    expect(api.requested[0]?.url).toContain('&updated_since=2026-11-25T00%3A00%3A00.000Z&');
    if ('unchanged' in input) throw new Error('expected bills');
    expect(input.partial).toBe(true);

    const none = openStates(() => page(1, 0, []));
    expect(
      await downloadOpenStates(origin, KEY, '2026-11-25T00:00:00.000Z', {
        fetch: none.fetch,
        relay: null,
        now,
      }),
    ).toEqual({ unchanged: true });
    expect(none.requested).toHaveLength(1);
  });

  it('says a missing or refused key plainly', async () => {
    const api = openStates(() => page(1, 1, [bill(1)]));
    await expect(
      downloadOpenStates(origin, null, null, { fetch: api.fetch, relay: null }),
    ).rejects.toThrow(OPENSTATES_MISSING_KEY);
    expect(api.requested).toEqual([]);
    const refused = openStates(() =>
      Response.json({ detail: 'Invalid API Key.' }, { status: 401 }),
    );
    await expect(
      downloadOpenStates(origin, 'wrong', null, { fetch: refused.fetch, relay: null }),
    ).rejects.toThrow('Open States refused the API key: Invalid API Key.');
  });

  it('waits out a short Retry-After once, then says when to try again', async () => {
    let calls = 0;
    const waited: number[] = [];
    const api = openStates(() =>
      ++calls === 1
        ? new Response('{}', { status: 429, headers: { 'retry-after': '2' } })
        : page(1, 1, [bill(1)]),
    );
    const wait = (ms: number) => {
      waited.push(ms);
      return Promise.resolve();
    };
    await downloadOpenStates(origin, KEY, null, { fetch: api.fetch, relay: null, wait, now });
    expect(waited).toEqual([2000]);
    const limited = openStates(
      () => new Response('{}', { status: 429, headers: { 'retry-after': '600' } }),
    );
    await expect(
      downloadOpenStates(origin, KEY, null, { fetch: limited.fetch, relay: null, wait, now }),
    ).rejects.toThrow('refresh again in 10 minutes');
  });

  it('goes through the relay with the key as its apiKeyHeader', async () => {
    const relayed: SourceRequest[] = [];
    const fetch: LegiscanDownloadDeps['fetch'] = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const relay = (request: SourceRequest) => {
      relayed.push(request);
      return Promise.resolve(page(1, 1, [bill(1)]));
    };
    await downloadOpenStates(origin, KEY, null, { fetch, relay, now });
    expect(relayed.map((request) => request.apiKeyHeader)).toEqual([KEY]);
  });

  it('says plainly when the API, or the relay asked instead, sends nothing for the stall period', async () => {
    const silent = () => new Promise<Response>(() => undefined);
    await expect(
      downloadOpenStates(origin, KEY, null, {
        fetch: stallGuardedFetch(silent, 500),
        relay: null,
        now,
      }),
    ).rejects.toThrow(
      "Open States' API sent nothing for 0.5 seconds, so Docket stopped waiting. Try again later.",
    );
    await expect(
      downloadOpenStates(origin, KEY, null, {
        fetch: () => Promise.reject(new TypeError('Failed to fetch')),
        relay: () => stallGuarded(silent, 500),
        now,
      }),
    ).rejects.toThrow(
      "Open States' API could not be reached from this browser, and the Docket server, which asks it instead, sent nothing for 0.5 seconds, so Docket stopped waiting.",
    );
  });
});
