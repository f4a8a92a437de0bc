import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  findLegiscanSession,
  LEGISCAN_MISSING_KEY,
  LegiscanApiError,
  legiscanDatasetListUrl,
  legiscanDatasetUrl,
  legiscanRateLimited,
  parseLegiscanDataset,
  parseLegiscanDatasetList,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import { apiGet, relayRefusal, type ApiDownloadDeps, type ApiSourceWords } from './api-request.ts';

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

/** What the LegiScan download needs: fetch, the relay, and a timer for a short Retry-After. */
export type LegiscanDownloadDeps = ApiDownloadDeps;

function failure(message: string): LegiscanApiError {
  return new LegiscanApiError('unexpected', message);
}

const words: ApiSourceWords = {
  api: "LegiScan's API",
  failure,
  rateLimited: legiscanRateLimited,
};

/** One GET of LegiScan's API: its body, or an error that says why in words (never the URL). */
async function legiscanGet(
  url: string,
  what: string,
  deps: LegiscanDownloadDeps,
  maxBytes: number,
): Promise<Uint8Array> {
  const { response, relayed } = await apiGet({ url }, deps, words);
  if (!response.ok) {
    if (relayed) {
      const refused = await relayRefusal(response);
      throw failure(
        refused !== null
          ? `LegiScan's ${what} could not be fetched through the Docket server: ${refused}`
          : response.status === 401
            ? `Sign in to fetch LegiScan's ${what} through the Docket server.`
            : `The Docket server's relay answered ${response.status} for LegiScan's ${what}.`,
      );
    }
    throw failure(`LegiScan's API answered ${response.status} for the ${what}.`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > maxBytes) {
    throw failure(
      `LegiScan's dataset is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Docket reads at once.`,
    );
  }
  return bytes;
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
    await legiscanGet(
      legiscanDatasetListUrl(key, origin.state),
      'list of datasets',
      deps,
      maxBytes,
    ),
  );
  const entry = findLegiscanSession(list, origin.state, origin.sessionId);
  if (keptHash !== null && entry.dataset_hash === keptHash) return { unchanged: true };
  const dataset = parseLegiscanDataset(
    await legiscanGet(
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
