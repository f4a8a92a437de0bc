import {
  BillCatalog,
  type BillListQuery,
  type BillListRow,
  billMarksOf,
  BillSearchIndex,
  type DecisionFilter,
} from '@docket/core/lists';
import type { StoredBill } from '@docket/core/store';
import type { BillSearchChange, BillSearchFeed } from '../local-store/bill-search-feed.ts';

// The tracked list's search engine, run in a Web Worker (bill-search-worker.ts) so that
// indexing 50,000 bills never freezes the page. It reads bills through its feed
// (local-store/bill-search-feed.ts: the worker's own connection and the database's change
// notifications from every same-origin context): a change to a few bills re-reads those bills;
// an import (reported as "all") is compared bill by bill by change hash, and only changed bills
// are re-indexed.

export interface IndexStatus {
  /** True while the first read of the store (or a re-read after an import) is under way. */
  readonly indexing: boolean;
  readonly indexed: number;
  /** Bills in the store, when known. */
  readonly total: number | null;
  /** Goes up on every change of bills or marks: the page asks again when it moves. */
  readonly version: number;
}

export interface BillSearchAnswer {
  /** Names this result for `rows` and `ids`. */
  readonly resultId: number;
  readonly total: number;
  /** The first rows, so the first screen needs one round trip. */
  readonly rows: readonly (BillListRow | null)[];
  readonly status: IndexStatus;
  readonly jurisdictions: readonly string[];
  /** The sessions of the bills held, as `sessionKey`s, for the session filter. */
  readonly sessions: readonly string[];
  /** How many bills each triage list holds (Tracked, Later, Dismissed, undecided). */
  readonly decisionCounts: Readonly<Record<DecisionFilter, number>>;
  /** The name of the person the query's sponsor filter stands for; null without the filter or
   *  when no bill held names them. */
  readonly sponsorName: string | null;
  /** How long the search and filters took in the worker, in milliseconds. */
  readonly tookMs: number;
}

export interface BillSearchApi {
  query(query: BillListQuery, firstRows: number): Promise<BillSearchAnswer>;
  /** Rows start..end of a result; null once the result is forgotten (a newer one replaced it). */
  rows(resultId: number, start: number, end: number): Promise<(BillListRow | null)[] | null>;
  /** Every bill id of a result, for "Select all". */
  ids(resultId: number): Promise<string[] | null>;
  status(): Promise<IndexStatus>;
  /** Calls the listener with the status on every change; the number given back stops it. */
  watch(listener: (status: IndexStatus) => void): Promise<number>;
  unwatch(watchId: number): Promise<void>;
  /** Resolves once every change seen so far is indexed. */
  idle(): Promise<IndexStatus>;
}

export interface BillSearchServiceOptions {
  /** Bills read per IndexedDB transaction. */
  readonly batchSize?: number;
}

const KEPT_RESULTS = 4;
const STATUS_INTERVAL_MS = 200;

function billVersion(bill: StoredBill): string {
  return `${bill.changeHash}|${bill.datasetIds.join(',')}`;
}

export function createBillSearchService(
  feed: BillSearchFeed,
  options: BillSearchServiceOptions = {},
): BillSearchApi & { close(): void } {
  const batchSize = options.batchSize ?? 500;
  const catalog = new BillCatalog(new BillSearchIndex());
  const results = new Map<number, Int32Array>();
  const listeners = new Map<number, (status: IndexStatus) => void>();
  let nextWatchId = 1;
  let nextResultId = 1;
  let status: IndexStatus = { indexing: true, indexed: 0, total: null, version: 0 };

  // Work waiting: the first full read is queued from the start.
  let billsToRead: Set<string> | 'all' | null = 'all';
  let marksStale = true;
  let running: Promise<void> | null = null;
  let lastSent = 0;

  function setStatus(next: Omit<IndexStatus, 'version'>, force: boolean): void {
    status = { ...next, version: status.version + 1 };
    const now = Date.now();
    if (!force && now - lastSent < STATUS_INTERVAL_MS) return;
    lastSent = now;
    for (const listener of listeners.values()) listener(status);
  }

  async function readMarks(): Promise<void> {
    const { decisions, billTags, positions } = await feed.marks();
    catalog.setMarks(billMarksOf(decisions, billTags, positions));
  }

  /** Reads every bill in key order, re-indexing the changed ones and dropping the gone ones. */
  async function readAllBills(): Promise<void> {
    const total = await feed.countBills();
    const seen = new Set<string>();
    let last: string | null = null;
    setStatus({ indexing: true, indexed: catalog.size, total }, true);
    for (;;) {
      const batch = await feed.billsAfter(last, batchSize);
      for (const bill of batch) {
        seen.add(bill.id);
        catalog.put(bill, billVersion(bill));
      }
      const end = batch[batch.length - 1];
      if (end === undefined) break;
      last = end.id;
      setStatus({ indexing: true, indexed: catalog.size, total }, false);
    }
    for (const id of catalog.ids()) if (!seen.has(id)) catalog.remove(id);
  }

  async function readSomeBills(ids: readonly string[]): Promise<void> {
    const found = await feed.billsOf(ids);
    ids.forEach((id, index) => {
      const bill = found[index];
      if (bill === undefined) catalog.remove(id);
      else catalog.put(bill, billVersion(bill));
    });
  }

  async function work(): Promise<void> {
    while (billsToRead !== null || marksStale) {
      if (marksStale) {
        marksStale = false;
        await readMarks();
      }
      const toRead = billsToRead;
      billsToRead = null;
      if (toRead === 'all') await readAllBills();
      else if (toRead !== null) await readSomeBills([...toRead]);
      setStatus({ indexing: false, indexed: catalog.size, total: catalog.size }, true);
    }
  }

  function schedule(): Promise<void> {
    running ??= work()
      .catch((error: unknown) => {
        console.error('[docket] The search index could not read the store:', error);
        setStatus({ indexing: false, indexed: catalog.size, total: catalog.size }, true);
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  function onChange(change: BillSearchChange): void {
    marksStale ||= change.marks;
    if (change.bills === 'all') billsToRead = 'all';
    else if (change.bills.length > 0 && billsToRead !== 'all') {
      billsToRead ??= new Set();
      for (const id of change.bills) billsToRead.add(id);
    }
    schedule().catch(() => undefined);
  }
  const stopWatching = feed.watch(onChange);
  schedule().catch(() => undefined);

  function remember(result: Int32Array): number {
    const id = nextResultId++;
    results.set(id, result);
    for (const old of results.keys()) {
      if (results.size <= KEPT_RESULTS) break;
      results.delete(old);
    }
    return id;
  }

  function rowsOf(result: Int32Array, start: number, end: number): (BillListRow | null)[] {
    const rows: (BillListRow | null)[] = [];
    const from = Math.max(0, Math.floor(start));
    const to = Math.min(result.length, Math.floor(end));
    for (let place = from; place < to; place++) {
      // A bill removed since the query keeps its place, empty, until the page asks again.
      rows.push(catalog.row(result[place] ?? -1) ?? null);
    }
    return rows;
  }

  return {
    query: (query, firstRows) => {
      const started = performance.now();
      const result = catalog.query(query);
      const tookMs = performance.now() - started;
      return Promise.resolve({
        resultId: remember(result),
        total: result.length,
        rows: rowsOf(result, 0, firstRows),
        status,
        jurisdictions: catalog.jurisdictions(),
        sessions: catalog.sessions(),
        decisionCounts: catalog.decisionCounts(),
        sponsorName: query.sponsor === null ? null : catalog.sponsorName(query.sponsor),
        tookMs,
      });
    },
    rows: (resultId, start, end) => {
      const result = results.get(resultId);
      return Promise.resolve(result === undefined ? null : rowsOf(result, start, end));
    },
    ids: (resultId) => {
      const result = results.get(resultId);
      if (result === undefined) return Promise.resolve(null);
      const ids: string[] = [];
      for (const doc of result) {
        const id = catalog.billId(doc);
        if (id !== undefined) ids.push(id);
      }
      return Promise.resolve(ids);
    },
    status: () => Promise.resolve(status),
    watch: (listener) => {
      const watchId = nextWatchId++;
      listeners.set(watchId, listener);
      listener(status);
      return Promise.resolve(watchId);
    },
    unwatch: (watchId) => {
      listeners.delete(watchId);
      return Promise.resolve();
    },
    idle: async () => {
      while (running !== null) await running;
      return status;
    },
    close: () => {
      stopWatching();
      listeners.clear();
    },
  };
}
