import Dexie, { liveQuery } from 'dexie';
import { inflateSync, unzipSync } from 'fflate';
import { expect, inject, it } from 'vitest';
import { finalizeBill } from '@docket/core/bills';
import {
  compileDeckFilter,
  type DeckFilter,
  type DeckPage,
  type DeckSource,
  emptyDeckFilter,
  type IndexedCriterion,
  readDeckPage,
  type RecentOrderSource,
} from '@docket/core/deck';
import { decodeUtf8, inflateWithin } from '@docket/core/encoding';
import { congressJsonDraft, isCongressJson } from '@docket/core/importers';
import { BillCatalog, BillSearchIndex } from '@docket/core/lists';
import {
  billDeckOrderKeys,
  DECK_ORDER_RANGE_END,
  deckOrderListPrefix,
  type Decision,
  type DeckOrderList,
  type StoredBill,
  withoutDerivedFields,
} from '@docket/core/store';
import { WORKER_IMPORT_CHUNKS } from '../packages/app/src/import-worker/import-runner.ts';
import {
  DECK_PAGE_SIZE,
  dexieDeckSource,
} from '../packages/app/src/local-store/dexie-deck-source.ts';
import { createDocketDatabase } from '../packages/app/src/local-store/docket-database.ts';
import { openIndexedDbLocalStore } from '../packages/app/src/local-store/indexeddb-local-store.ts';
import { collectGarbage } from './import-timing.ts';
import { queries } from './search-bench-bills.ts';
import type {
  SqliteAnswer,
  SqliteBillRow,
  SqliteCall,
  SqliteChanged,
} from './storage-engines-sqlite-worker.ts';

// The storage engine comparison (issue 19, item 4): would another engine write an import's bills
// faster without losing elsewhere? In one run, on the same bills (the import benchmark's ZIP,
// made into rows by core's own importer code, exactly the rows an import stores), it compares:
//   - today's store: Dexie, the app's schema and write path (core's LocalStore over IndexedDB,
//     putMany in the import worker's chunks, derived deck keys and every index);
//   - (a) packed pages: the bills in IndexedDB records of many bills each, beside one lean index
//     record per page (each bill's id, page and deck keys), read whole into memory at open;
//   - (b) SQLite compiled to WebAssembly (the official build, @sqlite.org/sqlite-wasm) on OPFS
//     through its opfs-sahpool VFS, in a worker: a table of bills with the deck's columns and
//     indexes, the deck's keys, and an FTS5 index; as it comes, tuned, and tuned with its
//     rollback journal in memory (not crash-safe: the upper bound of its writes).
// The work a person feels: the import's writes, the deck's first card with a filter (core's
// readDeckPage on each engine's DeckSource), search (FTS5 against today's in-memory index), and a
// live list refreshing after a write. It prints a table and fails only when an engine answers
// wrongly. Beside it: fflate's inflate against the browser's DecompressionStream per bill.

Dexie.debug = false;

const RUNS = 7;
const LIVE_RUNS = 9;
const QUERIES = 200;
const LIST_SIZE = 50;
const PAGE_SIZES = [100, 500] as const;
const CHUNK = WORKER_IMPORT_CHUNKS.chunkSize;
const INFLATE_SAMPLE = 5_000;

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

function stats(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

function median(samples: readonly number[]): number {
  return stats(samples).p50;
}

/** The first value of a liveQuery, as useLiveQuery gets it. */
function firstLiveValue<T>(query: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const subscription = liveQuery(query).subscribe({
      next: (value) => {
        subscription.unsubscribe();
        resolve(value);
      },
      error: (error: unknown) => {
        subscription.unsubscribe();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The input: the ZIP's entries, and the rows an import stores from them.

interface ZipEntry {
  compressed: Uint8Array;
  size: number;
}

/** The ZIP's deflated entries, read from their local headers (the bench ZIP has no descriptors). */
function deflatedEntries(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const entries: ZipEntry[] = [];
  let at = 0;
  while (at + 30 <= zip.length && view.getUint32(at, true) === 0x04034b50) {
    const method = view.getUint16(at + 8, true);
    const compressedSize = view.getUint32(at + 18, true);
    const size = view.getUint32(at + 22, true);
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    if (method === 8)
      entries.push({ compressed: zip.subarray(start, start + compressedSize), size });
    at = start + compressedSize;
  }
  return entries;
}

async function nativeInflate(entry: ZipEntry): Promise<Uint8Array> {
  const stream = new Blob([entry.compressed as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** fflate (core's bounded inflate, as the import reads each entry) against the browser's own. */
async function inflateComparison(zip: Uint8Array): Promise<string[]> {
  const entries = deflatedEntries(zip).slice(0, INFLATE_SAMPLE);
  const bytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  // Both warmed up first (the JIT, the stream machinery) on entries not timed after.
  for (const entry of deflatedEntries(zip).slice(-200)) {
    inflateWithin(entry.compressed, entry.size);
    inflateSync(entry.compressed, { out: new Uint8Array(entry.size) });
    await nativeInflate(entry);
  }
  collectGarbage();
  let started = performance.now();
  for (const entry of entries) {
    const result = inflateWithin(entry.compressed, entry.size);
    if (!result.ok) throw new Error(result.reason);
  }
  const fflateMs = performance.now() - started;
  collectGarbage();
  started = performance.now();
  for (const entry of entries) inflateSync(entry.compressed, { out: new Uint8Array(entry.size) });
  const oneShotMs = performance.now() - started;
  collectGarbage();
  started = performance.now();
  for (const entry of entries) {
    const out = await nativeInflate(entry);
    if (out.length !== entry.size) throw new Error('DecompressionStream gave another size');
  }
  const nativeOneMs = performance.now() - started;
  collectGarbage();
  started = performance.now();
  for (let from = 0; from < entries.length; from += 64) {
    await Promise.all(entries.slice(from, from + 64).map(nativeInflate));
  }
  const nativeManyMs = performance.now() - started;
  const per = (ms: number) => `${((1000 * ms) / entries.length).toFixed(0)} µs/bill`;
  return [
    `Inflate, ${count(entries.length)} entries of the ZIP (${(bytes / 1024 / 1024).toFixed(0)} MB out; bills are stored as objects, not compressed: only the ZIP is inflated)`,
    `  fflate, core's inflateWithin (fed in pieces, bounded)  ${per(fflateMs).padStart(12)}`,
    `  fflate, one-shot inflateSync (unbounded)               ${per(oneShotMs).padStart(12)}  (${(fflateMs / oneShotMs).toFixed(2)}× inflateWithin's speed)`,
    `  DecompressionStream('deflate-raw'), one at a time      ${per(nativeOneMs).padStart(12)}  (${(fflateMs / nativeOneMs).toFixed(2)}× inflateWithin's speed)`,
    `  DecompressionStream, 64 in flight                      ${per(nativeManyMs).padStart(12)}  (${(fflateMs / nativeManyMs).toFixed(2)}×)`,
  ];
}

/** The rows an import stores: each data.json through core's draft and normalization. */
function importRows(zip: Uint8Array): { rows: StoredBill[]; ms: number } {
  const started = performance.now();
  const rows: StoredBill[] = [];
  for (const bytes of Object.values(unzipSync(zip))) {
    const value: unknown = JSON.parse(decodeUtf8(bytes));
    if (!isCongressJson(value)) throw new Error('an entry is not a data.json bill');
    const result = finalizeBill(congressJsonDraft(value));
    if (!result.ok) throw new Error(`a bill was refused: ${result.reason}`);
    // What the import journal stores for a bill new to the dataset.
    rows.push({ ...result.bill, datasetIds: ['bench-dataset'] });
  }
  return { rows, ms: performance.now() - started };
}

/** A bill new to the store whose latest activity is the newest of all: it heads the list. */
function newestBill(template: StoredBill, run: number): StoredBill {
  const day = `2099-01-${String(run + 1).padStart(2, '0')}`;
  return {
    ...withoutDerivedFields(template),
    id: `${template.id}-live-${run}`,
    title: `Live list bill ${run}`,
    introducedDate: day,
    statusDate: day,
    actions: [{ date: day, text: 'Introduced in the benchmark.', chamber: null }],
  };
}

function template(rows: readonly StoredBill[], run: number): StoredBill {
  const bill = rows[run % rows.length];
  if (bill === undefined) throw new Error('no bills');
  return bill;
}

/** The deck key split as the SQLite table and the packed index keep it: list, day, id. */
function splitDeckKey(key: string): [list: string, day: string, id: string] {
  const parts = key.split('\u0000');
  const id = parts.at(-1) ?? '';
  const day = parts.at(-2) ?? '';
  return [parts.slice(0, -2).join(':'), day, id];
}

function listName(list: DeckOrderList): string {
  return deckOrderListPrefix(list).split('\u0000').filter(Boolean).join(':');
}

// ---------------------------------------------------------------------------------------------
// What each engine is measured on.

interface EngineFigures {
  name: string;
  importMs: number;
  /** Opening the store as a page load does, before the first read. */
  openMs: number;
  firstCardMs: number;
  /** Search p50 and p95; null when the engine uses today's index. */
  search: { p50: number; p95: number; note: string } | null;
  liveMs: number;
  note: string;
}

interface DeckCase {
  filter: Partial<DeckFilter>;
  /** The ids the deck must deal, from today's store. */
  expected: string[];
}

/** Median time to the first cards of the filter, `runs` times, each from a fresh source. */
async function firstCard(
  source: () => Promise<DeckSource>,
  deck: DeckCase,
  live = false,
): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await settle();
    const from = await source();
    const compiled = compileDeckFilter({ ...emptyDeckFilter, ...deck.filter });
    const started = performance.now();
    const page = live
      ? await firstLiveValue((): Promise<DeckPage> => readDeckPage(from, compiled, DECK_PAGE_SIZE))
      : await readDeckPage(from, compiled, DECK_PAGE_SIZE);
    times.push(performance.now() - started);
    expect(page.cards.map((bill) => bill.id)).toEqual(deck.expected);
  }
  return median(times);
}

// ---------------------------------------------------------------------------------------------
// Today's store.

async function todaysStore(
  rows: readonly StoredBill[],
  deck: DeckCase,
): Promise<EngineFigures & { recentIds: string[] }> {
  const name = `docket-bench-engines-dexie-${Date.now()}`;
  await Dexie.delete(name);
  const store = await openIndexedDbLocalStore({ name });
  collectGarbage();
  await settle();
  const started = performance.now();
  for (let from = 0; from < rows.length; from += CHUNK) {
    const chunk = rows.slice(from, from + CHUNK);
    await store.write(['bills'], (tx) => tx.putMany('bills', chunk));
  }
  const importMs = performance.now() - started;
  expect(await store.read(['bills'], (tx) => tx.count('bills'))).toBe(rows.length);
  store.close();

  const opens: number[] = [];
  const db = () => {
    const started = performance.now();
    const opened = createDocketDatabase({ name });
    return opened.open().then(() => {
      opens.push(performance.now() - started);
      return opened;
    });
  };
  const connections: Dexie[] = [];
  const firstCardMs = await firstCard(
    async () => {
      const opened = await db();
      connections.push(opened);
      return dexieDeckSource(opened);
    },
    deck,
    true,
  );
  for (const connection of connections) connection.close();

  // The live list: the 50 most recent bills, in a liveQuery (as the app's lists are); one bill
  // written that heads it; time until the list shows it.
  const live = await db();
  const prefix = deckOrderListPrefix({ index: 'all' });
  const recentList = async () => {
    const ids = (await live
      .table('bills')
      .where('deckKeys')
      .between(prefix, `${prefix}${DECK_ORDER_RANGE_END}`)
      .limit(LIST_SIZE)
      .primaryKeys()) as string[];
    return (await live.table<StoredBill, string>('bills').bulkGet(ids)).map((bill) => bill?.id);
  };
  const recentIds = (await recentList()).filter((id): id is string => id !== undefined);
  const writer = await openIndexedDbLocalStore({ name });
  const liveTimes: number[] = [];
  for (let run = 0; run < LIVE_RUNS; run++) {
    const bill = newestBill(template(rows, run), run);
    await settle();
    liveTimes.push(
      await new Promise<number>((resolve, reject) => {
        let started = 0;
        const subscription = liveQuery(recentList).subscribe({
          next: (ids) => {
            if (started === 0) {
              started = performance.now();
              writer.write(['bills'], (tx) => tx.put('bills', bill)).catch(reject);
            } else if (ids[0] === bill.id) {
              subscription.unsubscribe();
              resolve(performance.now() - started);
            }
          },
          error: reject,
        });
      }),
    );
  }
  writer.close();
  live.close();
  await Dexie.delete(name);
  return {
    name: "today's store (Dexie)",
    importMs,
    openMs: median(opens),
    firstCardMs,
    search: null,
    liveMs: median(liveTimes),
    note: `putMany in chunks of ${count(CHUNK)} through core's LocalStore; ${rows.length} records`,
    recentIds,
  };
}

// ---------------------------------------------------------------------------------------------
// (a) Packed pages.

/** One bill in the lean index: its id, its page, and its deck keys split. */
type LeanEntry = [id: string, page: number, keys: [list: string, day: string][]];

interface PageRecord {
  n: number;
  bills: StoredBill[];
}
interface IndexRecord {
  n: number;
  entries: LeanEntry[];
}

function leanEntry(bill: StoredBill, page: number): LeanEntry {
  return [
    bill.id,
    page,
    billDeckOrderKeys(bill).map((key) => {
      const [list, day] = splitDeckKey(key);
      return [list, day];
    }),
  ];
}

/** A sorted key of the packed store's memory index: list, NUL, day, NUL, id (as IndexedDB sorts). */
const memoryKey = (list: string, day: string, id: string) => `${list}\u0000${day}\u0000${id}`;

/** The packed store, open: its lean index in memory, its pages read on demand. */
class PackedStore {
  readonly pageOf = new Map<string, number>();
  keys: string[] = [];
  private readonly listeners = new Set<() => void>();
  private lastPage = 0;
  private lastPageSize = 0;
  /** Page records read so far, and the bills in them. */
  pagesRead = 0;
  billsRead = 0;

  constructor(
    readonly db: Dexie,
    private readonly pageSize: number,
  ) {}

  static schema(db: Dexie): Dexie {
    db.version(1).stores({ pages: 'n', leanIndex: 'n', decisions: 'billId, decision' });
    return db;
  }

  /** Reads every lean index record (one per page) and sorts the deck keys. */
  async load(): Promise<void> {
    const records = await this.db.table<IndexRecord, number>('leanIndex').toArray();
    const keys: string[] = [];
    for (const record of records) {
      for (const [id, page, lists] of record.entries) {
        this.pageOf.set(id, page);
        for (const [list, day] of lists) keys.push(memoryKey(list, day, id));
      }
      if (record.n >= this.lastPage) {
        this.lastPage = record.n;
        this.lastPageSize = record.entries.length;
      }
    }
    keys.sort();
    this.keys = keys;
  }

  /** The first key at or after `key`. */
  private seek(key: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.keys[middle] ?? '') < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  async bills(ids: readonly string[]): Promise<(StoredBill | undefined)[]> {
    const pages = [...new Set(ids.map((id) => this.pageOf.get(id) ?? -1).filter((n) => n >= 0))];
    const records = await this.db.table<PageRecord, number>('pages').bulkGet(pages);
    this.pagesRead += pages.length;
    for (const record of records) this.billsRead += record?.bills.length ?? 0;
    const byId = new Map<string, StoredBill>();
    for (const record of records) {
      for (const bill of record?.bills ?? []) if (ids.includes(bill.id)) byId.set(bill.id, bill);
    }
    return ids.map((id) => byId.get(id));
  }

  /** Up to `limit` (day, id) of a list after a place, in the recent order. */
  listPage(
    list: string,
    after: string | null,
    limit: number,
  ): { ids: string[]; last: string | null } {
    const start = `${list}\u0000`;
    let at = this.seek(after === null ? start : `${start}${after}\u0000`);
    const ids: string[] = [];
    let last: string | null = null;
    while (ids.length < limit && at < this.keys.length) {
      const key = this.keys[at++] ?? '';
      if (!key.startsWith(start)) break;
      last = key.slice(start.length);
      ids.push(last.slice(last.indexOf('\u0000') + 1));
    }
    return { ids, last: ids.length < limit ? null : last };
  }

  /** The leapfrog join of several lists, as the app's IndexedDB cursors do it. */
  shared(
    lists: readonly string[],
    after: string | null,
    limit: number,
    skip: ReadonlySet<string>,
  ): { ids: string[]; last: string | null } {
    const ids: string[] = [];
    let target = after === null ? '' : `${after}\u0000`;
    for (;;) {
      let agreeing = 0;
      for (let list = 0; agreeing < lists.length; list = (list + 1) % lists.length) {
        const start = `${lists[list] ?? ''}\u0000`;
        const key = this.keys[this.seek(`${start}${target}`)] ?? '';
        if (!key.startsWith(start)) return { ids, last: null };
        const place = key.slice(start.length);
        if (place === target) agreeing++;
        else {
          target = place;
          agreeing = 1;
        }
      }
      const id = target.slice(target.indexOf('\u0000') + 1);
      if (!skip.has(id)) ids.push(id);
      if (ids.length >= limit) return { ids, last: target };
      target = `${target}\u0000`;
    }
  }

  /** Writes a bill into the last page (or a new one) with its index entry, then tells readers. */
  async put(bill: StoredBill): Promise<void> {
    const full = this.lastPageSize >= this.pageSize;
    const n = full ? this.lastPage + 1 : this.lastPage;
    await this.db.transaction('rw', ['pages', 'leanIndex'], async (tx) => {
      const page = (await tx.table<PageRecord, number>('pages').get(n)) ?? { n, bills: [] };
      const index = (await tx.table<IndexRecord, number>('leanIndex').get(n)) ?? {
        n,
        entries: [],
      };
      page.bills.push(bill);
      index.entries.push(leanEntry(bill, n));
      await tx.table('pages').put(page);
      await tx.table('leanIndex').put(index);
    });
    this.lastPage = n;
    this.lastPageSize = full ? 1 : this.lastPageSize + 1;
    this.pageOf.set(bill.id, n);
    for (const key of billDeckOrderKeys(bill)) {
      const [list, day, id] = splitDeckKey(key);
      const entry = memoryKey(list, day, id);
      this.keys.splice(this.seek(entry), 0, entry);
    }
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deckSource(): DeckSource {
    const idsOf = (criterion: IndexedCriterion | null): string[] => {
      const list: DeckOrderList = criterion ?? { index: 'all' };
      return this.listPage(listName(list), null, Number.MAX_SAFE_INTEGER).ids.sort();
    };
    const recent: RecentOrderSource = {
      ready: () => Promise.resolve(true),
      page: (list, after, limit) => Promise.resolve(this.listPage(listName(list), after, limit)),
      shared: (lists, after, limit, skip) =>
        Promise.resolve(this.shared(lists.map(listName), after, limit, skip)),
    };
    return {
      billIds: (criterion) => Promise.resolve(idsOf(criterion)),
      billIdPage: (criterion, atLeast, limit) =>
        Promise.resolve(
          idsOf(criterion)
            .filter((id) => atLeast === null || id >= atLeast)
            .slice(0, limit),
        ),
      bills: (ids) => this.bills(ids),
      decidedIds: async () =>
        (await this.db.table('decisions').toCollection().primaryKeys()) as string[],
      decisions: async () => await this.db.table<Decision, string>('decisions').toArray(),
      datasetCount: () => Promise.resolve(1),
      recent,
    };
  }
}

async function packedPages(
  rows: readonly StoredBill[],
  pageSize: number,
  deck: DeckCase,
  recentIds: readonly string[],
): Promise<EngineFigures> {
  const name = `docket-bench-engines-packed-${pageSize}-${Date.now()}`;
  await Dexie.delete(name);
  const db = PackedStore.schema(new Dexie(name));
  await db.open();
  collectGarbage();
  await settle();
  const started = performance.now();
  // The import's chunks, each one transaction of whole pages and their index records. The
  // rows are stored without their derived deck keys: the lean index holds them.
  for (let from = 0; from < rows.length; from += CHUNK) {
    const pages: PageRecord[] = [];
    const index: IndexRecord[] = [];
    const end = Math.min(rows.length, from + CHUNK);
    for (let start = from; start < end; start += pageSize) {
      const n = start / pageSize;
      const bills = rows.slice(start, Math.min(end, start + pageSize));
      pages.push({ n, bills });
      index.push({ n, entries: bills.map((bill) => leanEntry(bill, n)) });
    }
    await db.transaction('rw', ['pages', 'leanIndex'], async (tx) => {
      await tx.table('pages').bulkPut(pages);
      await tx.table('leanIndex').bulkPut(index);
    });
  }
  const importMs = performance.now() - started;
  db.close();

  const opens: number[] = [];
  const open = async () => {
    const started = performance.now();
    const store = new PackedStore(PackedStore.schema(new Dexie(name)), pageSize);
    await store.db.open();
    await store.load();
    opens.push(performance.now() - started);
    return store;
  };
  const stores: PackedStore[] = [];
  const firstCardMs = await firstCard(async () => {
    const store = await open();
    stores.push(store);
    return store.deckSource();
  }, deck);
  for (const store of stores) store.db.close();
  const pagesPerCard = median(stores.map((store) => store.pagesRead));
  const billsPerCard = median(stores.map((store) => store.billsRead));

  const store = await open();
  expect(store.pageOf.size).toBe(rows.length);
  const recentList = async () =>
    (await store.bills(store.listPage('a', null, LIST_SIZE).ids)).map((bill) => bill?.id);
  expect(await recentList()).toEqual(recentIds);
  const liveTimes: number[] = [];
  for (let run = 0; run < LIVE_RUNS; run++) {
    const bill = newestBill(template(rows, run), run);
    await settle();
    liveTimes.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const stop = store.subscribe(() => {
          recentList()
            .then((ids) => {
              if (ids[0] !== bill.id) return;
              stop();
              resolve(performance.now() - started);
            })
            .catch(reject);
        });
        store.put(bill).catch(reject);
      }),
    );
  }
  store.db.close();
  await Dexie.delete(name);
  return {
    name: `(a) packed pages of ${pageSize}`,
    importMs,
    openMs: median(opens),
    firstCardMs,
    search: null,
    liveMs: median(liveTimes),
    note: `${count(Math.ceil(rows.length / pageSize) * 2)} records; open reads the lean index into memory; the first cards read ${count(pagesPerCard)} pages (${count(billsPerCard)} bills) for ${DECK_PAGE_SIZE} cards, with no cache of pages`,
  };
}

// ---------------------------------------------------------------------------------------------
// (b) SQLite on OPFS, in a worker.

class SqliteClient {
  private next = 1;
  private readonly waiting = new Map<number, (answer: SqliteAnswer) => void>();
  private readonly listeners = new Set<() => void>();
  readonly worker: Worker;

  constructor() {
    this.worker = new Worker(new URL('./storage-engines-sqlite-worker.ts', import.meta.url), {
      type: 'module',
    });
    this.worker.onmessage = (event: MessageEvent<SqliteAnswer | SqliteChanged>) => {
      const data = event.data;
      if ('changed' in data) {
        for (const listener of this.listeners) listener();
        return;
      }
      this.waiting.get(data.id)?.(data);
      this.waiting.delete(data.id);
    };
  }

  /** The answer and the worker's own time on it. */
  async timedCall(call: SqliteCall): Promise<{ value: unknown; ms: number }> {
    const id = this.next++;
    const answer = await new Promise<SqliteAnswer>((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, call });
    });
    if (!answer.ok) throw new Error(`SQLite ${call.op}: ${answer.error}`);
    return { value: answer.value, ms: answer.ms };
  }

  async call<T>(call: SqliteCall): Promise<T> {
    return (await this.timedCall(call)).value as T;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async bills(ids: readonly string[]): Promise<(StoredBill | undefined)[]> {
    const json = await this.call<(string | null)[]>({ op: 'bills', ids: [...ids] });
    return json.map((text) => (text === null ? undefined : (JSON.parse(text) as StoredBill)));
  }

  deckSource(): DeckSource {
    const place = (last: [string, string] | null) =>
      last === null ? null : `${last[0]}\u0000${last[1]}`;
    const split = (after: string | null): [string | null, string | null] => {
      if (after === null) return [null, null];
      const cut = after.indexOf('\u0000');
      return [after.slice(0, cut), after.slice(cut + 1)];
    };
    const column = (criterion: IndexedCriterion | null) => {
      if (criterion === null) return { column: null, value: null };
      if (criterion.index === 'jurisdiction' || criterion.index === 'status') {
        return { column: criterion.index, value: criterion.value };
      }
      throw new Error(`the benchmark's SQLite deck has no ${criterion.index} list by id`);
    };
    const recent: RecentOrderSource = {
      ready: () => Promise.resolve(true),
      page: async (list, after, limit) => {
        const [afterDay, afterId] = split(after);
        const rows = await this.call<[string, string][]>({
          op: 'page',
          list: listName(list),
          afterDay,
          afterId,
          limit,
        });
        return {
          ids: rows.map(([, id]) => id),
          last: rows.length < limit ? null : place(rows.at(-1) ?? null),
        };
      },
      shared: async (lists, after, limit, skip) => {
        const [afterDay, afterId] = split(after);
        const found = await this.call<{ ids: string[]; last: [string, string] | null }>({
          op: 'shared',
          lists: lists.map(listName),
          afterDay,
          afterId,
          limit,
          skip: [...skip],
        });
        return { ids: found.ids, last: place(found.last) };
      },
    };
    return {
      billIds: async (criterion) =>
        await this.call<string[]>({ op: 'idPage', ...column(criterion), atLeast: null, limit: -1 }),
      billIdPage: async (criterion, atLeast, limit) =>
        await this.call<string[]>({ op: 'idPage', ...column(criterion), atLeast, limit }),
      bills: (ids) => this.bills(ids),
      decidedIds: () => Promise.resolve([]),
      decisions: () => Promise.resolve([]),
      datasetCount: () => Promise.resolve(1),
      recent,
    };
  }
}

/** What the SQLite side is given per bill: computed on the page, inside the timed import. */
function sqliteRow(bill: StoredBill): SqliteBillRow {
  const plain = withoutDerivedFields(bill);
  return {
    id: bill.id,
    jurisdiction: bill.jurisdiction,
    status: bill.status,
    json: JSON.stringify(plain),
    deck: billDeckOrderKeys(bill).map((key) => {
      const [list, day] = splitDeckKey(key);
      return [list, day];
    }),
    words: [
      bill.identifier,
      bill.title,
      [
        bill.summary ?? '',
        ...bill.subjects,
        ...bill.sponsors.map((sponsor) => sponsor.name),
        ...bill.actions.map((action) => action.text),
      ].join('\n'),
    ],
  };
}

async function sqliteOnOpfs(
  rows: readonly StoredBill[],
  deck: DeckCase,
  recentIds: readonly string[],
  asked: readonly string[],
  tuned: boolean,
  journalInMemory = false,
): Promise<
  EngineFigures & {
    initMs: number;
    fileBytes: number;
    searchWorker: { p50: number; p95: number };
    found: number;
  }
> {
  let started = performance.now();
  const client = new SqliteClient();
  const name = `bench-${Date.now()}`;
  await client.call({ op: 'open', name, tuned, journalInMemory });
  const initMs = performance.now() - started;
  collectGarbage();
  await settle();
  started = performance.now();
  let insertMs = 0;
  let rowMs = 0;
  for (let from = 0; from < rows.length; from += CHUNK) {
    const made = performance.now();
    const chunk = rows.slice(from, from + CHUNK).map(sqliteRow);
    rowMs += performance.now() - made;
    insertMs += (await client.timedCall({ op: 'insert', rows: chunk })).ms;
  }
  const importMs = performance.now() - started;
  const parts = await client.call<Record<string, number>>({ op: 'writeParts' });
  expect(await client.call<number>({ op: 'count' })).toBe(rows.length);
  const fileBytes = await client.call<number>({ op: 'fileBytes' });

  const opens: number[] = [];
  const firstCardMs = await firstCard(async () => {
    await client.call({ op: 'close' });
    const opened = performance.now();
    await client.call({ op: 'open', name, tuned, journalInMemory });
    opens.push(performance.now() - opened);
    return client.deckSource();
  }, deck);

  const worker: number[] = [];
  const roundTrip: number[] = [];
  let found = 0;
  for (const query of asked) {
    const sent = performance.now();
    const answer = await client.timedCall({ op: 'search', query });
    roundTrip.push(performance.now() - sent);
    worker.push(answer.ms);
    found += answer.value as number;
  }

  const recentList = async () =>
    (await client.call<string[]>({ op: 'recentBills', limit: LIST_SIZE })).map(
      (text) => (JSON.parse(text) as StoredBill).id,
    );
  expect(await recentList()).toEqual(recentIds);
  const liveTimes: number[] = [];
  for (let run = 0; run < LIVE_RUNS; run++) {
    const bill = newestBill(template(rows, run), run);
    await settle();
    liveTimes.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const stop = client.subscribe(() => {
          recentList()
            .then((ids) => {
              if (ids[0] !== bill.id) return;
              stop();
              resolve(performance.now() - started);
            })
            .catch(reject);
        });
        client.call({ op: 'put', row: sqliteRow(bill) }).catch(reject);
      }),
    );
  }
  await client.call({ op: 'drop' });
  client.worker.terminate();
  const searchRound = stats(roundTrip);
  return {
    name: `(b) SQLite wasm, OPFS${tuned ? ', tuned' : ''}${journalInMemory ? ', journal in memory (unsafe)' : ''}`,
    importMs,
    openMs: median(opens),
    firstCardMs,
    search: { ...searchRound, note: 'FTS5, round trip to the worker' },
    searchWorker: stats(worker),
    found,
    liveMs: median(liveTimes),
    initMs,
    fileBytes,
    note: `one transaction per chunk; of the import, ${(rowMs / 1000).toFixed(2)} s making the rows (JSON text, deck keys, words) on the page, ${(insertMs / 1000).toFixed(2)} s inside the worker (${Object.entries(
      parts,
    )
      .map(([part, ms]) => `${part} ${(ms / 1000).toFixed(2)} s`)
      .join(', ')}), the rest the message hop`,
  };
}

// ---------------------------------------------------------------------------------------------

it(
  'compares today’s Dexie store with packed pages and SQLite on OPFS on the same bills',
  { timeout: 30 * 60_000 },
  async () => {
    const input = inject('importBench');
    const zip = new Uint8Array(await (await fetch(input.url)).arrayBuffer());
    expect(zip.length).toBe(input.zipBytes);
    const inflateLines = await inflateComparison(zip);
    const { rows, ms: rowsMs } = importRows(zip);
    expect(rows).toHaveLength(input.bills);

    // The deck's filter: the bills' most common jurisdiction and a status a few % of them have.
    const tally = (values: string[]) => {
      const counts = new Map<string, number>();
      for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
      return [...counts.entries()].sort(([, a], [, b]) => b - a);
    };
    const jurisdiction = tally(rows.map((bill) => bill.jurisdiction))[0]?.[0] ?? 'us';
    const statuses = tally(rows.map((bill) => bill.status));
    const status = (statuses.find(([, n]) => n < rows.length * 0.2) ?? statuses.at(-1))?.[0];
    expect(status).toBeDefined();
    const filter: Partial<DeckFilter> = { jurisdiction, status: status as DeckFilter['status'] };
    const statusShare =
      (100 * (statuses.find(([value]) => value === status)?.[1] ?? 0)) / rows.length;
    // The expected cards: the first of the filter in the recent order, worked out in memory.
    const expected = rows
      .filter((bill) => bill.jurisdiction === jurisdiction && bill.status === status)
      .map((bill) => billDeckOrderKeys(bill)[0] ?? '')
      .sort()
      .slice(0, DECK_PAGE_SIZE)
      .map((key) => splitDeckKey(key)[2]);
    const deck: DeckCase = { filter, expected };

    // Today's search index, built from the rows as the search worker builds it at every start.
    const asked = queries(rows, QUERIES);
    collectGarbage();
    let started = performance.now();
    const index = new BillSearchIndex();
    const catalog = new BillCatalog(index);
    for (const bill of rows) catalog.put(bill, bill.changeHash);
    const indexBuildMs = performance.now() - started;
    const searchTimes: number[] = [];
    let found = 0;
    for (const query of asked) {
      started = performance.now();
      found += index.search(query)?.length ?? 0;
      searchTimes.push(performance.now() - started);
    }
    const todaySearch = stats(searchTimes);

    const today = await todaysStore(rows, deck);
    const packed: EngineFigures[] = [];
    for (const pageSize of PAGE_SIZES)
      packed.push(await packedPages(rows, pageSize, deck, today.recentIds));
    const sqlite = await sqliteOnOpfs(rows, deck, today.recentIds, asked, false);
    const tuned = await sqliteOnOpfs(rows, deck, today.recentIds, asked, true);
    const bound = await sqliteOnOpfs(rows, deck, today.recentIds, asked, true, true);

    const engines: EngineFigures[] = [
      { ...today, search: { ...todaySearch, note: "today's in-memory index, in the page" } },
      ...packed.map((engine) => ({ ...engine, search: { ...todaySearch, note: "today's index" } })),
      sqlite,
      tuned,
      bound,
    ];
    const per = (value: number) => count((rows.length / value) * 1000);
    const fixed = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
    const times = (ours: number, theirs: number) => `${(theirs / ours).toFixed(2)}×`;
    const pad = (text: string, width: number) => text.padStart(width);
    const lines = [
      '',
      `Storage engines, ${new Date().toISOString().slice(0, 16)}Z, ${navigator.userAgent.match(/(Headless)?Chrom(e|ium)\/[\d.]+/)?.[0] ?? navigator.userAgent}, ${navigator.hardwareConcurrency} cores`,
      ...(input.notice === null ? [] : [`NOTE: ${input.notice}`]),
      `machine: ${input.busyBefore === null ? 'load unknown' : `${Math.round(input.busyBefore * 100)}% of the cores busy just before the run`} (the run's own share and others' are printed at its end)`,
      `input: ${count(rows.length)} bills from the import benchmark's ZIP (${input.templateSource}); made into the rows an import stores (unzip, parse, draft, normalize) in ${(rowsMs / 1000).toFixed(1)} s = ${per(rowsMs)} bills/s, not counted below`,
      `deck filter: jurisdiction ${jurisdiction} and status ${status} (${statusShare.toFixed(1)}% of the bills), most recent activity first; first ${DECK_PAGE_SIZE} cards, median of ${RUNS}`,
      `search: ${QUERIES} queries (words, word pairs, 4-letter prefixes, "hr N"), p50/p95; live list: the ${LIST_SIZE} most recent bills, time from a write of one bill that heads it until the list shows it, median of ${LIVE_RUNS}`,
      '',
      `${'engine'.padEnd(56)} ${pad('import', 9)} ${pad('bills/s', 8)} ${pad('×', 6)} ${pad('open', 8)} ${pad('1st card', 9)} ${pad('×', 6)} ${pad('search p50', 11)} ${pad('p95', 7)} ${pad('×p95', 6)} ${pad('live', 8)} ${pad('×', 6)}`,
    ];
    for (const engine of engines) {
      const search = engine.search ?? todaySearch;
      lines.push(
        `${engine.name.padEnd(56)} ${pad(`${(engine.importMs / 1000).toFixed(2)} s`, 9)} ${pad(per(engine.importMs), 8)} ${pad(times(engine.importMs, today.importMs), 6)} ${pad(`${fixed(engine.openMs)} ms`, 8)} ${pad(`${fixed(engine.firstCardMs)} ms`, 9)} ${pad(times(engine.firstCardMs, today.firstCardMs), 6)} ${pad(`${fixed(search.p50)} ms`, 11)} ${pad(fixed(search.p95), 7)} ${pad(times(search.p95, todaySearch.p95), 6)} ${pad(`${fixed(engine.liveMs)} ms`, 8)} ${pad(times(engine.liveMs, today.liveMs), 6)}`,
      );
    }
    lines.push(
      "(× = how many times faster than today's store; below 1 is slower)",
      '',
      ...engines.map((engine) => `  ${engine.name}: ${engine.note}`),
      `  today's search index: built from the rows in ${(indexBuildMs / 1000).toFixed(1)} s, in memory, at every start of the search worker; ${count(found)} matches in all`,
      ...[sqlite, tuned, bound].map(
        (sqlite) =>
          `  ${sqlite.name}: worker, wasm and VFS started and the database opened in ${fixed(sqlite.initMs)} ms; file ${(sqlite.fileBytes / 1024 / 1024).toFixed(0)} MB with FTS5; FTS5 inside the worker p50 ${fixed(sqlite.searchWorker.p50)} ms, p95 ${fixed(sqlite.searchWorker.p95)} ms, ${count(sqlite.found)} matches in all (tokenised words, no stemming; today's index differs)`,
      ),
      `  open: today's and packed: a fresh IndexedDB connection (packed also reads its lean index); SQLite: closing and opening the database file in the running worker`,
      '',
      ...inflateLines,
      '',
    );
    console.log(lines.join('\n'));
  },
);
