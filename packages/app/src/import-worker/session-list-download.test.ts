import { describe, expect, it } from 'vitest';
import { SESSION_LIST_MAX_BYTES } from '@docket/core/sources';
import { downloadSessionList, type SessionListDeps } from './session-list-download.ts';
import type { SourceRequest } from './source-download.ts';

const KEY = 'my-secret-legiscan-key';
const OPENSTATES_KEY = 'my-open-states-key';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const legiscanList = {
  status: 'OK',
  sessions: [
    {
      session_id: 1659,
      state_id: 10,
      year_start: 2019,
      year_end: 2020,
      special: 0,
      session_title: '2019-2020 Regular Session',
      session_name: '2019-2020 Regular Session',
    },
    {
      session_id: 2008,
      state_id: 10,
      year_start: 2023,
      year_end: 2024,
      special: 0,
      session_title: '2023-2024 Regular Session',
      session_name: '2023-2024 Regular Session',
    },
  ],
};

/** A fetch that records each request (its address and headers) and answers with `answer`. */
function source(answer: (url: string) => Response) {
  const requested: { url: string; headers: Record<string, string> }[] = [];
  const fetch: SessionListDeps['fetch'] = (url, init) => {
    requested.push({ url, headers: Object.fromEntries(new Headers(init.headers).entries()) });
    return Promise.resolve(answer(url));
  };
  return { requested, fetch };
}

/** This month's queries, counted in memory. */
function queries(used: number) {
  const count = { used };
  return {
    count,
    queries: {
      used: () => Promise.resolve(count.used),
      count: () => {
        count.used++;
        return Promise.resolve();
      },
    },
  };
}

describe("LegiScan's sessions for the add-dataset form", () => {
  it('asks getSessionList for the state, counts the query, and lists the sessions newest first', async () => {
    const api = source(() => json(legiscanList));
    const month = queries(10);
    const sessions = await downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
      fetch: api.fetch,
      relay: null,
      queries: month.queries,
    });
    expect(api.requested.map((request) => request.url)).toEqual([
      `https://api.legiscan.com/?key=${KEY}&op=getSessionList&state=GA`,
    ]);
    expect(month.count.used).toBe(11);
    expect(sessions).toEqual([
      { id: '2008', label: '2023–2024 Regular Session', special: false },
      { id: '1659', label: '2019–2020 Regular Session', special: false },
    ]);
  });

  it('says a wrong key in LegiScan’s words, never the address with the key', async () => {
    const api = source(() => json({ status: 'ERROR', alert: { message: 'Invalid API key' } }));
    const asked = downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
      fetch: api.fetch,
      relay: null,
    });
    await expect(asked).rejects.toThrow(
      'LegiScan refused to list the sessions: Invalid API key. Check your LegiScan API key under Settings on the More tab.',
    );
    await expect(asked).rejects.not.toThrow(KEY);
  });

  it('sends nothing once the month’s queries are spent', async () => {
    const api = source(() => json(legiscanList));
    await expect(
      downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
        fetch: api.fetch,
        relay: null,
        queries: queries(30_000).queries,
      }),
    ).rejects.toThrow(
      "Listing LegiScan's sessions takes a query, and this device has already sent 30,000 this month, all a LegiScan key may send. Enter the session ID instead.",
    );
    expect(api.requested).toEqual([]);
  });

  it('goes through the relay when the browser may not ask, and says no network plainly', async () => {
    const refusedByBrowser: SessionListDeps['fetch'] = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const relayed: SourceRequest[] = [];
    const relay = (request: SourceRequest) => {
      relayed.push(request);
      return Promise.resolve(json(legiscanList));
    };
    const sessions = await downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
      fetch: refusedByBrowser,
      relay,
    });
    expect(sessions).toHaveLength(2);
    expect(new URL(relayed[0]?.url ?? '').searchParams.get('op')).toBe('getSessionList');

    await expect(
      downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
        fetch: refusedByBrowser,
        relay: () => Promise.reject(new TypeError('Failed to fetch')),
      }),
    ).rejects.toThrow(
      "LegiScan's API could not be reached from this browser, and neither could the Docket server, which can ask it instead. Check your connection and try again.",
    );
  });

  it('stops reading an answer larger than any list of sessions, and says so', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const api = source(() => new Response(endless, { status: 200 }));
    await expect(
      downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
        fetch: api.fetch,
        relay: null,
      }),
    ).rejects.toThrow(
      "LegiScan's list of sessions is larger than any such list; Docket did not read it.",
    );
    expect(pulled * 64 * 1024).toBeLessThan(SESSION_LIST_MAX_BYTES + 3 * 64 * 1024);
  });

  it('says another status in words', async () => {
    const api = source(() => new Response('Bad gateway', { status: 502 }));
    await expect(
      downloadSessionList({ source: 'legiscan', state: 'GA' }, KEY, {
        fetch: api.fetch,
        relay: null,
      }),
    ).rejects.toThrow("LegiScan's API answered 502 for the list of sessions.");
  });
});

describe("Open States' sessions for the add-dataset form", () => {
  const jurisdiction = {
    id: 'ocd-jurisdiction/country:us/state:oh/government',
    name: 'Ohio',
    legislative_sessions: [
      {
        identifier: '134',
        name: '134th General Assembly',
        classification: 'primary',
        start_date: '2021-01-04',
        end_date: '2022-12-31',
      },
      {
        identifier: '135',
        name: '135th General Assembly',
        classification: 'primary',
        start_date: '2023-01-02',
        end_date: '2024-12-31',
      },
    ],
  };

  it('asks the jurisdiction’s sessions with the key in X-API-KEY, newest first', async () => {
    const api = source(() => json(jurisdiction));
    const sessions = await downloadSessionList(
      { source: 'openstates', jurisdiction: 'Ohio' },
      OPENSTATES_KEY,
      { fetch: api.fetch, relay: null },
    );
    expect(api.requested).toEqual([
      {
        url: 'https://v3.openstates.org/jurisdictions/Ohio?include=legislative_sessions',
        headers: { 'x-api-key': OPENSTATES_KEY },
      },
    ]);
    expect(sessions.map((session) => session.id)).toEqual(['135', '134']);
  });

  it('says a refused key and an unknown jurisdiction in words', async () => {
    const refused = source(() => json({ detail: 'Invalid API Key.' }, 401));
    await expect(
      downloadSessionList({ source: 'openstates', jurisdiction: 'Ohio' }, 'wrong', {
        fetch: refused.fetch,
        relay: null,
      }),
    ).rejects.toThrow('Open States refused the API key: Invalid API Key.');
    const unknown = source(() => json({ detail: 'Not Found' }, 404));
    await expect(
      downloadSessionList({ source: 'openstates', jurisdiction: 'Ohioo' }, OPENSTATES_KEY, {
        fetch: unknown.fetch,
        relay: null,
      }),
    ).rejects.toThrow('Open States knows no jurisdiction "Ohioo".');
  });

  it('goes through the relay with the key as its apiKeyHeader, and says the relay’s refusal', async () => {
    const refusedByBrowser: SessionListDeps['fetch'] = () =>
      Promise.reject(new TypeError('Failed to fetch'));
    const relayed: SourceRequest[] = [];
    const sessions = await downloadSessionList(
      { source: 'openstates', jurisdiction: 'Ohio' },
      OPENSTATES_KEY,
      {
        fetch: refusedByBrowser,
        relay: (request) => {
          relayed.push(request);
          return Promise.resolve(json(jurisdiction));
        },
      },
    );
    expect(sessions).toHaveLength(2);
    expect(relayed[0]?.apiKeyHeader).toBe(OPENSTATES_KEY);

    await expect(
      downloadSessionList({ source: 'openstates', jurisdiction: 'Ohio' }, OPENSTATES_KEY, {
        fetch: refusedByBrowser,
        relay: () =>
          Promise.resolve(
            json(
              { error: 'source-status', message: 'v3.openstates.org answered 503.', status: 503 },
              502,
            ),
          ),
      }),
    ).rejects.toThrow(
      "Open States' list of sessions could not be fetched through the Docket server: v3.openstates.org answered 503.",
    );
  });
});
