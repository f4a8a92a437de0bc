import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  findLegiscanSession,
  LEGISCAN_MISSING_KEY,
  LEGISCAN_RETRY_WAIT_MAX_SECONDS,
  LegiscanApiError,
  legiscanDatasetListUrl,
  legiscanDatasetUrl,
  legiscanRateLimited,
  parseLegiscanDataset,
  parseLegiscanDatasetList,
  retryAfterSeconds,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import { z } from 'zod';
import type { SourceDownloadDeps } from './source-download.ts';

// A dataset from LegiScan's API (core's sources/legiscan-api.ts): getDatasetList for the state,
// the session's dataset_hash against the one the last import kept (the same: "No changes", one
// request), else getDataset, whose base64 ZIP the LegiScan importer reads as if it were picked.
// Each request goes directly where the browser may (CORS), else through the Docket server's relay,
// as a URL source's download does (source-download.ts). The key is in every request's query
// string (LegiScan's API has no other way), so no error here names the address: they say
// "LegiScan" and what it answered.

export interface LegiscanOrigin {
  state: string;
  sessionId: number;
}

export interface LegiscanDownloadDeps extends Omit<SourceDownloadDeps, 'sha256Hex'> {
  /** Waits out a short Retry-After; a timer in the worker, instant in tests. */
  wait?: (ms: number) => Promise<void>;
  /** Wall-clock milliseconds, for a Retry-After given as a date. */
  now?: () => number;
}

const relayErrorSchema = z.object({ error: z.string(), message: z.string().min(1).max(2000) });

const NO_RELAY =
  "LegiScan's API could not be reached from this browser, and downloads through the Docket server are turned off in Settings. Turn them on, or check your connection.";
const UNREACHABLE =
  "LegiScan's API could not be reached from this device. Check your connection and try again.";
const RELAY_UNREACHABLE =
  "LegiScan's API could not be reached from this browser, and neither could the Docket server, which can ask it instead. Check your connection and try again.";

function failure(message: string): LegiscanApiError {
  return new LegiscanApiError('unexpected', message);
}

async function bodyOf(response: Response, maxBytes: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > maxBytes) {
    throw failure(
      `LegiScan's dataset is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Docket reads at once.`,
    );
  }
  return bytes;
}

/** One GET of LegiScan's API: its body, or an error that says why in words (never the URL). */
async function apiGet(
  url: string,
  what: string,
  deps: LegiscanDownloadDeps,
  maxBytes: number,
  retried = false,
): Promise<Uint8Array> {
  const blank = { url, etag: null, lastModified: null };
  let response: Response;
  let relayed = false;
  try {
    response = await deps.fetch(url, { credentials: 'omit', cache: 'no-store' }, blank);
  } catch (error) {
    // Any other failure's message may hold the address, and with it the key: not passed on.
    if (!(error instanceof TypeError)) throw failure(UNREACHABLE);
    if (deps.relay === null) throw failure(NO_RELAY);
    try {
      response = await deps.relay(blank);
      relayed = true;
    } catch {
      throw failure(RELAY_UNREACHABLE);
    }
  }
  if (response.status === 429 && relayed) {
    // The relay's own budget for this account, not the source's: said as such, not waited out.
    const refusal = relayErrorSchema.safeParse(await response.json().catch(() => null));
    if (refusal.success && refusal.data.error === 'rate-limited') {
      throw failure(refusal.data.message);
    }
  }
  if (response.status === 429) {
    const seconds = retryAfterSeconds(
      response.headers.get('retry-after'),
      (deps.now ?? Date.now)(),
    );
    await response.body?.cancel().catch(() => undefined);
    if (!retried && seconds !== null && seconds <= LEGISCAN_RETRY_WAIT_MAX_SECONDS) {
      await (deps.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(
        seconds * 1000,
      );
      return apiGet(url, what, deps, maxBytes, true);
    }
    throw legiscanRateLimited(seconds);
  }
  if (!response.ok) {
    if (relayed) {
      const parsed = relayErrorSchema.safeParse(await response.json().catch(() => null));
      throw failure(
        parsed.success
          ? `LegiScan's ${what} could not be fetched through the Docket server: ${parsed.data.message}`
          : response.status === 401
            ? `Sign in to fetch LegiScan's ${what} through the Docket server.`
            : `The Docket server's relay answered ${response.status} for LegiScan's ${what}.`,
      );
    }
    throw failure(`LegiScan's API answered ${response.status} for the ${what}.`);
  }
  return bodyOf(response, maxBytes);
}

/**
 * Downloads a LegiScan API dataset: `{unchanged: true}` when the session's dataset_hash is the
 * one the last import kept (`keptHash`), after one request; else the dataset's ZIP.
 */
export async function downloadLegiscan(
  origin: LegiscanOrigin,
  key: string | null,
  keptHash: string | null,
  deps: LegiscanDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  if (key === null) throw new LegiscanApiError('missing-key', LEGISCAN_MISSING_KEY);
  const list = parseLegiscanDatasetList(
    await apiGet(legiscanDatasetListUrl(key, origin.state), 'list of datasets', deps, maxBytes),
  );
  const entry = findLegiscanSession(list, origin.state, origin.sessionId);
  if (keptHash !== null && entry.dataset_hash === keptHash) return { unchanged: true };
  const dataset = parseLegiscanDataset(
    await apiGet(
      legiscanDatasetUrl(key, origin.sessionId, entry.access_key),
      'dataset',
      deps,
      // base64 is four characters for three bytes, and the JSON around it.
      Math.ceil((maxBytes * 4) / 3) + 64 * 1024,
    ),
  );
  return {
    files: [
      {
        name: `legiscan-${origin.state}-${origin.sessionId}.zip`,
        bytes: dataset.zip,
      },
    ],
    fingerprint: `legiscan:${origin.state}:${origin.sessionId}|hash:${dataset.hash}`,
    source: { etag: null, lastModified: null, hash: dataset.hash },
  };
}
