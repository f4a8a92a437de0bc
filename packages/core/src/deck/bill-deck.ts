import type { BillStatus } from '../bills/bill-vocabulary.ts';
import { type BillOrder, billIdOfOrderKey, billOrderKey } from '../bills/bill-sort-keys.ts';
import type { CompiledDeckFilter, IndexedCriterion } from './bill-deck-filter.ts';
import type { Decision, StoredBill } from '../store/local-records.ts';
import type { LocalReadTransaction } from '../store/local-store.ts';
import type { DecisionKind, UndoResult } from '../commands/triage-commands.ts';

// The swipeable deck: the untriaged bills of a filter, dealt a few at a time in the chosen order
// (most recent activity first, or by bill number). A device may hold 50,000 bills of 10 KB and
// more each, so the deck never reads them all to show a card: it walks the ids of the order's
// index (bills/bill-sort-keys.ts: one key per bill, so a page of ids in order is one keys-only
// read) and keeps those every indexed criterion holds (each criterion's ids read whole, keys only:
// a dataset, a jurisdiction, a session, a status) and no decision takes out; only those bills are
// read. Only a filter on what no index holds (subject, chamber, words) reads bills it then throws
// away.

/** A page of the order: ids in order, and the key of the last one, to go on after it. */
export interface OrderPage {
  ids: string[];
  /** The order key of the last id; null when the page ends the order. */
  last: string | null;
}

/** What the deck reads. The app answers from IndexedDB indexes; tests from arrays or a store. */
export interface DeckSource {
  /** The ids of every bill, or of those an index lists under a value; in no set order. */
  billIds(criterion: IndexedCriterion | null): Promise<string[]>;
  /**
   * Up to `limit` ids of every bill in the order, after the order key `after` (null: from the
   * first). The app answers from the order's index with a key range, keys only.
   */
  orderPage(order: BillOrder, after: string | null, limit: number): Promise<OrderPage>;
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

/** The bills a decision takes out of the deck. */
export function decidedIds(
  decisions: readonly Decision[],
  includeLater: boolean,
): ReadonlySet<string> {
  return new Set(
    decisions.filter((row) => !(includeLater && row.decision === 'later')).map((row) => row.billId),
  );
}

/** Order pages start small (a card is usually near) and grow while a walk goes on. */
const FIRST_ID_PAGE = 64;
const LARGEST_ID_PAGE = 4_096;
/** The first page may hold every decided id and the cards after them, up to this. */
const LARGEST_FIRST_PAGE = 16_384;

/** The order's ids, read a page at a time, each page starting after the last one's key. */
class OrderWalk {
  private page: readonly string[] = [];
  private at = 0;
  private after: string | null = null;
  private ended = false;

  constructor(
    private readonly source: DeckSource,
    private readonly order: BillOrder,
    private pageSize: number,
  ) {}

  /** The next id of the order, or undefined past its end. */
  async next(): Promise<string | undefined> {
    while (this.at >= this.page.length) {
      if (this.ended) return undefined;
      const page = await this.source.orderPage(this.order, this.after, this.pageSize);
      this.page = page.ids;
      this.at = 0;
      // Each page starts after the last, so an id never comes twice, even when an import
      // commits between two pages.
      this.after = page.last;
      this.ended = page.last === null || page.ids.length < this.pageSize;
      this.pageSize = Math.min(this.pageSize * 2, Math.max(this.pageSize, LARGEST_ID_PAGE));
    }
    return this.page[this.at++];
  }
}

/** The ids of each indexed criterion, read whole (keys only). */
function criterionSets(
  source: DeckSource,
  compiled: CompiledDeckFilter,
): Promise<ReadonlySet<string>[]> {
  return Promise.all(
    compiled.indexed.map(async (criterion) => new Set(await source.billIds(criterion))),
  );
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
  while (start < ids.length && found.length < limit) {
    // Without a filter that needs the bills, every bill read is a card: read no more than needed.
    const size = compiled.needsBills
      ? DECK_SCAN_BATCH
      : Math.min(DECK_SCAN_BATCH, limit - found.length);
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
  const anyBill = (await source.orderPage(compiled.order, null, 1)).ids.length > 0;
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

/** The next `limit` cards of the deck, or why there are none. */
export async function readDeckPage(
  source: DeckSource,
  compiled: CompiledDeckFilter,
  limit: number,
): Promise<DeckPage> {
  const decided = new Set(await source.decidedIds(compiled.filter.includeLater));
  const within = await criterionSets(source, compiled);
  // Unfiltered, the first `limit` undecided ids are among the order's first `limit + decided`:
  // one page finds them, however long the run of decided bills before them.
  const firstPage = Math.min(Math.max(limit + decided.size, FIRST_ID_PAGE), LARGEST_FIRST_PAGE);
  const walk = new OrderWalk(source, compiled.order, firstPage);
  const cards: StoredBill[] = [];
  let ended = false;
  while (!ended && cards.length < limit) {
    // Without a filter that needs the bills, every undecided id the criteria hold is a card.
    const wanted = compiled.needsBills ? DECK_SCAN_BATCH : limit - cards.length;
    const ids: string[] = [];
    while (ids.length < wanted) {
      const id = await walk.next();
      if (id === undefined) {
        ended = true;
        break;
      }
      if (!decided.has(id) && within.every((held) => held.has(id))) ids.push(id);
    }
    cards.push(...(await scanMatching(source, compiled, ids, limit - cards.length)));
  }
  if (cards.length > 0) return { cards, empty: null };
  return { cards, empty: await emptyReason(source, compiled, decided) };
}

/**
 * The ids of every bill the filter matches, decided or not, in no set order. Reads bills only
 * when the filter needs them; the deck's count is these less the decided ones (deckCount), so a
 * decision does not make it read them again.
 */
export async function matchingBillIds(
  source: DeckSource,
  compiled: CompiledDeckFilter,
): Promise<string[]> {
  // Each index's ids read whole (keys only), the shortest list kept where the others hold it.
  const lists = await Promise.all(
    compiled.indexed.length === 0
      ? [source.billIds(null)]
      : compiled.indexed.map((criterion) => source.billIds(criterion)),
  );
  lists.sort((a, b) => a.length - b.length);
  const [shortest = [], ...others] = lists;
  const sets = others.map((ids) => new Set(ids));
  const candidates =
    sets.length === 0 ? shortest : shortest.filter((id) => sets.every((ids) => ids.has(id)));
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
  const billsOf = async (criterion: IndexedCriterion | null): Promise<StoredBill[]> => {
    if (criterion === null) return tx.all('bills');
    if (criterion.index !== 'session') return tx.where('bills', criterion.index, criterion.value);
    const rows = await tx.where('bills', 'jurisdiction', criterion.jurisdiction);
    return rows.filter((row) => row.session === criterion.session);
  };
  return {
    billIds: async (criterion) =>
      criterion === null ? tx.keys('bills') : (await billsOf(criterion)).map((row) => row.id),
    // The store interface has no key ranges: a page is cut from the whole order, sorted here.
    orderPage: async (order, after, limit) => {
      const keys = (await tx.all('bills')).map((row) => billOrderKey(row, order)).sort();
      const start = after === null ? 0 : keys.findIndex((key) => key > after);
      const page = start < 0 ? [] : keys.slice(start, start + limit);
      const last = page.length < limit ? null : (page[page.length - 1] ?? null);
      return { ids: page.map(billIdOfOrderKey), last };
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
  /** "Name (Party)" of the primary sponsor, or of the first sponsor when none is marked primary. */
  primarySponsor: string | null;
  subjects: readonly string[];
  latestAction: { date: string | null; text: string } | null;
}

export function deckCardFacts(bill: StoredBill): DeckCardFacts {
  const sponsor = bill.sponsors.find((item) => item.role === 'primary') ?? bill.sponsors[0];
  // Actions are stored oldest first with undated ones last: the latest is the last dated one.
  const dated = bill.actions.filter((action) => action.date !== null);
  const latest = dated[dated.length - 1] ?? bill.actions[bill.actions.length - 1];
  return {
    id: bill.id,
    identifier: bill.identifier,
    title: bill.title,
    status: bill.status,
    statusDate: bill.statusDate,
    primarySponsor:
      sponsor === undefined
        ? null
        : sponsor.party === null
          ? sponsor.name
          : `${sponsor.name} (${sponsor.party})`,
    subjects: bill.subjects,
    latestAction: latest === undefined ? null : { date: latest.date, text: latest.text },
  };
}

const decisionVerbs: Record<DecisionKind, string> = {
  track: 'Tracked',
  dismiss: 'Dismissed',
  later: 'Saved for later:',
};

/** What the deck's live region says after a decision: "Tracked S.J.Res. 1". */
export function decisionAnnouncement(kind: DecisionKind, identifier: string): string {
  return `${decisionVerbs[kind]} ${identifier}`;
}

/** What the deck's live region says after "Undo"; `identifierOf` names a bill by its id. */
export function undoAnnouncement(result: UndoResult, identifierOf: (id: string) => string): string {
  switch (result.kind) {
    case 'nothing-to-undo':
      return 'Nothing to undo.';
    case 'changed-since':
      return `${identifierOf(result.billId)} was decided again since, on another device; nothing was undone.`;
    case 'undone':
      return result.decision === null
        ? `Undone: ${identifierOf(result.billId)} is back in the deck`
        : `Undone: ${identifierOf(result.billId)} is back to ${result.decision.decision}`;
  }
}

/**
 * Whether the triage undo history (the `device:triage-undo` setting's value) has a step, read
 * from the raw value so a live query on that one row can enable "Undo". Only its being a
 * non-empty list matters here; undoLastDecision checks each step when it runs.
 */
export function undoHistoryHasSteps(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
