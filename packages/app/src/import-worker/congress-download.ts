import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  CONGRESS_API_MAX_LIST_PAGES,
  CONGRESS_API_PAGE,
  CONGRESS_MISSING_KEY,
  CongressApiError,
  congressBillListUrl,
  congressBillParts,
  congressBillStatusXml,
  congressBillsToRead,
  congressBillUrl,
  congressPartCount,
  congressRateLimited,
  congressRefusal,
  parseCongressBill,
  parseCongressBillList,
  parseCongressPart,
  type CongressBillPart,
  type CongressListedBill,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import { apiGet, relayRefusal, type ApiDownloadDeps, type ApiSourceWords } from './api-request.ts';

// A dataset from the congress.gov API v3 (core's sources/congress-api.ts): one Congress's bills
// of one type, the list paged by offset and limit, only those updated `fromDateTime` the time the
// last import asked on a refresh (kept with the dataset; none: "No changes" after one request).
// Each listed bill's detail, then those of its actions, cosponsors, text versions, subjects and
// summaries the detail counts, become one BILLSTATUS document the BILLSTATUS importer reads; a
// refresh's import keeps the dataset's other bills. The key goes in the X-Api-Key header (the
// relay's `apiKeyHeader`), so no address here holds it; a 429's Retry-After is waited out once
// when short, else said.

export interface CongressOrigin {
  congress: number;
  billType: string;
}

const failure = (message: string) => new CongressApiError('unexpected', message);

const words: ApiSourceWords = {
  api: 'The congress.gov API',
  failure,
  rateLimited: congressRateLimited,
};

async function congressGet(
  url: string,
  key: string,
  deps: ApiDownloadDeps,
  maxBytes: number,
): Promise<Uint8Array> {
  const { response, relayed } = await apiGet(
    { url, headers: { 'X-Api-Key': key }, apiKeyHeader: key },
    deps,
    words,
  );
  if (!response.ok) {
    if (relayed && response.status !== 502) {
      const refused = await relayRefusal(response.clone());
      if (refused !== null) {
        throw failure(`congress.gov could not be asked through the Docket server: ${refused}`);
      }
    }
    throw congressRefusal(response.status, new Uint8Array(await response.arrayBuffer()));
  }
  const body = new Uint8Array(await response.arrayBuffer());
  if (body.length > maxBytes) {
    throw new CongressApiError(
      'too-large',
      'An answer of congress.gov is larger than Docket reads at once.',
    );
  }
  return body;
}

/** Every item of a bill's part, page by page. */
async function readPart(
  origin: CongressOrigin,
  number: string,
  part: CongressBillPart,
  key: string,
  deps: ApiDownloadDeps,
  maxBytes: number,
): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let offset = 0; ; offset += CONGRESS_API_PAGE) {
    const page = parseCongressPart(
      await congressGet(
        congressBillUrl(origin.congress, origin.billType, number, part, offset),
        key,
        deps,
        maxBytes,
      ),
      part,
    );
    items.push(...page.items);
    if (part === 'subjects' || page.items.length < CONGRESS_API_PAGE) return items;
    if (page.count !== null && offset + CONGRESS_API_PAGE >= page.count) return items;
  }
}

/**
 * Downloads a congress.gov API dataset: every bill of the Congress and type, or, with `since`
 * (when the last import asked), only the bills updated since then; `{unchanged: true}` when none
 * was.
 */
export async function downloadCongress(
  origin: CongressOrigin,
  key: string | null,
  since: string | null,
  deps: ApiDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  if (key === null) throw new CongressApiError('missing-key', CONGRESS_MISSING_KEY);
  // Asked before the first page: a bill updated while the pages are read is read again next time.
  const askedAt = new Date((deps.now ?? Date.now)()).toISOString();
  const listed = new Map<string, CongressListedBill>();
  for (let offset = 0; ; offset += CONGRESS_API_PAGE) {
    const page = parseCongressBillList(
      await congressGet(
        congressBillListUrl(origin.congress, origin.billType, offset, since),
        key,
        deps,
        maxBytes,
      ),
    );
    for (const bill of page.bills) listed.set(`${bill.type}${bill.number}`, bill);
    if (page.bills.length < CONGRESS_API_PAGE) break;
    if (page.count !== null && offset + CONGRESS_API_PAGE >= page.count) break;
    if (offset / CONGRESS_API_PAGE + 1 >= CONGRESS_API_MAX_LIST_PAGES) {
      throw new CongressApiError(
        'too-large',
        `congress.gov lists more than ${(CONGRESS_API_MAX_LIST_PAGES * CONGRESS_API_PAGE).toLocaleString('en-US')} bills; for a whole Congress, add the dataset from GovInfo bulk data.`,
      );
    }
  }
  if (listed.size === 0) {
    if (since !== null) return { unchanged: true };
    throw failure(
      `congress.gov lists no ${origin.billType.toUpperCase()} bills of the ${origin.congress}th Congress. Check both in the dataset.`,
    );
  }
  const files: { name: string; bytes: Uint8Array }[] = [];
  // More than one import reads: the oldest days now, the rest from where this one stops.
  const read = congressBillsToRead([...listed.values()]);
  for (const [index, { number }] of read.bills.entries()) {
    await deps.progress?.(`Reading bill ${index + 1} of ${read.bills.length}`);
    const bill = parseCongressBill(
      await congressGet(
        congressBillUrl(origin.congress, origin.billType, number),
        key,
        deps,
        maxBytes,
      ),
    );
    const parts: Partial<Record<CongressBillPart, unknown[]>> = {};
    for (const part of congressBillParts) {
      if (congressPartCount(bill, part) === 0) continue;
      parts[part] = await readPart(origin, number, part, key, deps, maxBytes);
    }
    files.push({
      name: `BILLSTATUS-${origin.congress}${origin.billType}${number}.xml`,
      bytes: new TextEncoder().encode(congressBillStatusXml(bill, parts)),
    });
  }
  return {
    files,
    fingerprint: `congress:${origin.congress}:${origin.billType}|since:${since ?? 'all'}|asked:${askedAt}`,
    source: { etag: null, lastModified: null, since: read.resumeFrom ?? askedAt },
    ...(since === null ? {} : { partial: true }),
  };
}
