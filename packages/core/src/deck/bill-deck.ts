import type { BillStatus } from '../bills/bill-vocabulary.ts';
import { latestAction } from '../bills/bill-dates.ts';
import { sponsorName } from '../bills/bill-naming.ts';
import type { CompiledDeckFilter, IndexedCriterion } from './bill-deck-filter.ts';
import type { Decision, StoredBill } from '../store/local-records.ts';
import {
  billDeckOrderKeys,
  deckOrderListPrefix,
  type DeckOrderList,
  recentOrderPlace,
} from '../store/deck-order-keys.ts';
import type { LocalReadTransaction } from '../store/local-store.ts';

// The swipeable deck: the untriaged bills of a filter, dealt a few at a time. A device may hold
// 50,000 bills of 10 KB and more each, so the deck never reads them all to show a card: it walks
// the candidates' ids in the store's indexes (keys only, cheap), drops the decided ones (a
// user's decisions are few next to the bills) and reads only the bills it may deal. Several
// indexed criteria (status and jurisdiction, say) are joined on the ids by seeking: each list
// jumps to the id the others reached, so bills of the first jurisdictions in id order are never
// read to be thrown away. Only a filter on what no index holds (subject, chamber, words) has to
// read bills it then throws away.

/**
 * The deck's recent order (deck-order-keys.ts): lists of bills in the order of their latest
 * activity, most recent first, each a range of one index of keys the store derives.
 */
export interface RecentOrderSource {
  /** Whether every stored bill is in the recent order yet (a device that had bills before the
   *  order existed fills it in the background; until then the deck deals in id order). */
  ready(): Promise<boolean>;
  /**
   * Up to `limit` ids of one list in the recent order, after the place `after` (null: from the
   * first), and the place of the last of them to go on from; null once the list has ended.
   */
  page(
    list: DeckOrderList,
    after: string | null,
    limit: number,
  ): Promise<{ ids: string[]; last: string | null }>;
  /**
   * Up to `limit` ids that every one of `lists` holds and `skip` does not, in the recent order,
   * after the place `after`, and the place to go on from (null once a list has ended). The app
   * joins the lists by seeking each to the place the others reached, as the id order does, so
   * a filter's first cards cost no count and no read of a whole list.
   */
  shared(
    lists: readonly DeckOrderList[],
    after: string | null,
    limit: number,
    skip: ReadonlySet<string>,
  ): Promise<{ ids: string[]; last: string | null }>;
}

/** What the deck reads. The app answers from IndexedDB indexes; tests from arrays or a store. */
export interface DeckSource {
  /** The ids of every bill, or of those an index lists under a value; in id order. */
  billIds(criterion: IndexedCriterion | null): Promise<string[]>;
  /**
   * Up to `limit` of those ids, in id order, from `atLeast` on (null: from the first). The app
   * answers with a key range, so the store seeks; a source that cannot seek reads up to it.
   */
  billIdPage(
    criterion: IndexedCriterion | null,
    atLeast: string | null,
    limit: number,
  ): Promise<string[]>;
  /** The bills of these ids, in the same order; undefined for an id with no bill. */
  bills(ids: readonly string[]): Promise<(StoredBill | undefined)[]>;
  /**
   * The ids of the bills a decision takes out of the deck (every decided bill, less the ones put
   * off for later when those come back), in any order. Keys only: no decision row is read.
   */
  decidedIds(includeLater: boolean): Promise<string[]>;
  /** Every decision row. */
  decisions(): Promise<Decision[]>;
  /** How many datasets the user has. */
  datasetCount(): Promise<number>;
  /** The recent order; without it, or until it is ready, the deck deals in id order. */
  recent?: RecentOrderSource;
}

/** Why a deck has no card, which decides what the screen suggests. */
export type DeckEmptyReason =
  | { kind: 'no-datasets' }
  /** Datasets exist but hold no bills yet (an import is queued, running or failed). */
  | { kind: 'no-bills' }
  /** Bills exist, but the filter matches none of them, decided or not. */
  | { kind: 'nothing-matches' }
  /** Every bill the filter matches is decided; `later` of them were put off for later. */
  | { kind: 'all-triaged'; later: number };

export interface DeckPage {
  /** The next bills of the deck, at most the limit asked for. */
  cards: StoredBill[];
  /** Null while there are cards. */
  empty: DeckEmptyReason | null;
}

/** Bills read per batch while scanning: small enough that one read never stalls the page. */
export const DECK_SCAN_BATCH = 100;
/**
 * A scan's first batch: a filter that needs the bills usually finds its few cards in the first
 * dozens (a bill read costs about twenty times an id), so the batches start here and double.
 */
const FIRST_SCAN_BATCH = 16;

/** The bills a decision takes out of the deck. */
export function decidedIds(
  decisions: readonly Decision[],
  includeLater: boolean,
): ReadonlySet<string> {
  return new Set(
    decisions.filter((row) => !(includeLater && row.decision === 'later')).map((row) => row.billId),
  );
}

/** Key pages start small (the next id is usually near) and grow while a walk goes on. */
const FIRST_ID_PAGE = 64;
const LARGEST_ID_PAGE = 4_096;
/** A lone list's first page may hold every decided id and the cards after them, up to this. */
const LARGEST_FIRST_PAGE = 16_384;

/** The smallest id after `id` (no string sorts between them): a page from it leaves `id` out. */
function after(id: string): string {
  return `${id}\u0000`;
}

/** One list of ids (every bill's, or an index's under a value), read a page at a time. */
class IdList {
  private page: readonly string[] = [];
  private at = 0;
  /** The last page read ended the list. */
  private ended = false;

  constructor(
    private readonly source: DeckSource,
    private readonly criterion: IndexedCriterion | null,
    private pageSize: number,
  ) {}

  /** The list's first id from `atLeast` on (null: its first), or undefined past its end. */
  async seek(atLeast: string | null): Promise<string | undefined> {
    for (;;) {
      if (atLeast !== null) {
        while (this.at < this.page.length && (this.page[this.at] ?? '') < atLeast) this.at++;
      }
      const id = this.page[this.at];
      if (id !== undefined) return id;
      if (this.ended) return undefined;
      // Past the page: the next starts at the id sought, or right after the page, whichever is
      // further. Each page starts after the last, so an id never comes twice, even when an
      // import commits between two pages.
      const last = this.page[this.page.length - 1];
      const from =
        last === undefined ? atLeast : atLeast !== null && atLeast > last ? atLeast : after(last);
      const page = await this.source.billIdPage(this.criterion, from, this.pageSize);
      this.ended = page.length < this.pageSize;
      this.page = page;
      this.at = 0;
      this.pageSize = Math.min(this.pageSize * 2, LARGEST_ID_PAGE);
    }
  }
}

/**
 * The first id from `atLeast` on that every list holds: each list in turn seeks to the id the
 * others reached, until all agree (a leapfrog join), so stretches only one list holds are
 * skipped with a key range, never read.
 */
async function nextShared(
  lists: readonly IdList[],
  atLeast: string | null,
): Promise<string | undefined> {
  let candidate = atLeast;
  let agreeing = 0;
  for (let turn = 0; ; turn = (turn + 1) % lists.length) {
    const list = lists[turn];
    if (list === undefined) return undefined;
    const id = await list.seek(candidate);
    if (id === undefined) return undefined;
    if (id === candidate) agreeing++;
    else {
      candidate = id;
      agreeing = 1;
    }
    if (agreeing === lists.length) return candidate;
  }
}

function idLists(source: DeckSource, compiled: CompiledDeckFilter, firstPage: number): IdList[] {
  const criteria = compiled.indexed.length === 0 ? [null] : compiled.indexed;
  return criteria.map((criterion) => new IdList(source, criterion, firstPage));
}

/**
 * Reads ids' bills in batches, in order, and keeps those the filter matches, stopping once
 * `limit` are found. The filter is applied even to indexed fields: an index read and a bill read
 * are not one snapshot everywhere, and a bill that changed between them must not slip through.
 */
async function scanMatching(
  source: DeckSource,
  compiled: CompiledDeckFilter,
  ids: readonly string[],
  limit: number,
): Promise<StoredBill[]> {
  const found: StoredBill[] = [];
  let start = 0;
  let batchSize = FIRST_SCAN_BATCH;
  while (start < ids.length && found.length < limit) {
    // Without a filter that needs the bills, every bill read is a card: read no more than needed.
    const size = compiled.needsBills ? batchSize : Math.min(DECK_SCAN_BATCH, limit - found.length);
    batchSize = Math.min(batchSize * 2, DECK_SCAN_BATCH);
    const batch = await source.bills(ids.slice(start, start + size));
    start += size;
    for (const bill of batch) {
      if (bill !== undefined && compiled.matches(bill)) found.push(bill);
      if (found.length >= limit) break;
    }
  }
  return found;
}

async function emptyReason(
  source: DeckSource,
  compiled: CompiledDeckFilter,
  decided: ReadonlySet<string>,
): Promise<DeckEmptyReason> {
  if ((await source.datasetCount()) === 0) return { kind: 'no-datasets' };
  const anyBill = (await source.billIdPage(null, null, 1)).length > 0;
  if (!anyBill) return { kind: 'no-bills' };
  // Only reached with an empty deck: the decided bills are read to learn whether the filter
  // matches any of them.
  const rows = (await source.decisions()).filter((row) => decided.has(row.billId));
  const matched = new Set(
    (
      await scanMatching(
        source,
        { ...compiled, needsBills: true },
        rows.map((row) => row.billId),
        Number.POSITIVE_INFINITY,
      )
    ).map((bill) => bill.id),
  );
  const matching = rows.filter((row) => matched.has(row.billId));
  if (matching.length === 0) return { kind: 'nothing-matches' };
  return {
    kind: 'all-triaged',
    later: matching.filter((row) => row.decision === 'later').length,
  };
}

function orderList(criterion: IndexedCriterion | null): DeckOrderList {
  return criterion === null ? { index: 'all' } : criterion;
}

/**
 * Bills a join reads walking one list before it seeks instead: reading a page of ids and their
 * bills is quick where the criteria often agree (a dataset and a status), a seek per list where
 * they seldom do (a rare status in a large dataset); a cursor's step costs a few hundred µs where
 * a page of ids costs tens of µs an id.
 */
const JOIN_READS = 100;

/** Which list a join walks first: the one likely narrowest (a session lies in a jurisdiction). */
const walkFirst: readonly DeckOrderList['index'][] = [
  'idPrefix',
  'datasetIds',
  'jurisdiction',
  'status',
  'all',
];

/**
 * The deck in the recent order. One list (no filter, or one indexed criterion) is read a page of
 * ids at a time. Several are joined: first by walking the likely narrowest a page at a time and
 * reading the undecided bills (the whole filter is checked on each), and past `JOIN_READS` bills
 * by the source (`shared`), which seeks each list to the place the others reached. Either way a
 * filter's first cards cost no count and no read of a whole list, however old the matching bills
 * are.
 */
async function readRecentDeckPage(
  source: DeckSource,
  recent: RecentOrderSource,
  compiled: CompiledDeckFilter,
  decidedSoon: Promise<ReadonlySet<string>>,
  limit: number,
): Promise<StoredBill[]> {
  // The lists hold no decided bill (deck-order-keys.ts): a bill put off for later is only in the
  // lists "Include later" walks. The decided ids still pass through `decided`, for a bill
  // decided between two reads; they are read beside the first page, not before it.
  let decided: ReadonlySet<string> = new Set();
  const withLater = compiled.filter.includeLater;
  const lists: DeckOrderList[] =
    compiled.indexed.length === 0
      ? [{ index: 'all', withLater }]
      : compiled.indexed.map((criterion) => ({ ...orderList(criterion), withLater }));
  const [walked = { index: 'all' }] = [...lists].sort(
    (a, b) => walkFirst.indexOf(a.index) - walkFirst.indexOf(b.index),
  );
  const joined = lists.length > 1;
  const checked = joined ? { ...compiled, needsBills: true } : compiled;
  const cards: StoredBill[] = [];
  const seen = new Set<string>();
  let read = 0;
  let after: string | null = null;
  // Pages start small and grow: each id read costs tens of µs.
  let pageSize = FIRST_ID_PAGE;
  let nextPageSize = FIRST_ID_PAGE * 4;
  // A bill whose activity changed between two pages may come twice: it is dealt once. Only the
  // ids scanned are marked, so a join that stops reading mid-page seeks on through the rest.
  const undecided = (ids: readonly string[]) =>
    ids.filter((id) => !decided.has(id) && !seen.has(id));
  const scan = async (ids: readonly string[], filter: CompiledDeckFilter) => {
    for (const id of ids) seen.add(id);
    cards.push(...(await scanMatching(source, filter, ids, limit - cards.length)));
  };
  // Walking one list, a page of ids at a time.
  while (!joined || read < JOIN_READS) {
    const [page, decidedIds]: [{ ids: string[]; last: string | null }, ReadonlySet<string>] =
      await Promise.all([recent.page(walked, after, pageSize), decidedSoon]);
    decided = decidedIds;
    const ids = undecided(page.ids);
    const scanned = joined ? ids.slice(0, JOIN_READS - read) : ids;
    await scan(scanned, checked);
    if (cards.length >= limit) return cards;
    read += scanned.length;
    if (scanned.length < ids.length) {
      // Read up to here: the seeks go on from the last bill read.
      const [last] = await source.bills(scanned.slice(-1));
      after = last === undefined ? page.last : recentOrderPlace(last);
      break;
    }
    if (page.last === null) return cards;
    after = page.last;
    pageSize = nextPageSize;
    nextPageSize = Math.min(nextPageSize * 4, LARGEST_FIRST_PAGE);
  }
  // Joined by seeking.
  for (;;) {
    const wanted = compiled.needsBills ? DECK_SCAN_BATCH : limit - cards.length;
    const step = await recent.shared(lists, after, wanted, decided);
    await scan(undecided(step.ids), compiled);
    if (cards.length >= limit || step.last === null) return cards;
    after = step.last;
  }
}

/** The next `limit` cards of the deck, or why there are none. */
export async function readDeckPage(
  source: DeckSource,
  compiled: CompiledDeckFilter,
  limit: number,
): Promise<DeckPage> {
  const decidedSoon = source
    .decidedIds(compiled.filter.includeLater)
    .then((ids): ReadonlySet<string> => new Set(ids));
  // Awaited below on every path; this keeps a failure that ends the read earlier (the first
  // page's) from leaving it unobserved as well.
  decidedSoon.catch(() => undefined);
  const recent = compiled.filter.order === 'recent' ? source.recent : undefined;
  if (recent !== undefined && (await recent.ready())) {
    const cards = await readRecentDeckPage(source, recent, compiled, decidedSoon, limit);
    if (cards.length > 0) return { cards, empty: null };
    return { cards, empty: await emptyReason(source, compiled, await decidedSoon) };
  }
  const decided = await decidedSoon;
  // A lone list's first `limit` undecided ids are among its first `limit + decided` ids: one
  // page finds them, however long the run of decided bills before them. Joined lists jump, so
  // their pages start small.
  const firstPage =
    compiled.indexed.length <= 1
      ? Math.min(Math.max(limit + decided.size, FIRST_ID_PAGE), LARGEST_FIRST_PAGE)
      : FIRST_ID_PAGE;
  const lists = idLists(source, compiled, firstPage);
  const cards: StoredBill[] = [];
  let from: string | null = null;
  let ended = false;
  while (!ended && cards.length < limit) {
    // Without a filter that needs the bills, every undecided id is a card.
    const wanted = compiled.needsBills ? DECK_SCAN_BATCH : limit - cards.length;
    const ids: string[] = [];
    while (ids.length < wanted) {
      const id = await nextShared(lists, from);
      if (id === undefined) {
        ended = true;
        break;
      }
      from = after(id);
      if (!decided.has(id)) ids.push(id);
    }
    cards.push(...(await scanMatching(source, compiled, ids, limit - cards.length)));
  }
  if (cards.length > 0) return { cards, empty: null };
  return { cards, empty: await emptyReason(source, compiled, decided) };
}

/**
 * The ids of every bill the filter matches, decided or not, in id order. Reads bills only when
 * the filter needs them; the deck's count is these less the decided ones (deckCount), so a
 * decision does not make it read them again.
 */
export async function matchingBillIds(
  source: DeckSource,
  compiled: CompiledDeckFilter,
): Promise<string[]> {
  let candidates: string[];
  if (compiled.indexed.length <= 1) {
    // One list: read whole, in one go.
    candidates = await source.billIds(compiled.indexed[0] ?? null);
  } else {
    candidates = [];
    const lists = idLists(source, compiled, LARGEST_ID_PAGE / 16);
    for (let id = await nextShared(lists, null); id !== undefined;) {
      candidates.push(id);
      id = await nextShared(lists, after(id));
    }
  }
  if (!compiled.needsBills) return candidates;
  const bills = await scanMatching(source, compiled, candidates, Number.POSITIVE_INFINITY);
  return bills.map((bill) => bill.id);
}

/** How many cards the deck holds: the matching bills no decision takes out. */
export function deckCount(
  matchingIds: readonly string[],
  decisions: readonly Decision[],
  includeLater: boolean,
): number {
  const decided = decidedIds(decisions, includeLater);
  let count = 0;
  for (const id of matchingIds) if (!decided.has(id)) count++;
  return count;
}

/** A DeckSource over a store's read transaction: for tests and for code without Dexie. */
export function deckSourceOfTransaction(tx: LocalReadTransaction): DeckSource {
  const billIds = async (criterion: IndexedCriterion | null): Promise<string[]> => {
    if (criterion === null) return tx.keys('bills');
    if (criterion.index === 'idPrefix') {
      return (await tx.keys('bills')).filter((id) => id.startsWith(criterion.value));
    }
    const rows = await tx.where('bills', criterion.index, criterion.value);
    return rows.map((row) => row.id);
  };
  /** A list of the recent order: its places (each ending with the bill's id) and ids, sorted. */
  const recentList = async (list: DeckOrderList) => {
    const prefix = deckOrderListPrefix(list);
    const entries: { place: string; id: string }[] = [];
    for (const bill of await tx.all('bills')) {
      // The keys the store keeps (none for a tracked or dismissed bill), as the app's index.
      for (const key of bill.deckKeys ?? billDeckOrderKeys(bill)) {
        if (key.startsWith(prefix)) entries.push({ place: key.slice(prefix.length), id: bill.id });
      }
    }
    return entries.sort((a, b) => (a.place < b.place ? -1 : a.place > b.place ? 1 : 0));
  };
  return {
    billIds,
    // The store interface has no key ranges: a page is cut from the whole list.
    billIdPage: async (criterion, atLeast, limit) => {
      const ids = await billIds(criterion);
      const start = atLeast === null ? 0 : ids.findIndex((id) => id >= atLeast);
      return start < 0 ? [] : ids.slice(start, start + limit);
    },
    recent: {
      ready: () => Promise.resolve(true),
      page: async (list, after, limit) => {
        const entries = await recentList(list);
        const start = after === null ? 0 : entries.findIndex((entry) => entry.place > after);
        const taken = start < 0 ? [] : entries.slice(start, start + limit);
        const last = taken.length === limit ? (taken.at(-1)?.place ?? null) : null;
        return { ids: taken.map((entry) => entry.id), last };
      },
      // The store interface has no key ranges: the lists are read whole and intersected.
      shared: async (lists, after, limit, skip) => {
        const [first, ...others] = await Promise.all(lists.map(recentList));
        const held = others.map((entries) => new Set(entries.map((entry) => entry.id)));
        const ids: string[] = [];
        for (const entry of first ?? []) {
          if (after !== null && entry.place <= after) continue;
          if (skip.has(entry.id) || !held.every((set) => set.has(entry.id))) continue;
          ids.push(entry.id);
          if (ids.length === limit) return { ids, last: entry.place };
        }
        return { ids, last: null };
      },
    },
    bills: (ids) => tx.getMany('bills', ids),
    decidedIds: async (includeLater) => [...decidedIds(await tx.all('decisions'), includeLater)],
    decisions: () => tx.all('decisions'),
    datasetCount: () => tx.count('datasets'),
  };
}

/** What a deck card shows of a bill. */
export interface DeckCardFacts {
  id: string;
  identifier: string;
  title: string;
  status: BillStatus;
  statusDate: string | null;
  /** "Name (Party, seat)" of the primary sponsor, or of the first one when none is marked primary. */
  primarySponsor: string | null;
  subjects: readonly string[];
  latestAction: { date: string | null; text: string } | null;
}

export function deckCardFacts(bill: StoredBill): DeckCardFacts {
  const sponsor = bill.sponsors.find((item) => item.role === 'primary') ?? bill.sponsors[0];
  const latest = latestAction(bill.actions);
  return {
    id: bill.id,
    identifier: bill.identifier,
    title: bill.title,
    status: bill.status,
    statusDate: bill.statusDate,
    primarySponsor: sponsor === undefined ? null : sponsorName(sponsor),
    subjects: bill.subjects,
    latestAction: latest === null ? null : { date: latest.date, text: latest.text },
  };
}

/**
 * Whether the triage undo history (the `device:triage-undo` setting's value) has a step, read
 * from the raw value so a live query on that one row can enable "Undo". Only its being a
 * non-empty list matters here; undoLastDecision checks each step when it runs.
 */
export function undoHistoryHasSteps(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
