import type { ImportInput, SourceUnchanged } from '@docket/core/import-jobs';
import {
  findLegiscanSession,
  LEGISCAN_MISSING_KEY,
  LegiscanApiError,
  legiscanBillUrl,
  legiscanChangedBills,
  legiscanDatasetListUrl,
  legiscanDatasetUrl,
  legiscanKeptAfterBills,
  legiscanKeptOfDataset,
  legiscanMasterListRawUrl,
  legiscanPersonUrl,
  legiscanQuotaRefusal,
  legiscanRateLimited,
  legiscanRefreshWay,
  legiscanRollCallUrl,
  legiscanSourceHash,
  parseLegiscanBill,
  parseLegiscanDataset,
  parseLegiscanDatasetList,
  parseLegiscanMasterListRaw,
  parseLegiscanPerson,
  parseLegiscanRollCall,
  takeLegiscanDataset,
  type LegiscanDatasetEntry,
  type LegiscanKept,
  type LegiscanMasterListEntry,
} from '@docket/core/sources';
import { defaultImportLimits } from '@docket/core/encoding';
import { apiGet, relayRefusal, type ApiDownloadDeps, type ApiSourceWords } from './api-request.ts';

// A dataset from LegiScan's API (core's sources/legiscan-api.ts and legiscan-bill-api.ts). The
// first import: getDatasetList for the state, then getDataset, whose base64 ZIP the LegiScan
// importer reads as if it were picked; the change_hash of each of its bills is kept on the device
// (core's sources/legiscan-refresh.ts). A refresh: getMasterListRaw, and only the bills whose
// change_hash moved (none: "No changes", one query), read one by one with getBill, getRollCall
// for their votes not seen before and getPerson for sponsors and voters not known, the answers
// written as the dataset's bill/, vote/ and people/ files are, into an import that keeps the
// dataset's other bills (`partial`), as Open States' updated_since does; or, when that costs more
// queries than the dataset and a newer dataset is built, the dataset again (legiscan-refresh.ts
// says the rule).
// Every query is counted against the key's monthly quota before it is sent (legiscan-quota.ts); a
// refresh that would go past it stops, having changed nothing.
// Each request goes directly where the browser may (CORS), else through the Docket server's relay,
// as a URL source's download does (source-download.ts). The key is in every request's query
// string (LegiScan's API has no other way), so no error here names the address: they say
// "LegiScan" and what it answered.

export interface LegiscanOrigin {
  state: string;
  sessionId: number;
}

/** This month's queries of the key on this device: read before each query, counted as sent. */
export interface LegiscanQueries {
  used: () => Promise<number>;
  count: () => Promise<void>;
}

/** What the LegiScan download needs: fetch, the relay, and a timer for a short Retry-After; the
 *  quota's count and a place for the refresh state, where there are some. */
export interface LegiscanDownloadDeps extends ApiDownloadDeps {
  queries?: LegiscanQueries;
  /** Keeps the refresh state the import of this download will name (its source hash). */
  keep?: (next: LegiscanKept) => Promise<void>;
}

/** What the last finished import of the dataset left: its dataset_hash, its refresh state. */
export interface LegiscanPrevious {
  datasetHash: string | null;
  kept: LegiscanKept | null;
}

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
      `LegiScan's ${what} is larger than ${Math.round(maxBytes / (1024 * 1024))} MB, more than Docket reads at once.`,
    );
  }
  return bytes;
}

/** Sends one query of LegiScan's API, counted against the month's quota first. */
class LegiscanSession {
  constructor(
    readonly key: string,
    readonly origin: LegiscanOrigin,
    readonly deps: LegiscanDownloadDeps,
    readonly maxBytes: number,
  ) {}

  /** Refuses, before anything is sent, `queries` more that would go past the quota. */
  async need(queries: number): Promise<void> {
    if (this.deps.queries === undefined) return;
    const refused = legiscanQuotaRefusal(await this.deps.queries.used(), queries);
    if (refused !== null) throw refused;
  }

  async ask(url: string, what: string, maxBytes = this.maxBytes): Promise<Uint8Array> {
    await this.need(1);
    await this.deps.queries?.count();
    return legiscanGet(url, what, this.deps, maxBytes);
  }

  /** getDataset of the session the list names, and the refresh state its bills give. */
  async dataset(entry: LegiscanDatasetEntry): Promise<ImportInput> {
    const { origin } = this;
    const dataset = parseLegiscanDataset(
      await this.ask(
        legiscanDatasetUrl(this.key, origin.sessionId, entry.access_key),
        'dataset',
        // base64 is four characters for three bytes, and the JSON around it.
        Math.ceil((this.maxBytes * 4) / 3) + 64 * 1024,
      ),
    );
    const file = { name: `legiscan-${origin.state}-${origin.sessionId}.zip`, bytes: dataset.zip };
    const kept = legiscanKeptOfDataset(file, {
      hash: dataset.hash,
      date: entry.dataset_date ?? null,
    });
    await this.deps.keep?.(kept);
    return {
      files: [file],
      fingerprint: `legiscan:${origin.state}:${origin.sessionId}|hash:${dataset.hash}`,
      source: { etag: null, lastModified: null, hash: legiscanSourceHash(kept) },
    };
  }

  /** getBill of each changed bill, getRollCall of its new votes, getPerson of the sponsors and
   *  voters not known. */
  async bills(
    changed: readonly LegiscanMasterListEntry[],
    kept: LegiscanKept,
  ): Promise<ImportInput> {
    // One getBill each at least; votes and people are checked as they are found.
    await this.need(changed.length);
    const knownVotes = new Set(kept.rollCalls);
    const knownPeople = new Set(kept.people);
    const newVotes: number[] = [];
    const newPeople: number[] = [];
    const read: { billId: number; changeHash: string }[] = [];
    const files: { name: string; bytes: Uint8Array }[] = [];
    for (const [index, entry] of changed.entries()) {
      await this.deps.progress?.(`Reading bill ${index + 1} of ${changed.length}`);
      const body = await this.ask(
        legiscanBillUrl(this.key, entry.bill_id),
        `bill ${entry.number ?? entry.bill_id}`,
      );
      const bill = parseLegiscanBill(body, entry.bill_id);
      read.push(bill);
      files.push({ name: `bill/${bill.billId}.json`, bytes: body });
      const voters: number[] = [];
      for (const rollCallId of bill.rollCallIds) {
        if (knownVotes.has(rollCallId)) continue;
        const vote = await this.ask(legiscanRollCallUrl(this.key, rollCallId), 'vote');
        voters.push(...parseLegiscanRollCall(vote, rollCallId, bill.billId));
        files.push({ name: `vote/${rollCallId}.json`, bytes: vote });
        knownVotes.add(rollCallId);
        newVotes.push(rollCallId);
      }
      // Who voted how: the voters of the new votes are told by getPerson as sponsors are (the
      // dataset read first holds every legislator of the session, so these are seldom any).
      for (const peopleId of [...bill.peopleIds, ...voters]) {
        if (knownPeople.has(peopleId)) continue;
        const person = await this.ask(legiscanPersonUrl(this.key, peopleId), 'legislator');
        parseLegiscanPerson(person, peopleId);
        files.push({ name: `people/${peopleId}.json`, bytes: person });
        knownPeople.add(peopleId);
        newPeople.push(peopleId);
      }
    }
    const at = new Date((this.deps.now ?? Date.now)()).toISOString();
    const next = legiscanKeptAfterBills(kept, read, newVotes, newPeople, at);
    await this.deps.keep?.(next);
    const { origin } = this;
    return {
      files,
      fingerprint: `legiscan:${origin.state}:${origin.sessionId}|bills:${next.token}`,
      source: { etag: null, lastModified: null, hash: legiscanSourceHash(next) },
      partial: true,
    };
  }
}

/**
 * Downloads a LegiScan API dataset. With a refresh state (`previous.kept`): the master list, then
 * the changed bills or the dataset; `{unchanged: true}` when no bill's change_hash moved, after one
 * query. Without one: the dataset, or `{unchanged: true}` when its dataset_hash is the one the last
 * import kept, after one query.
 */
export async function downloadLegiscan(
  origin: LegiscanOrigin,
  key: string | null,
  previous: LegiscanPrevious,
  deps: LegiscanDownloadDeps,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput | SourceUnchanged> {
  if (key === null) throw new LegiscanApiError('missing-key', LEGISCAN_MISSING_KEY);
  const session = new LegiscanSession(key, origin, deps, maxBytes);
  const list = async () =>
    findLegiscanSession(
      parseLegiscanDatasetList(
        await session.ask(legiscanDatasetListUrl(key, origin.state), 'list of datasets'),
      ),
      origin.state,
      origin.sessionId,
    );
  const { kept } = previous;
  if (kept === null) {
    const entry = await list();
    if (previous.datasetHash !== null && entry.dataset_hash === previous.datasetHash) {
      return { unchanged: true };
    }
    return session.dataset(entry);
  }
  const masterList = parseLegiscanMasterListRaw(
    await session.ask(legiscanMasterListRawUrl(key, origin.sessionId), 'list of bills'),
  );
  const changed = legiscanChangedBills(kept, masterList);
  if (changed.length === 0) return { unchanged: true };
  if (legiscanRefreshWay(changed.length) === 'ask-list') {
    const entry = await list();
    if (takeLegiscanDataset(entry, kept)) return session.dataset(entry);
  }
  return session.bills(changed, kept);
}
