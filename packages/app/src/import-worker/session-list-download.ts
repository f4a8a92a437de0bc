import {
  LegiscanApiError,
  legiscanQuotaRefusal,
  legiscanRateLimited,
  legiscanSessionListUrl,
  OpenStatesApiError,
  openStatesJurisdictionUrl,
  openStatesRateLimited,
  openStatesSessionsRefusal,
  parseLegiscanSessionList,
  parseOpenStatesSessions,
  SESSION_LIST_MAX_BYTES,
  type SourceSession,
} from '@docket/core/sources';
import {
  apiGet,
  relayErrorSchema,
  relayRefusal,
  type ApiDownloadDeps,
  type ApiSourceWords,
} from './api-request.ts';
import type { LegiscanQueries } from './legiscan-download.ts';

// The sessions a source lists for a state, for the add-dataset form's "Session" choice (core's
// sources/source-sessions.ts reads them): LegiScan's getSessionList, one query of the key's
// monthly quota, counted before it is sent; Open States' jurisdiction detail with its
// legislative sessions, the key in X-API-KEY. Each goes directly where the browser may (CORS),
// else through the Docket server's relay, as the dataset's own downloads do (api-request.ts);
// the errors say what went wrong in words and never the address (LegiScan's carries the key).

export type SessionListRequest =
  { source: 'legiscan'; state: string } | { source: 'openstates'; jurisdiction: string };

export interface SessionListDeps extends ApiDownloadDeps {
  /** This month's LegiScan queries of the key on this device. */
  queries?: LegiscanQueries;
}

const legiscanWords: ApiSourceWords = {
  api: "LegiScan's API",
  failure: (message) => new LegiscanApiError('unexpected', message),
  rateLimited: legiscanRateLimited,
};

const openStatesWords: ApiSourceWords = {
  api: "Open States' API",
  failure: (message) => new OpenStatesApiError('unexpected', message),
  rateLimited: openStatesRateLimited,
};

/** The body, read no further than one byte past `max`: a longer one is refused by its reader
 *  without the rest being downloaded. */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
    if (length > max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

function jsonOrNull(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch {
    return null;
  }
}

async function legiscanSessions(
  state: string,
  key: string,
  deps: SessionListDeps,
): Promise<SourceSession[]> {
  if (deps.queries !== undefined) {
    const used = await deps.queries.used();
    if (legiscanQuotaRefusal(used, 1) !== null) {
      throw new LegiscanApiError(
        'over-quota',
        `Listing LegiScan's sessions takes a query, and this device has already sent ${used.toLocaleString('en-US')} this month, all a LegiScan key may send. Enter the session ID instead.`,
      );
    }
    await deps.queries.count();
  }
  const { response, relayed } = await apiGet(
    { url: legiscanSessionListUrl(key, state) },
    deps,
    legiscanWords,
  );
  if (!response.ok) {
    const refused = relayed ? await relayRefusal(response) : null;
    throw legiscanWords.failure(
      refused !== null
        ? `LegiScan's list of sessions could not be fetched through the Docket server: ${refused}`
        : relayed && response.status === 401
          ? "Sign in to fetch LegiScan's list of sessions through the Docket server."
          : `LegiScan's API answered ${response.status} for the list of sessions.`,
    );
  }
  return parseLegiscanSessionList(await readCapped(response, SESSION_LIST_MAX_BYTES));
}

async function openStatesSessions(
  jurisdiction: string,
  key: string,
  deps: SessionListDeps,
): Promise<SourceSession[]> {
  const { response, relayed } = await apiGet(
    {
      url: openStatesJurisdictionUrl(jurisdiction),
      headers: { 'X-API-KEY': key },
      apiKeyHeader: key,
    },
    deps,
    openStatesWords,
  );
  const body = await readCapped(response, SESSION_LIST_MAX_BYTES);
  if (!response.ok && relayed) {
    const refused = relayErrorSchema.safeParse(jsonOrNull(body));
    throw openStatesWords.failure(
      refused.success
        ? `Open States' list of sessions could not be fetched through the Docket server: ${refused.data.message}`
        : response.status === 401
          ? "Sign in to fetch Open States' list of sessions through the Docket server."
          : `The Docket server's relay answered ${response.status} for Open States' list of sessions.`,
    );
  }
  if (!response.ok) throw openStatesSessionsRefusal(response.status, body, jurisdiction);
  return parseOpenStatesSessions(body);
}

/** The sessions the source lists for the state or jurisdiction, newest first; throws an error
 *  whose message says why there are none. */
export function downloadSessionList(
  request: SessionListRequest,
  key: string,
  deps: SessionListDeps,
): Promise<SourceSession[]> {
  return request.source === 'legiscan'
    ? legiscanSessions(request.state, key, deps)
    : openStatesSessions(request.jurisdiction, key, deps);
}
