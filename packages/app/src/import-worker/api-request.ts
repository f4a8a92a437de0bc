import { retryAfterSeconds, SOURCE_RETRY_WAIT_MAX_SECONDS } from '@docket/core/sources';
import { z } from 'zod';
import type { SourceDownloadDeps, SourceRequest } from './source-download.ts';
import { SourceStalledError } from './stall-guard.ts';

// One GET of a source's API (LegiScan, Open States, congress.gov) or bulk listing (GovInfo), the
// step their downloads share: directly where the browser may (CORS), else through the Docket
// server's relay unless the user turned it off; the relay's own per-account limit said in its
// words, a source's 429 waited out once when its Retry-After is short, else said. The errors name
// the source, never the address: LegiScan's and congress.gov's carry the key in the query string.

export interface ApiDownloadDeps extends Omit<SourceDownloadDeps, 'sha256Hex'> {
  /** Waits out a short Retry-After; a timer in the worker, instant in tests. */
  wait?: (ms: number) => Promise<void>;
  /** Wall-clock milliseconds, for a Retry-After given as a date. */
  now?: () => number;
  /** Says how far a long download is, as the import job's message ("Reading bill 3 of 20"). */
  progress?: (message: string) => Promise<void>;
}

/** How a source is named in the words of a failure, and the errors it fails with. */
export interface ApiSourceWords {
  /** The API as the subject of a sentence: "LegiScan's API", "Open States' API". */
  api: string;
  /** An error of the source's own kind for a failure said in `message`. */
  failure: (message: string) => Error;
  /** The source's error for a 429 that is not waited out. */
  rateLimited: (seconds: number | null) => Error;
}

export interface ApiAnswer {
  /** Any status but 429 (a 429 is waited out or thrown). */
  response: Response;
  /** The answer came through the Docket server's relay. */
  relayed: boolean;
}

export const relayErrorSchema = z.object({
  error: z.string(),
  message: z.string().min(1).max(2000),
});

/** A request with the key in a header (Open States' X-API-KEY, congress.gov's X-Api-Key). */
export interface ApiRequest {
  url: string;
  headers?: Record<string, string>;
  /** Sent by the relay as X-API-Key. */
  apiKeyHeader?: string;
  /** Sent by the relay as Accept (GovInfo's listings answer 406 to another). */
  accept?: string;
}

/** The relay's form of `request`: no validators (an API's answer is read whole each time). */
function relayRequestOf(request: ApiRequest): SourceRequest {
  return {
    url: request.url,
    etag: null,
    lastModified: null,
    ...(request.apiKeyHeader === undefined ? {} : { apiKeyHeader: request.apiKeyHeader }),
    ...(request.accept === undefined ? {} : { accept: request.accept }),
  };
}

/** The source's answer, directly or through the relay, any status; else an error in words. */
async function directOrRelayed(
  request: ApiRequest,
  deps: ApiDownloadDeps,
  words: ApiSourceWords,
): Promise<ApiAnswer> {
  const relayRequest = relayRequestOf(request);
  try {
    const response = await deps.fetch(
      request.url,
      {
        credentials: 'omit',
        cache: 'no-store',
        ...(request.headers === undefined ? {} : { headers: request.headers }),
      },
      relayRequest,
    );
    return { response, relayed: false };
  } catch (error) {
    if (error instanceof SourceStalledError) {
      throw words.failure(
        `${words.api} sent nothing for ${String(error.seconds)} seconds, so Docket stopped waiting. Try again later.`,
      );
    }
    // Any other failure's message may hold the address, and with it a key: not passed on.
    if (!(error instanceof TypeError)) {
      throw words.failure(
        `${words.api} could not be reached from this device. Check your connection and try again.`,
      );
    }
  }
  if (deps.relay === null) {
    throw words.failure(
      `${words.api} could not be reached from this browser, and downloads through the Docket server are turned off in Settings. Turn them on, or check your connection.`,
    );
  }
  try {
    return { response: await deps.relay(relayRequest), relayed: true };
  } catch (relayError) {
    throw words.failure(
      relayError instanceof SourceStalledError
        ? `${words.api} could not be reached from this browser, and the Docket server, which asks it instead, sent nothing for ${String(relayError.seconds)} seconds, so Docket stopped waiting. Try again later.`
        : `${words.api} could not be reached from this browser, and neither could the Docket server, which can ask it instead. Check your connection and try again.`,
    );
  }
}

/** GETs `request`: the source's answer (not a 429), or an error that says why in words. */
export async function apiGet(
  request: ApiRequest,
  deps: ApiDownloadDeps,
  words: ApiSourceWords,
  retried = false,
): Promise<ApiAnswer> {
  const { response, relayed } = await directOrRelayed(request, deps, words);
  if (response.status === 429 && relayed) {
    // The relay's own budget for this account, not the source's: said as such, not waited out.
    const refusal = relayErrorSchema.safeParse(
      await response
        .clone()
        .json()
        .catch(() => null),
    );
    if (refusal.success && refusal.data.error === 'rate-limited') {
      throw words.failure(refusal.data.message);
    }
  }
  if (response.status === 429) {
    const seconds = retryAfterSeconds(
      response.headers.get('retry-after'),
      (deps.now ?? Date.now)(),
    );
    await response.body?.cancel().catch(() => undefined);
    if (!retried && seconds !== null && seconds <= SOURCE_RETRY_WAIT_MAX_SECONDS) {
      await (deps.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(
        seconds * 1000,
      );
      return apiGet(request, deps, words, true);
    }
    throw words.rateLimited(seconds);
  }
  return { response, relayed };
}

/** The relay's refusal of a request (its `message`), or null when the body is not one. */
export async function relayRefusal(response: Response): Promise<string | null> {
  const parsed = relayErrorSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? parsed.data.message : null;
}
