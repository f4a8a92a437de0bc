import type { LocalStore } from '@docket/core/store';
import {
  LegiscanApiError,
  legiscanBillTextUrl,
  legiscanQuotaRefusal,
  legiscanRateLimited,
  parseLegiscanBillText,
  readApiKey,
} from '@docket/core/sources';
import { apiGet, relayRefusal, type ApiDownloadDeps, type ApiSourceWords } from './api-request.ts';
import { legiscanQueries } from './legiscan-queries.ts';

// A text version of a bill from a dataset of LegiScan's API, by the doc_id the bill lists it
// with: getBillText's base64 document (core's sources/legiscan-api.ts), directly or through the
// Docket server's relay as the dataset's own requests go (api-request.ts). The key is in the
// query string, so no error here names the address.

const failure = (message: string) => new LegiscanApiError('unexpected', message);

const words: ApiSourceWords = {
  api: "LegiScan's API",
  failure,
  rateLimited: legiscanRateLimited,
};

export const LEGISCAN_TEXT_MISSING_KEY =
  'Add your LegiScan API key in Settings (on the More tab) to get this text from LegiScan.';

/** Whether one of the datasets that provide the bill comes from LegiScan's API. */
export async function fromLegiscanApi(store: LocalStore, billId: string): Promise<boolean> {
  return store.read(['bills', 'datasets'], async (tx) => {
    const bill = await tx.get('bills', billId);
    if (bill === undefined) return false;
    const datasets = await tx.getMany('datasets', bill.datasetIds);
    return datasets.some((dataset) => dataset?.origin.kind === 'legiscan');
  });
}

/** The document LegiScan keeps as `docId`: its bytes and the type LegiScan says it is. */
export async function downloadLegiscanBillText(
  docId: number,
  store: LocalStore,
  deps: ApiDownloadDeps,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; mime: string | null }> {
  const key = await readApiKey(store, 'legiscan');
  if (key === null) throw new LegiscanApiError('missing-key', LEGISCAN_TEXT_MISSING_KEY);
  // One query of the key's monthly quota, counted before it is sent.
  const queries = legiscanQueries(store, key, () => new Date().toISOString());
  const refused = legiscanQuotaRefusal(await queries.used(), 1);
  if (refused !== null) throw refused;
  await queries.count();
  const { response, relayed } = await apiGet({ url: legiscanBillTextUrl(key, docId) }, deps, words);
  if (!response.ok) {
    const refused = relayed ? await relayRefusal(response) : null;
    throw failure(
      refused !== null
        ? `LegiScan's text could not be fetched through the Docket server: ${refused}`
        : `LegiScan's API answered ${response.status} for the text of document ${docId}.`,
    );
  }
  const body = new Uint8Array(await response.arrayBuffer());
  // Base64 takes four bytes for three.
  if (body.length > (maxBytes / 3) * 4 + 4096) {
    throw failure(
      `LegiScan's text of document ${docId} is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Docket reads.`,
    );
  }
  const text = parseLegiscanBillText(body, docId);
  return { bytes: text.bytes, mime: text.mime };
}
