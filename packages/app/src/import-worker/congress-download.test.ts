import { describe, expect, it } from 'vitest';
import { CONGRESS_MISSING_KEY } from '@docket/core/sources';
import type { ApiDownloadDeps } from './api-request.ts';
import { downloadCongress } from './congress-download.ts';

const KEY = 'congress-gov-key-5678';
const origin = { congress: 117, billType: 'hr' };

// The congress.gov API's answers in its documented shapes, by hand: a list of two bills, each
// bill's detail with one action and no other parts.
const detail = (number: string) => ({
  bill: {
    congress: 117,
    number,
    type: 'HR',
    title: `Bill ${number}`,
    introducedDate: '2021-05-11',
    latestAction: { actionDate: '2021-05-11', text: 'Introduced in House' },
    sponsors: [
      {
        bioguideId: 'M000087',
        fullName: 'Rep. Maloney, Carolyn B. [D-NY-12]',
        party: 'D',
        state: 'NY',
      },
    ],
    actions: { count: 1, url: `https://api.congress.gov/v3/bill/117/hr/${number}/actions` },
    cosponsors: { count: 0, countIncludingWithdrawnCosponsors: 0, url: '…' },
  },
});

function congress(listed: () => string[]) {
  const requested: { path: string; since: string | null; key: string | null }[] = [];
  const fetch: ApiDownloadDeps['fetch'] = (url, init) => {
    const address = new URL(url);
    requested.push({
      path: address.pathname,
      since: address.searchParams.get('fromDateTime'),
      key: new Headers(init.headers).get('x-api-key'),
    });
    if (address.searchParams.has('api_key')) throw new Error('the key is never in the address');
    const [, , , , , number, part] = address.pathname.split('/');
    if (number === undefined) {
      const bills = listed().map((n) => ({
        congress: 117,
        number: n,
        type: 'HR',
        updateDate: '2021-05-12',
      }));
      return Promise.resolve(Response.json({ bills, pagination: { count: bills.length } }));
    }
    if (part === 'actions') {
      return Promise.resolve(
        Response.json({
          actions: [
            {
              actionCode: 'Intro-H',
              actionDate: '2021-05-11',
              text: 'Introduced in House',
              sourceSystem: { code: 2 },
            },
          ],
          pagination: { count: 1 },
        }),
      );
    }
    return Promise.resolve(Response.json(detail(number)));
  };
  return { requested, fetch };
}

const now = () => Date.parse('2026-11-26T12:00:00Z');

describe('a dataset from the congress.gov API', () => {
  it('reads each listed bill and the parts its detail counts, the key in X-Api-Key', async () => {
    const api = congress(() => ['3076', '5']);
    const progress: string[] = [];
    const input = await downloadCongress(origin, KEY, null, {
      fetch: api.fetch,
      relay: null,
      now,
      progress: (message) => {
        progress.push(message);
        return Promise.resolve();
      },
    });
    if ('unchanged' in input) throw new Error('expected bills');
    // The job says how far the reading of bills is.
    expect(progress).toEqual(['Reading bill 1 of 2', 'Reading bill 2 of 2']);
    expect(api.requested.map((request) => request.path)).toEqual([
      '/v3/bill/117/hr',
      '/v3/bill/117/hr/3076',
      '/v3/bill/117/hr/3076/actions',
      '/v3/bill/117/hr/5',
      '/v3/bill/117/hr/5/actions',
    ]);
    expect(api.requested.every((request) => request.key === KEY)).toBe(true);
    expect(input.files.map((file) => file.name)).toEqual([
      'BILLSTATUS-117hr3076.xml',
      'BILLSTATUS-117hr5.xml',
    ]);
    expect(new TextDecoder().decode(input.files[0]?.bytes)).toContain('<billStatus>');
    expect(input.partial).toBeUndefined();
    expect(input.source?.since).toBe('2026-11-26T12:00:00.000Z');
  });

  it('refreshes only the bills updated since the last import; none is one request', async () => {
    let listed = ['5'];
    const api = congress(() => listed);
    const since = '2026-11-20T08:30:00.000Z';
    const input = await downloadCongress(origin, KEY, since, {
      fetch: api.fetch,
      relay: null,
      now,
    });
    if ('unchanged' in input) throw new Error('expected bills');
    expect(api.requested[0]?.since).toBe('2026-11-20T08:30:00Z');
    expect(input.partial).toBe(true);
    expect(input.files).toHaveLength(1);
    listed = [];
    expect(
      await downloadCongress(origin, KEY, since, { fetch: api.fetch, relay: null, now }),
    ).toEqual({
      unchanged: true,
    });
    expect(api.requested).toHaveLength(4);
  });

  it('says a missing key, a refused one, and waits out a short Retry-After once', async () => {
    await expect(
      downloadCongress(origin, null, null, { fetch: congress(() => []).fetch, relay: null }),
    ).rejects.toThrow(CONGRESS_MISSING_KEY);
    await expect(
      downloadCongress(origin, 'wrong', null, {
        fetch: () =>
          Promise.resolve(
            Response.json(
              { error: { code: 'API_KEY_INVALID', message: 'An invalid api_key was supplied.' } },
              { status: 403 },
            ),
          ),
        relay: null,
      }),
    ).rejects.toThrow('congress.gov refused the API key: An invalid api_key was supplied.');
    const waits: number[] = [];
    let calls = 0;
    const api = congress(() => []);
    const result = await downloadCongress(origin, KEY, '2026-11-20T00:00:00.000Z', {
      fetch: (url, init, kept) => {
        calls += 1;
        return calls === 1
          ? Promise.resolve(new Response('', { status: 429, headers: { 'retry-after': '3' } }))
          : api.fetch(url, init, kept);
      },
      relay: null,
      wait: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    expect(result).toEqual({ unchanged: true });
    expect(waits).toEqual([3000]);
  });
});
