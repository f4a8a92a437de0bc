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

/**
 * What the service's functions share: the feed it reads, the catalog it keeps current, the
 * results it remembers for `rows` and `ids`, the status and who watches it, and the work waiting.
 */
interface SearchEngine {
  readonly feed: BillSearchFeed;
  readonly batchSize: number;
  readonly catalog: BillCatalog;
  readonly results: Map<number, Int32Array>;
  readonly listeners: Map<number, (status: IndexStatus) => void>;
  nextWatchId: number;
  nextResultId: number;
  status: IndexStatus;
  /** Bills waiting to be read again ('all': every bill); null when none. */
  billsToRead: Set<string> | 'all' | null;
  marksStale: boolean;
  /** The work under way, while it is. */
  running: Promise<void> | null;
  /** When the status was last sent to the listeners. */
  lastSent: number;
}

/** A new status, sent to the listeners when forced or at most every STATUS_INTERVAL_MS. */
function setStatus(engine: SearchEngine, next: Omit<IndexStatus, 'version'>, force: boolean): void {
  engine.status = { ...next, version: engine.status.version + 1 };
  const now = Date.now();
  if (!force && now - engine.lastSent < STATUS_INTERVAL_MS) return;
  engine.lastSent = now;
  for (const listener of engine.listeners.values()) listener(engine.status);
}

/** Reads the decisions, tags and positions the catalog filters and counts by. */
async function readMarks(engine: SearchEngine): Promise<void> {
  const { decisions, billTags, positions } = await engine.feed.marks();
  engine.catalog.setMarks(billMarksOf(decisions, billTags, positions));
}

/** Reads every bill in key order, re-indexing the changed ones and dropping the gone ones. */
async function readAllBills(engine: SearchEngine): Promise<void> {
  const { feed, catalog } = engine;
  const total = await feed.countBills();
  const seen = new Set<string>();
  let last: string | null = null;
  setStatus(engine, { indexing: true, indexed: catalog.size, total }, true);
  for (;;) {
    const batch = await feed.billsAfter(last, engine.batchSize);
    for (const bill of batch) {
      seen.add(bill.id);
      catalog.put(bill, billVersion(bill));
    }
    const end = batch[batch.length - 1];
    if (end === undefined) break;
    last = end.id;
    setStatus(engine, { indexing: true, indexed: catalog.size, total }, false);
  }
  for (const id of catalog.ids()) if (!seen.has(id)) catalog.remove(id);
}

/** Reads the named bills again, dropping the ones gone from the store. */
async function readSomeBills(engine: SearchEngine, ids: readonly string[]): Promise<void> {
  const found = await engine.feed.billsOf(ids);
  ids.forEach((id, index) => {
    const bill = found[index];
    if (bill === undefined) engine.catalog.remove(id);
    else engine.catalog.put(bill, billVersion(bill));
  });
}

/** Does the work waiting, and whatever arrives meanwhile, until none is left. */
async function work(engine: SearchEngine): Promise<void> {
  while (engine.billsToRead !== null || engine.marksStale) {
    if (engine.marksStale) {
      engine.marksStale = false;
      await readMarks(engine);
    }
    const toRead = engine.billsToRead;
    engine.billsToRead = null;
    if (toRead === 'all') await readAllBills(engine);
    else if (toRead !== null) await readSomeBills(engine, [...toRead]);
    const { size } = engine.catalog;
    setStatus(engine, { indexing: false, indexed: size, total: size }, true);
  }
}

/** Starts the work unless it is under way; settles when the run doing it ends. */
function schedule(engine: SearchEngine): Promise<void> {
  engine.running ??= work(engine)
    .catch((error: unknown) => {
      console.error('[docket] The search index could not read the store:', error);
      const { size } = engine.catalog;
      setStatus(engine, { indexing: false, indexed: size, total: size }, true);
    })
    .finally(() => {
      engine.running = null;
    });
  return engine.running;
}

/** A change the feed reports, added to the work waiting. */
function onChange(engine: SearchEngine, change: BillSearchChange): void {
  engine.marksStale ||= change.marks;
  if (change.bills === 'all') engine.billsToRead = 'all';
  else if (change.bills.length > 0 && engine.billsToRead !== 'all') {
    const toRead = engine.billsToRead ?? new Set<string>();
    engine.billsToRead = toRead;
    for (const id of change.bills) toRead.add(id);
  }
  schedule(engine).catch(() => undefined);
}

/** Keeps a result for `rows` and `ids`, forgetting the oldest past KEPT_RESULTS; its id. */
function remember(engine: SearchEngine, result: Int32Array): number {
  const { results } = engine;
  const id = engine.nextResultId++;
  results.set(id, result);
  for (const old of results.keys()) {
    if (results.size <= KEPT_RESULTS) break;
    results.delete(old);
  }
  return id;
}

/** The catalog's rows at places start..end of a result. */
function rowsOf(
  catalog: BillCatalog,
  result: Int32Array,
  start: number,
  end: number,
): (BillListRow | null)[] {
  const rows: (BillListRow | null)[] = [];
  const from = Math.max(0, Math.floor(start));
  const to = Math.min(result.length, Math.floor(end));
  for (let place = from; place < to; place++) {
    // A bill removed since the query keeps its place, empty, until the page asks again.
    rows.push(catalog.row(result[place] ?? -1) ?? null);
  }
  return rows;
}

/** BillSearchApi.query: the query run on the catalog, remembered, with its first rows. */
function answerQuery(
  engine: SearchEngine,
  query: BillListQuery,
  firstRows: number,
): Promise<BillSearchAnswer> {
  const { catalog } = engine;
  const started = performance.now();
  const result = catalog.query(query);
  const tookMs = performance.now() - started;
  return Promise.resolve({
    resultId: remember(engine, result),
    total: result.length,
    rows: rowsOf(catalog, result, 0, firstRows),
    status: engine.status,
    jurisdictions: catalog.jurisdictions(),
    sessions: catalog.sessions(),
    decisionCounts: catalog.decisionCounts(),
    sponsorName: query.sponsor === null ? null : catalog.sponsorName(query.sponsor),
    tookMs,
  });
}

/** BillSearchApi.ids: every bill id of a remembered result; null once it is forgotten. */
function idsOf(engine: SearchEngine, resultId: number): Promise<string[] | null> {
  const result = engine.results.get(resultId);
  if (result === undefined) return Promise.resolve(null);
  const ids: string[] = [];
  for (const doc of result) {
    const id = engine.catalog.billId(doc);
    if (id !== undefined) ids.push(id);
  }
  return Promise.resolve(ids);
}

export function createBillSearchService(
  feed: BillSearchFeed,
  options: BillSearchServiceOptions = {},
): BillSearchApi & { close(): void } {
  const engine: SearchEngine = {
    feed,
    batchSize: options.batchSize ?? 500,
    catalog: new BillCatalog(new BillSearchIndex()),
    results: new Map(),
    listeners: new Map(),
    nextWatchId: 1,
    nextResultId: 1,
    status: { indexing: true, indexed: 0, total: null, version: 0 },
    // Work waiting: the first full read is queued from the start.
    billsToRead: 'all',
    marksStale: true,
    running: null,
    lastSent: 0,
  };

  const stopWatching = feed.watch((change) => {
    onChange(engine, change);
  });
  schedule(engine).catch(() => undefined);

  return {
    query: (query, firstRows) => answerQuery(engine, query, firstRows),
    rows: (resultId, start, end) => {
      const result = engine.results.get(resultId);
      return Promise.resolve(
        result === undefined ? null : rowsOf(engine.catalog, result, start, end),
      );
    },
    ids: (resultId) => idsOf(engine, resultId),
    status: () => Promise.resolve(engine.status),
    watch: (listener) => {
      const watchId = engine.nextWatchId++;
      engine.listeners.set(watchId, listener);
      listener(engine.status);
      return Promise.resolve(watchId);
    },
    unwatch: (watchId) => {
      engine.listeners.delete(watchId);
      return Promise.resolve();
    },
    idle: async () => {
      while (engine.running !== null) await engine.running;
      return engine.status;
    },
    close: () => {
      stopWatching();
      engine.listeners.clear();
    },
  };
}
