import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  OPENSTATES_MAX_PAGES,
  OPENSTATES_MISSING_KEY,
  OpenStatesApiError,
  openStatesBillsUrl,
  openStatesRateLimited,
  openStatesRefusal,
  parseOpenStatesPage,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import {
  apiGet,
  relayErrorSchema,
  type ApiDownloadDeps,
  type ApiSourceWords,
} from './api-request.ts';

// A dataset from Open States API v3 (core's sources/openstates-api.ts): /bills of the
// jurisdiction's session, page by page up to `pagination.max_page`, the key in the X-API-KEY
// header. The first import reads every bill; a refresh only those `updated_since` the time the
// last import asked (kept with the dataset), and its import keeps the dataset's other bills
// (`partial`). No bill updated since: "No changes", after one request. Each page goes directly
// where the browser may (CORS), else through the Docket server's relay with the key as its
// `apiKeyHeader`; each page is one file of the import, read by the Open States importer.

export interface OpenStatesOrigin {
  jurisdiction: string;
  session: string;
}

const failure = (message: string) => new OpenStatesApiError('unexpected', message);

const words: ApiSourceWords = {
  api: "Open States' API",
  failure,
  rateLimited: openStatesRateLimited,
};

function jsonOrNull(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch {
    return null;
  }
}

async function getPage(
  url: string,
  key: string,
  deps: ApiDownloadDeps,
  maxBytes: number,
): Promise<Uint8Array> {
  const { response, relayed } = await apiGet(
    { url, headers: { 'X-API-KEY': key }, apiKeyHeader: key },
    deps,
    words,
  );
  const body = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) {
    if (relayed) {
      const parsed = relayErrorSchema.safeParse(jsonOrNull(body));
      throw failure(
        parsed.success
          ? `Open States could not be asked through the Docket server: ${parsed.data.message}`
          : `The Docket server's relay answered ${response.status} for Open States' list of bills.`,
      );
    }
    throw openStatesRefusal(response.status, body);
  }
  if (body.length > maxBytes) {
    throw new OpenStatesApiError(
      'too-large',
      "A page of Open States' bills is larger than Docket reads at once.",
    );
  }
  return body;
}

/**
 * Downloads an Open States API dataset: every page of the session's bills, or, with `since`
 * (when the last import asked), only the bills updated since then; `{unchanged: true}` when
 * none was.
 */
export async function downloadOpenStates(
  origin: OpenStatesOrigin,
  key: string | null,
  since: string | null,
  deps: ApiDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  if (key === null) throw new OpenStatesApiError('missing-key', OPENSTATES_MISSING_KEY);
  // Asked before the first page: a bill updated while the pages are read is read again next time.
  const askedAt = new Date((deps.now ?? Date.now)()).toISOString();
  const files: { name: string; bytes: Uint8Array }[] = [];
  let bills = 0;
  for (let page = 1; ; page++) {
    const body = await getPage(
      openStatesBillsUrl(origin.jurisdiction, origin.session, page, since),
      key,
      deps,
      maxBytes,
    );
    const read = parseOpenStatesPage(body);
    bills += read.bills;
    if (read.bills > 0) files.push({ name: `openstates-bills-page-${page}.json`, bytes: body });
    if (page >= read.maxPage) break;
    if (page >= OPENSTATES_MAX_PAGES) {
      throw new OpenStatesApiError(
        'too-large',
        `Open States lists more than ${OPENSTATES_MAX_PAGES * 20} bills for this session; Docket reads at most that many in one import.`,
      );
    }
  }
  if (bills === 0) {
    if (since !== null) return { unchanged: true };
    throw failure(
      `Open States lists no bills for session "${origin.session}" of "${origin.jurisdiction}". Check both in the dataset.`,
    );
  }
  return {
    files,
    fingerprint: `openstates:${origin.jurisdiction}:${origin.session}|since:${since ?? 'all'}|asked:${askedAt}`,
    source: { etag: null, lastModified: null, since: askedAt },
    ...(since === null ? {} : { partial: true }),
  };
}
