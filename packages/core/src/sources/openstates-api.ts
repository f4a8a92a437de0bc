import { z } from 'zod';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { rateLimitedMessage } from './source-api.ts';

// Open States API v3 (https://v3.openstates.org/docs), the one operation a dataset of a
// jurisdiction's session needs: GET /bills with the key in the X-API-KEY header,
//
//   /bills?jurisdiction=ak&session=2023&updated_since=2025-01-01T00:00:00Z
//         &include=actions&include=sponsorships&include=votes&include=versions&include=sources
//         &per_page=20&page=1
//     {"results":[{bill}, …],"pagination":{"per_page":20,"page":1,"max_page":7,"total_items":131}}
//
// paged until `pagination.max_page`. The first import reads every bill of the session; a refresh
// asks only for those `updated_since` the time the last one asked, and the import keeps the
// dataset's other bills (ImportInput.partial). A refusal is an HTTP status with FastAPI's
// {"detail": "…"} (401/403 for a key, 429 past the rate limit, Retry-After honoured). The
// Open States importer reads each page as it is (`results`).

export const OPENSTATES_API_URL = 'https://v3.openstates.org/';
/** The page size the API allows at most for /bills with includes. */
export const OPENSTATES_PER_PAGE = 20;
/** Pages one import reads at most (20 bills each): a session larger than this is refused. */
export const OPENSTATES_MAX_PAGES = 1000;

export const openStatesIncludes = ['actions', 'sponsorships', 'votes', 'versions', 'sources'];

/** One page of /bills for a jurisdiction's session, bills updated since a time when given. */
export function openStatesBillsUrl(
  jurisdiction: string,
  session: string,
  page: number,
  updatedSince: string | null,
): string {
  const params: [string, string][] = [
    ['jurisdiction', jurisdiction],
    ['session', session],
    ...(updatedSince === null ? [] : [['updated_since', updatedSince] as [string, string]]),
    ...openStatesIncludes.map((include): [string, string] => ['include', include]),
    ['per_page', String(OPENSTATES_PER_PAGE)],
    ['page', String(page)],
  ];
  const query = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `${OPENSTATES_API_URL}bills?${query}`;
}

const pageSchema = z.object({
  results: z.array(z.unknown()),
  pagination: z.object({
    page: z.number().int(),
    max_page: z.number().int().nonnegative(),
    total_items: z.number().int().nonnegative().optional(),
  }),
});

export interface OpenStatesPage {
  bills: number;
  maxPage: number;
}

/** Why Open States gave no bills, in words the job shows as they are. */
export class OpenStatesApiError extends Error {
  constructor(
    readonly code: 'missing-key' | 'refused' | 'unexpected' | 'rate-limited' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'OpenStatesApiError';
  }
}

export const OPENSTATES_MISSING_KEY =
  'Add your Open States API key in Settings (on the More tab) to import this dataset.';

/** A page of /bills: how many bills it holds and the last page; throws when it is not one. */
export function parseOpenStatesPage(body: Uint8Array): OpenStatesPage {
  const parsed = pageSchema.safeParse(jsonOrUndefined(body));
  if (!parsed.success) {
    throw new OpenStatesApiError(
      'unexpected',
      'Open States answered the list of bills with something Docket cannot read.',
    );
  }
  return { bills: parsed.data.results.length, maxPage: parsed.data.pagination.max_page };
}

/** What a refused request says: FastAPI's `detail`, with the status. */
export function openStatesRefusal(status: number, body: Uint8Array): OpenStatesApiError {
  const json = jsonOrUndefined(body);
  const detail =
    typeof json === 'object' && json !== null && 'detail' in json && typeof json.detail === 'string'
      ? json.detail.slice(0, 500)
      : null;
  if (status === 401 || status === 403) {
    return new OpenStatesApiError(
      'refused',
      `Open States refused the API key: ${detail ?? `it answered ${status}`}`,
    );
  }
  return new OpenStatesApiError(
    'unexpected',
    `Open States answered ${status} for the list of bills${detail === null ? '.' : `: ${detail}`}`,
  );
}

/** What a 429 that is not waited through says. */
export function openStatesRateLimited(seconds: number | null): OpenStatesApiError {
  return new OpenStatesApiError('rate-limited', rateLimitedMessage('Open States', seconds));
}
