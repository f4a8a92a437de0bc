import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import { defaultImportLimits } from '@docket/core/encoding';
import { z } from 'zod';
import { SourceStalledError } from './stall-guard.ts';

// The bytes behind a dataset's URL. The browser fetches them itself where the site allows it
// (CORS); where it does not (the fetch fails with a TypeError, which is all a page is told), the
// Docket server's relay fetches them (`POST /api/sources/fetch`), unless the user turned the
// relay off in Settings. Either way a source that has not changed costs one request:
// - directly, the browser's own cache makes the request conditional (`cache: 'no-cache'`
//   revalidates with the validators it kept) and hands back its copy on a 304; the answer's ETag
//   (or Last-Modified) equal to the one the last import kept says "unchanged". Setting
//   If-None-Match by hand would make the request non-simple, and cost a CORS preflight each time;
// - through the relay, the kept validators go in the request and the relay answers 304.

export interface SourceRequest {
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** An API key the source takes as X-API-Key (Open States v3); the relay sends it on. */
  apiKeyHeader?: string;
  /** The Accept the relay sends (GovInfo's listings answer 406 to another). */
  accept?: string;
}

/**
 * A fetch of a source. `kept` is what the last import kept of it: a fetch that is not the
 * browser's (the native shells', which has no HTTP cache and no CORS to avoid) sends it as
 * If-None-Match and If-Modified-Since, so an unchanged source still costs one 304.
 */
export type SourceFetch = (
  url: string,
  init: RequestInit,
  kept: SourceRequest,
) => Promise<Response>;

export interface SourceDownloadDeps {
  fetch: SourceFetch;
  sha256Hex: (bytes: Uint8Array<ArrayBuffer>) => Promise<string>;
  /** Sends the request to the Docket server's relay; null when the user turned it off. */
  relay: ((request: SourceRequest) => Promise<Response>) | null;
}

export function downloadFailure(url: string, reason: string): Error {
  return new Error(`Could not download ${url}: ${reason}`);
}

const relayErrorSchema = z.object({ error: z.string(), message: z.string().min(1).max(2000) });

const REFUSED_NO_RELAY =
  'the site does not let other sites download it (CORS), and downloads through the Docket server are turned off in Settings. Turn them on, or download the file yourself and add it under Files.';
const REFUSED_RELAY_UNREACHABLE =
  'the site does not let other sites download it (CORS), and the Docket server, which can download it instead, cannot be reached. Check your connection and try again.';

function stalledReason(error: SourceStalledError): string {
  return `nothing came for ${String(error.seconds)} seconds, so Docket stopped waiting. Try again later.`;
}

function fileName(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || 'download';
  } catch {
    return path.slice(path.lastIndexOf('/') + 1) || 'download';
  }
}

async function readBody(
  url: string,
  response: Response,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooBig = `it is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`;
  if (declared > maxBytes) throw downloadFailure(url, tooBig);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof SourceStalledError) throw downloadFailure(url, stalledReason(error));
    throw error;
  }
  if (bytes.length > maxBytes) throw downloadFailure(url, tooBig);
  return bytes;
}

async function inputOf(
  url: string,
  bytes: Uint8Array<ArrayBuffer>,
  validators: { etag: string | null; lastModified: string | null },
  deps: Pick<SourceDownloadDeps, 'sha256Hex'>,
): Promise<ImportInput> {
  return {
    files: [{ name: fileName(url), bytes }],
    fingerprint: `url:${url}|sha256:${await deps.sha256Hex(bytes)}`,
    source: validators,
  };
}

/** Through the relay: its own headers carry the source's validators; its errors say why. */
async function throughRelay(
  request: SourceRequest,
  relay: (request: SourceRequest) => Promise<Response>,
  deps: SourceDownloadDeps,
  maxBytes: number,
): Promise<ImportInput | SourceUnchanged> {
  let response: Response;
  try {
    response = await relay(request);
  } catch (error) {
    throw downloadFailure(
      request.url,
      error instanceof SourceStalledError
        ? `the site does not let other sites download it (CORS), and the Docket server, asked to download it instead, sent nothing for ${String(error.seconds)} seconds, so Docket stopped waiting. Try again later.`
        : REFUSED_RELAY_UNREACHABLE,
    );
  }
  if (response.status === 304) return { unchanged: true };
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const parsed = relayErrorSchema.safeParse(body);
    throw downloadFailure(
      request.url,
      parsed.success
        ? parsed.data.message
        : response.status === 401
          ? 'sign in to download through the Docket server.'
          : `the Docket server's relay answered ${response.status}.`,
    );
  }
  const bytes = await readBody(request.url, response, maxBytes);
  return inputOf(
    request.url,
    bytes,
    {
      etag: response.headers.get('x-source-etag'),
      lastModified: response.headers.get('x-source-last-modified'),
    },
    deps,
  );
}

/**
 * Downloads a dataset's URL: directly, else through the relay; `{unchanged: true}` when the
 * source answered 304 to the validators of the last import. Throws an error that says plainly
 * why there are no bytes.
 */
export async function downloadSource(
  request: SourceRequest,
  deps: SourceDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  const { url } = request;
  let response: Response;
  try {
    response = await deps.fetch(
      url,
      { credentials: 'omit', redirect: 'follow', cache: 'no-cache' },
      request,
    );
  } catch (error) {
    // The browser tells scripts only "failed to fetch", on purpose: the site refused other sites
    // (CORS), or could not be reached. The relay can tell which.
    if (error instanceof SourceStalledError) throw downloadFailure(url, stalledReason(error));
    if (!(error instanceof TypeError)) throw error;
    if (deps.relay === null) throw downloadFailure(url, REFUSED_NO_RELAY);
    return throughRelay(request, deps.relay, deps, maxBytes);
  }
  if (response.status === 304) return { unchanged: true };
  if (!response.ok) {
    throw downloadFailure(
      url,
      `the server answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  const validators = {
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
  };
  if (sameSource(request, validators)) {
    await response.body?.cancel().catch(() => undefined);
    return { unchanged: true };
  }
  const bytes = await readBody(url, response, maxBytes);
  return inputOf(url, bytes, validators, deps);
}

/** Whether the answer names the version the last import read: the same ETag, or, with no ETag
 *  on either side, the same Last-Modified. */
function sameSource(
  kept: { etag: string | null; lastModified: string | null },
  now: { etag: string | null; lastModified: string | null },
): boolean {
  if (kept.etag !== null && now.etag !== null) return kept.etag === now.etag;
  return (
    kept.etag === null &&
    now.etag === null &&
    kept.lastModified !== null &&
    kept.lastModified === now.lastModified
  );
}
