import type { BillStatus } from './bill.ts';
import type { CompiledDeckFilter, IndexedCriterion } from './bill-deck-filter.ts';
import type { Decision, StoredBill } from './local-records.ts';
import type { LocalReadTransaction } from './local-store.ts';
import type { DecisionKind, UndoResult } from './triage-commands.ts';

// The swipeable deck: the untriaged bills of a filter, dealt a few at a time. A device may hold
// 50,000 bills of 10 KB and more each, so the deck never reads them all to show a card: it takes
// the candidates' ids from the store's indexes (keys only, cheap), drops the decided ones (a
// user's decisions are few next to the bills) and reads bills in small batches, in id order,
// only until it has the cards it needs. Only a filter on what no index holds (subject, chamber,
// words) has to read bills it then throws away.

/** What the deck reads. The app answers from IndexedDB indexes; tests from arrays or a store. */
export interface DeckSource {
  /** The ids of every bill, or of those an index lists under a value; in id order. */
  billIds(criterion: IndexedCriterion | null): Promise<string[]>;
  /**
   * One page of those ids: up to `limit` of them, after `from.afterId` when reading every bill
   * (a key range, so the store seeks), or past the first `from.offset` of an index's list.
   */
  billIdPage(
    criterion: IndexedCriterion | null,
    from: { afterId: string | null; offset: number },
    limit: number,
  ): Promise<string[]>;
  /** The bills of these ids, in the same order; undefined for an id with no bill. */
  bills(ids: readonly string[]): Promise<(StoredBill | undefined)[]>;
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

/** The ids every indexed criterion lists, in id order. */
async function candidateIds(source: DeckSource, compiled: CompiledDeckFilter): Promise<string[]> {
  const [first, ...rest] = compiled.indexed;
  if (first === undefined) return source.billIds(null);
  const lists = await Promise.all([first, ...rest].map((criterion) => source.billIds(criterion)));
  // Intersect starting from the shortest list: its order is id order like the others'.
  lists.sort((a, b) => a.length - b.length);
  const [shortest, ...others] = lists;
  if (shortest === undefined) return [];
  const sets = others.map((list) => new Set(list));
  return shortest.filter((id) => sets.every((set) => set.has(id)));
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

/** Key pages start small (the first card is usually near) and grow when decisions are many. */
const FIRST_ID_PAGE = 64;
const LARGEST_ID_PAGE = 4_096;

async function emptyReason(
  source: DeckSource,
  compiled: CompiledDeckFilter,
  decided: readonly Decision[],
): Promise<DeckEmptyReason> {
  if ((await source.datasetCount()) === 0) return { kind: 'no-datasets' };
  const anyBill = (await source.billIdPage(null, { afterId: null, offset: 0 }, 1)).length > 0;
  if (!anyBill) return { kind: 'no-bills' };
  // Only reached with an empty deck: the decided bills are read to learn whether the filter
  // matches any of them.
  const matched = new Set(
    (
      await scanMatching(
        source,
        { ...compiled, needsBills: true },
        decided.map((row) => row.billId),
        Number.POSITIVE_INFINITY,
      )
    ).map((bill) => bill.id),
  );
  const matching = decided.filter((row) => matched.has(row.billId));
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
  const decisions = await source.decisions();
  const decided = decidedIds(decisions, compiled.filter.includeLater);
  // The first indexed criterion gives the ids; the others are checked on the bills with the rest.
  const [walked = null, ...others] = compiled.indexed;
  const scan: CompiledDeckFilter = others.length > 0 ? { ...compiled, needsBills: true } : compiled;
  const cards: StoredBill[] = [];
  const from = { afterId: null as string | null, offset: 0 };
  let pageSize = FIRST_ID_PAGE;
  while (cards.length < limit) {
    const ids = await source.billIdPage(walked, from, pageSize);
    from.offset += ids.length;
    from.afterId = ids[ids.length - 1] ?? from.afterId;
    // Pages are separate reads: an import committing between two of them may shift an index's
    // list, so an id seen already is not dealt twice.
    const undecided = ids.filter((id) => !decided.has(id) && !cards.some((card) => card.id === id));
    cards.push(...(await scanMatching(source, scan, undecided, limit - cards.length)));
    if (ids.length < pageSize) break;
    pageSize = Math.min(pageSize * 2, LARGEST_ID_PAGE);
  }
  if (cards.length > 0) return { cards, empty: null };
  const decidedRows = decisions.filter((row) => decided.has(row.billId));
  return { cards, empty: await emptyReason(source, compiled, decidedRows) };
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
  const candidates = await candidateIds(source, compiled);
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
  return {
    billIds: async (criterion) => {
      if (criterion === null) return tx.keys('bills');
      const rows = await tx.where('bills', criterion.index, criterion.value);
      return rows.map((row) => row.id);
    },
    // The store interface has no key ranges: a page is cut from the whole list.
    billIdPage: async (criterion, from, limit) => {
      const ids =
        criterion === null
          ? await tx.keys('bills')
          : (await tx.where('bills', criterion.index, criterion.value)).map((row) => row.id);
      return criterion === null && from.afterId !== null
        ? ids.filter((id) => id > (from.afterId ?? '')).slice(0, limit)
        : ids.slice(from.offset, from.offset + limit);
    },
    bills: (ids) => tx.getMany('bills', ids),
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
