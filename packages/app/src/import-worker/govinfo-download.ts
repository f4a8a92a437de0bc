import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  GovInfoBulkError,
  govInfoFilesToRead,
  govInfoListingUrl,
  parseGovInfoListing,
  rateLimitedMessage,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import { apiGet, relayRefusal, type ApiDownloadDeps, type ApiSourceWords } from './api-request.ts';
import type { SourceDownloadDeps } from './source-download.ts';

// A dataset from GovInfo's bulk data (core's sources/govinfo-bulk.ts): the JSON listing of one
// Congress's BILLSTATUS files of one bill type; the same listing as last time (its hash, kept
// with the dataset) is "No changes" after that one request; else the folder's ZIP on the first
// import, and on a refresh only the files listed as changed at or after the newest time the last
// import read, whose bills the BILLSTATUS importer reads while the dataset keeps its others.
// Each request goes directly where the browser may (CORS), else through the Docket server's relay.

export interface GovInfoOrigin {
  congress: number;
  billType: string;
}

export interface GovInfoKept {
  /** The hash of the listing the last import read. */
  hash: string | null;
  /** The newest listed time the last import read, ISO. */
  since: string | null;
}

export type GovInfoDownloadDeps = ApiDownloadDeps & Pick<SourceDownloadDeps, 'sha256Hex'>;

const failure = (message: string) => new GovInfoBulkError('unexpected', message);

const words: ApiSourceWords = {
  api: "GovInfo's bulk data",
  failure,
  rateLimited: (seconds) =>
    new GovInfoBulkError(
      'rate-limited',
      rateLimitedMessage("GovInfo's bulk data", seconds).replace(' from this key', ''),
    ),
};

async function bulkGet(
  url: string,
  what: string,
  deps: GovInfoDownloadDeps,
  maxBytes: number,
  accept?: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const { response, relayed } = await apiGet(
    {
      url,
      ...(accept === undefined ? {} : { headers: { Accept: accept }, accept }),
    },
    deps,
    words,
  );
  if (!response.ok) {
    if (relayed) {
      const refused = await relayRefusal(response);
      throw failure(
        refused !== null
          ? `GovInfo's ${what} could not be fetched through the Docket server: ${refused}`
          : `The Docket server's relay answered ${response.status} for GovInfo's ${what}.`,
      );
    }
    throw failure(`GovInfo answered ${response.status} for the ${what}.`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > maxBytes) {
    throw failure(
      `GovInfo's ${what} is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Docket reads at once.`,
    );
  }
  return bytes;
}

/**
 * Downloads a GovInfo BILLSTATUS dataset: `{unchanged: true}` when the listing is the one the
 * last import read (one request); else the ZIP or the changed files.
 */
export async function downloadGovInfo(
  origin: GovInfoOrigin,
  kept: GovInfoKept,
  deps: GovInfoDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  const listingBytes = await bulkGet(
    govInfoListingUrl(origin.congress, origin.billType),
    'bulk data listing',
    deps,
    maxBytes,
    'application/json',
  );
  const listing = parseGovInfoListing(listingBytes);
  const hash = await deps.sha256Hex(new TextEncoder().encode(listing.signature));
  if (kept.hash !== null && kept.hash === hash) return { unchanged: true };
  if (listing.files.length === 0 && listing.zip === null) {
    throw new GovInfoBulkError(
      'empty',
      `GovInfo lists no BILLSTATUS files for the ${origin.congress}th Congress's ${origin.billType.toUpperCase()} bills. Check both in the dataset.`,
    );
  }
  const since = kept.since === null ? null : Date.parse(kept.since);
  const read = govInfoFilesToRead(listing, since === null || Number.isNaN(since) ? null : since);
  if (read.files.length === 0) return { unchanged: true };
  const files: { name: string; bytes: Uint8Array<ArrayBuffer> }[] = [];
  for (const file of read.files) {
    files.push({ name: file.name, bytes: await bulkGet(file.url, file.name, deps, maxBytes) });
  }
  const readSince = read.since === null ? null : new Date(read.since).toISOString();
  return {
    files,
    fingerprint: `govinfo:${origin.congress}:${origin.billType}|listing:${hash}`,
    // A ZIP older than some listed file: no hash kept, so the next refresh reads those files.
    source: { etag: null, lastModified: null, hash: read.complete ? hash : null, since: readSince },
    ...(read.partial ? { partial: true } : {}),
  };
}
