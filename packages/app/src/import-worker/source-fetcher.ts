import type { SourceAnswer, SourceFetcher } from '../platform/platform.ts';
import type { SourceFetch } from './source-download.ts';
import { stallGuardedFetch } from './stall-guard.ts';

// The import worker's fetch when the platform fetches sources itself (the native shells): the
// request goes to the page, which has the platform's HTTP, and the answer comes back as plain
// data, made into a Response here so source-download.ts reads it as it reads any other. Such a
// fetch has no HTTP cache to revalidate, so it sends the validators the last import kept.

/** Statuses whose Response may carry no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

export function responseOf(answer: SourceAnswer): Response {
  return new Response(NO_BODY.has(answer.status) ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

/** The page's fetch of a source: the platform's `fetcher` where it has one, else the browser's;
 *  given up once the source sends nothing for 90 s (stall-guard.ts). */
export function pageSourceFetch(fetcher: SourceFetcher | null): SourceFetch {
  return stallGuardedFetch(
    fetcher === null ? (url, init) => globalThis.fetch(url, init) : fetchThrough(fetcher),
  );
}

/** A fetch for source-download.ts that goes through `fetcher`; only GET, as sources are read. */
export function fetchThrough(fetcher: SourceFetcher): SourceFetch {
  return async (url, init, kept) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    if (kept.etag !== null) headers['if-none-match'] = kept.etag;
    if (kept.lastModified !== null) headers['if-modified-since'] = kept.lastModified;
    return responseOf(await fetcher(url, headers));
  };
}
