import type { BillStatus } from '../bills/bill-vocabulary.ts';
import { billStatuses } from '../bills/bill-vocabulary.ts';
import { isIsoDate } from '../bills/bill-text-cleaning.ts';
import { billOrderKey, sessionKey } from '../bills/bill-naming.ts';
import { latestAction } from '../bills/bill-dates.ts';
import type { BillSearchIndex, SearchableBill } from './bill-search-index.ts';
import { namesPerson, SponsorPeople, type SponsoredBill } from './bill-sponsor-filter.ts';
import type { BillTag, Decision, Position } from '../store/local-records.ts';
import { positions } from '../store/local-records.ts';

// What the tracked list shows: which bills (tracked, or all), matching which search and
// filters, in which order. The query travels in the page's URL, so a link (a chart's bar, a
// bookmark) opens the same filtered list; parsing is lenient, because a URL is typed by people.

export const billListSorts = ['latest-action', 'introduced', 'identifier'] as const;
export type BillListSort = (typeof billListSorts)[number];
export type PositionKind = Position['position'];
export type DecisionKind = Decision['decision'];

/** The lists a triage decision makes: Tracked, Later, Dismissed, and the bills not yet decided. */
export const decisionFilters = ['track', 'later', 'dismiss', 'undecided'] as const;
export type DecisionFilter = (typeof decisionFilters)[number];

export interface BillListQuery {
  /** The search words; '' for none. */
  readonly q: string;
  readonly status: BillStatus | null;
  readonly tagId: string | null;
  /** 'none' also matches bills without any position. */
  readonly position: PositionKind | null;
  readonly datasetId: string | null;
  readonly jurisdiction: string | null;
  /** A session of a jurisdiction, as `sessionKey` writes it ("us-ak:27"). */
  readonly session: string | null;
  readonly sort: BillListSort;
  /** Every bill in the store, not only tracked ones. */
  readonly all: boolean;
  /** The bills of one triage list (Later, Dismissed…); when set, `all` does not matter. */
  readonly decision: DecisionFilter | null;
  /** The Monday (YYYY-MM-DD) of an ISO week: bills with an action in that week. */
  readonly week: string | null;
  /** Bills a person sponsors or cosponsors, by `sponsorKey` (bill-sponsor-filter.ts). */
  readonly sponsor: string | null;
}

export const defaultBillListQuery: BillListQuery = {
  q: '',
  status: null,
  tagId: null,
  position: null,
  datasetId: null,
  jurisdiction: null,
  session: null,
  sort: 'latest-action',
  all: false,
  decision: null,
  week: null,
  sponsor: null,
};

const MAX_PARAM_LENGTH = 500;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;
}

function text(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' || trimmed.length > MAX_PARAM_LENGTH ? null : trimmed;
}

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}

function dateOfDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday of the ISO week a date falls in. */
export function isoWeekMonday(date: string): string {
  const day = dayNumber(date);
  // 1970-01-01 was a Thursday: day 0 is weekday 3 counting from Monday = 0.
  const weekday = (((day + 3) % 7) + 7) % 7;
  return dateOfDay(day - weekday);
}

// Core has no DOM, so no URLSearchParams: the search string is read and written here, the same
// way (application/x-www-form-urlencoded, '+' for a space).
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return '';
  }
}

function readSearch(search: string): { get(name: string): string | null } {
  const params = new Map<string, string>();
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodePart(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodePart(pair.slice(equals + 1));
    // The first of a repeated name wins, as URLSearchParams.get does.
    if (!params.has(name)) params.set(name, value);
  }
  return { get: (name) => params.get(name) ?? null };
}

/** The query a URL's search string describes; anything unknown or malformed is left out. */
export function parseBillListQuery(search: string): BillListQuery {
  const params = readSearch(search);
  const week = text(params.get('week'));
  const q = params.get('q') ?? '';
  return {
    q: q.length > MAX_PARAM_LENGTH ? q.slice(0, MAX_PARAM_LENGTH) : q,
    status: oneOf(billStatuses, params.get('status')),
    tagId: text(params.get('tag')),
    position: oneOf(positions, params.get('position')),
    datasetId: text(params.get('dataset')),
    jurisdiction: text(params.get('jurisdiction')),
    session: text(params.get('session')),
    sort: oneOf(billListSorts, params.get('sort')) ?? defaultBillListQuery.sort,
    all: params.get('all') === '1',
    decision: oneOf(decisionFilters, params.get('decision')),
    // Any date of the week is taken for its Monday, so a hand-typed link still works.
    week: week !== null && isIsoDate(week) ? isoWeekMonday(week) : null,
    sponsor: text(params.get('sponsor')),
  };
}

/** The URL search string of a query (without '?'); defaults are left out. */
export function billListSearch(query: BillListQuery): string {
  const params: [string, string][] = [];
  if (query.q !== '') params.push(['q', query.q]);
  if (query.status !== null) params.push(['status', query.status]);
  if (query.tagId !== null) params.push(['tag', query.tagId]);
  if (query.position !== null) params.push(['position', query.position]);
  if (query.datasetId !== null) params.push(['dataset', query.datasetId]);
  if (query.jurisdiction !== null) params.push(['jurisdiction', query.jurisdiction]);
  if (query.session !== null) params.push(['session', query.session]);
  if (query.sort !== defaultBillListQuery.sort) params.push(['sort', query.sort]);
  if (query.all) params.push(['all', '1']);
  if (query.decision !== null) params.push(['decision', query.decision]);
  if (query.week !== null) params.push(['week', query.week]);
  if (query.sponsor !== null) params.push(['sponsor', query.sponsor]);
  return params
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/%20/g, '+')}`)
    .join('&');
}

/** Whether the query narrows the list beyond tracked/all and the order. */
export function hasBillListFilters(query: BillListQuery): boolean {
  return (
    query.q.trim() !== '' ||
    query.status !== null ||
    query.tagId !== null ||
    query.position !== null ||
    query.datasetId !== null ||
    query.jurisdiction !== null ||
    query.session !== null ||
    query.week !== null ||
    query.sponsor !== null
  );
}

/** The fields of a bill the list keeps as they are. */
interface BillListFields {
  readonly id: string;
  readonly identifier: string;
  readonly title: string;
  readonly status: BillStatus;
  readonly statusDate: string | null;
  readonly introducedDate: string | null;
  readonly jurisdiction: string;
  readonly session: string;
  readonly type: string;
  readonly number: string;
}

/** What the list needs of a bill to filter, sort and show a row. */
export interface BillListEntry extends BillListFields {
  /** The newest action's date (bills/bill-dates.ts latestAction), null when it has none. */
  readonly latestActionDate: string | null;
  readonly datasetIds: readonly string[];
  /** Distinct action days (days since 1970-01-01), ascending. */
  readonly actionDays: Int32Array;
  /** The catalog's numbers of the bill's sponsors and cosponsors (SponsorPeople), ascending. */
  readonly people?: Int32Array;
  /** Where the bill falls in the order by number (bills/bill-naming.ts `billOrderKey`). */
  readonly orderKey: string;
}

/** A bill as its row shows it, with the user's own marks on it. */
export interface BillListRow {
  readonly id: string;
  readonly identifier: string;
  /** Where the bill is from: its jurisdiction code and session, named by bills/bill-naming.ts. */
  readonly jurisdiction: string;
  readonly session: string;
  readonly title: string;
  readonly status: BillStatus;
  /** The day the bill reached its status: shown as "since". */
  readonly statusDate: string | null;
  /** The newest action's date: shown as "Latest action", never as the status's. */
  readonly latestActionDate: string | null;
  readonly tagIds: readonly string[];
  readonly position: PositionKind | null;
  readonly tracked: boolean;
}

export interface ListableBill extends SponsoredBill, BillListFields {
  readonly actions: readonly { readonly date: string | null }[];
  readonly datasetIds?: readonly string[];
}

export function billListEntry(bill: ListableBill): BillListEntry {
  const days = new Set<number>();
  for (const action of bill.actions) {
    if (action.date !== null) days.add(dayNumber(action.date));
  }
  return {
    id: bill.id,
    identifier: bill.identifier,
    title: bill.title,
    status: bill.status,
    statusDate: bill.statusDate,
    introducedDate: bill.introducedDate,
    latestActionDate: latestAction(bill.actions)?.date ?? null,
    jurisdiction: bill.jurisdiction,
    session: bill.session,
    type: bill.type,
    number: bill.number,
    datasetIds: [...(bill.datasetIds ?? [])],
    actionDays: Int32Array.from([...days].sort((a, b) => a - b)),
    orderKey: billOrderKey(bill),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Jurisdiction name, session, type in the source's order, then number as a number; ties by id. */
export function compareEntriesByIdentifier(a: BillListEntry, b: BillListEntry): number {
  return compareText(a.orderKey, b.orderKey) || compareText(a.id, b.id);
}

/** Whether any action day falls in the week starting on that Monday. */
export function hasActionInWeek(entry: BillListEntry, monday: string): boolean {
  const from = dayNumber(monday);
  const to = from + 6;
  for (const day of entry.actionDays) {
    if (day > to) return false;
    if (day >= from) return true;
  }
  return false;
}

/** The user's marks on bills, by bill id. */
export interface BillMarks {
  readonly decisions: ReadonlyMap<string, DecisionKind>;
  readonly tags: ReadonlyMap<string, readonly string[]>;
  readonly positions: ReadonlyMap<string, PositionKind>;
}

export const noBillMarks: BillMarks = {
  decisions: new Map(),
  tags: new Map(),
  positions: new Map(),
};

/** The user's marks on bills, from the rows of their tables: one place builds them for the list's
 *  worker and for "Export these bills", so the two list the same bills. */
export function billMarksOf(
  decisions: readonly Decision[],
  billTags: readonly BillTag[],
  positionRows: readonly Position[],
): BillMarks {
  const tags = new Map<string, string[]>();
  for (const row of billTags) {
    const list = tags.get(row.billId);
    if (list === undefined) tags.set(row.billId, [row.tagId]);
    else list.push(row.tagId);
  }
  return {
    decisions: new Map(decisions.map((row) => [row.billId, row.decision])),
    tags,
    positions: new Map(positionRows.map((row) => [row.billId, row.position])),
  };
}

/**
 * The bills the list knows, numbered for the search index: each version of a bill gets a new
 * number (a re-imported bill is removed and added again), and numbers are never reused, so the
 * index's postings of an old version can be skipped instead of hunted down.
 */
export class BillCatalog {
  private readonly entries: (BillListEntry | undefined)[] = [];
  private readonly docOf = new Map<string, number>();
  private readonly versions = new Map<string, string>();
  private orders: Partial<Record<BillListSort, Int32Array>> = {};
  private marks: BillMarks = noBillMarks;
  private readonly people = new SponsorPeople();

  constructor(private readonly index: BillSearchIndex) {}

  get size(): number {
    return this.docOf.size;
  }

  /** Every bill id the catalog holds. */
  ids(): string[] {
    return [...this.docOf.keys()];
  }

  /** The version a bill was put with, to tell whether a stored bill changed. */
  version(billId: string): string | undefined {
    return this.versions.get(billId);
  }

  /**
   * Adds or replaces a bill. `version` says whether it changed (a change hash plus anything else
   * the list shows that the hash does not cover); an unchanged bill costs nothing.
   */
  put(bill: ListableBill & SearchableBill, version: string): 'added' | 'updated' | 'unchanged' {
    const previous = this.docOf.get(bill.id);
    if (previous !== undefined && this.versions.get(bill.id) === version) return 'unchanged';
    if (previous !== undefined) this.drop(previous);
    const doc = this.entries.length;
    this.entries.push({ ...billListEntry(bill), people: this.people.numbersOf(bill) });
    this.index.add(doc, bill);
    this.docOf.set(bill.id, doc);
    this.versions.set(bill.id, version);
    this.orders = {};
    return previous === undefined ? 'added' : 'updated';
  }

  remove(billId: string): boolean {
    const doc = this.docOf.get(billId);
    if (doc === undefined) return false;
    this.drop(doc);
    this.docOf.delete(billId);
    this.versions.delete(billId);
    return true;
  }

  setMarks(marks: BillMarks): void {
    this.marks = marks;
  }

  /** How many of the bills held are in each triage list, for the decision filter's choices. */
  decisionCounts(): Record<DecisionFilter, number> {
    const counts: Record<DecisionFilter, number> = { track: 0, later: 0, dismiss: 0, undecided: 0 };
    for (const doc of this.docOf.values()) {
      const entry = this.entries[doc];
      if (entry !== undefined) counts[this.marks.decisions.get(entry.id) ?? 'undecided']++;
    }
    return counts;
  }

  /** The sessions of the bills held (`sessionKey`s), for the filter's choices: by jurisdiction,
   *  the newest session first within one. */
  sessions(): string[] {
    const found = new Map<string, { jurisdiction: string; session: string }>();
    for (const doc of this.docOf.values()) {
      const entry = this.entries[doc];
      if (entry === undefined) continue;
      const key = sessionKey(entry.jurisdiction, entry.session);
      if (!found.has(key))
        found.set(key, { jurisdiction: entry.jurisdiction, session: entry.session });
    }
    return [...found.entries()]
      .sort(
        ([, a], [, b]) =>
          compareText(a.jurisdiction, b.jurisdiction) ||
          b.session.localeCompare(a.session, 'en', { numeric: true }),
      )
      .map(([key]) => key);
  }

  /** The name of the person a sponsor key stands for, as a bill held spells it; null when no
   *  bill held names them. */
  sponsorName(key: string): string | null {
    return this.people.nameOf(key);
  }

  /** The jurisdictions of the bills held, for the filter's choices. */
  jurisdictions(): string[] {
    const found = new Set<string>();
    for (const doc of this.docOf.values()) {
      const entry = this.entries[doc];
      if (entry !== undefined) found.add(entry.jurisdiction);
    }
    return [...found].sort(compareText);
  }

  /** The document numbers matching the query, in the query's order. */
  query(query: BillListQuery): Int32Array {
    const found = this.index.search(query.q);
    const order = this.order(query.sort);
    const accept = this.acceptor(query);
    if (found === null) {
      // Orders are replaced on a change, never changed in place: the unfiltered list is one.
      if (accept === null) return order;
      const result = new Int32Array(order.length);
      let count = 0;
      for (const doc of order) {
        const entry = this.entries[doc];
        if (entry !== undefined && accept(entry)) result[count++] = doc;
      }
      return result.slice(0, count);
    }
    // The matches are put in order by marking each one's place in the order and reading the
    // marks back: two passes over typed arrays, whatever the number of matches, where sorting
    // thousands of them by a comparison, or filtering the whole order, costs several times more.
    const rank = this.rank(query.sort);
    const placed = new Uint8Array(order.length);
    let count = 0;
    if (accept === null) {
      // The index holds only the catalog's current documents: each match has its place.
      for (const doc of found) placed[rank[doc] ?? 0] = 1;
      count = found.length;
    } else {
      for (const doc of found) {
        const entry = this.entries[doc];
        if (entry === undefined || !accept(entry)) continue;
        placed[rank[doc] ?? 0] = 1;
        count++;
      }
    }
    const result = new Int32Array(count);
    for (let place = 0, at = 0; at < count; place++) {
      if (placed[place] === 1) result[at++] = order[place] ?? 0;
    }
    return result;
  }

  /** The query's filters as a test of one entry; null when it lets every entry through. */
  private acceptor(query: BillListQuery): ((entry: BillListEntry) => boolean) | null {
    const marks = this.marks;
    const tests: ((entry: BillListEntry) => boolean)[] = [];
    const { status, jurisdiction, datasetId, tagId, position, week, decision } = query;
    if (decision !== null) {
      tests.push((entry) => (marks.decisions.get(entry.id) ?? 'undecided') === decision);
    } else if (!query.all) {
      tests.push((entry) => marks.decisions.get(entry.id) === 'track');
    }
    if (status !== null) tests.push((entry) => entry.status === status);
    if (jurisdiction !== null) tests.push((entry) => entry.jurisdiction === jurisdiction);
    if (query.session !== null) {
      const key = query.session;
      tests.push((entry) => sessionKey(entry.jurisdiction, entry.session) === key);
    }
    if (datasetId !== null) tests.push((entry) => entry.datasetIds.includes(datasetId));
    if (tagId !== null) tests.push((entry) => (marks.tags.get(entry.id) ?? []).includes(tagId));
    if (position !== null) {
      tests.push((entry) => (marks.positions.get(entry.id) ?? 'none') === position);
    }
    if (week !== null) tests.push((entry) => hasActionInWeek(entry, week));
    if (query.sponsor !== null) {
      const person = this.people.numberOf(query.sponsor);
      tests.push((entry) =>
        person === undefined || entry.people === undefined
          ? false
          : namesPerson(entry.people, person),
      );
    }
    if (tests.length === 0) return null;
    return (entry) => tests.every((test) => test(entry));
  }

  /** The row of a document a query returned; undefined when it has since been removed. */
  row(doc: number): BillListRow | undefined {
    const entry = this.entries[doc];
    if (entry === undefined) return undefined;
    return {
      id: entry.id,
      identifier: entry.identifier,
      jurisdiction: entry.jurisdiction,
      session: entry.session,
      title: entry.title,
      status: entry.status,
      statusDate: entry.statusDate,
      latestActionDate: entry.latestActionDate,
      tagIds: this.marks.tags.get(entry.id) ?? [],
      position: this.marks.positions.get(entry.id) ?? null,
      tracked: this.marks.decisions.get(entry.id) === 'track',
    };
  }

  billId(doc: number): string | undefined {
    return this.entries[doc]?.id;
  }

  private drop(doc: number): void {
    this.entries[doc] = undefined;
    this.index.remove(doc);
    this.orders = {};
  }

  // Orders are built on demand and kept until the next change: sorting 50,000 entries costs
  // tens of milliseconds, filtering an order already sorted costs one pass.
  private order(sort: BillListSort): Int32Array {
    const known = this.orders[sort];
    if (known !== undefined) return known;
    const docs: number[] = [...this.docOf.values()];
    const entry = (doc: number) => this.entries[doc] as BillListEntry;
    if (sort === 'identifier') {
      docs.sort((a, b) => compareEntriesByIdentifier(entry(a), entry(b)));
    } else {
      const byIdentifier = this.rank('identifier');
      // A bill with no dated action sorts by the day it reached its status.
      const dateOf = (doc: number) =>
        sort === 'introduced'
          ? entry(doc).introducedDate
          : (entry(doc).latestActionDate ?? entry(doc).statusDate);
      // Newest first; undated last; ties in citation order.
      docs.sort((a, b) => {
        const da = dateOf(a);
        const db = dateOf(b);
        if (da !== db) {
          if (da === null) return 1;
          if (db === null) return -1;
          return da < db ? 1 : -1;
        }
        return (byIdentifier[a] ?? 0) - (byIdentifier[b] ?? 0);
      });
    }
    const order = Int32Array.from(docs);
    this.orders[sort] = order;
    return order;
  }

  private ranks: Partial<Record<BillListSort, { order: Int32Array; rank: Int32Array }>> = {};

  private rank(sort: BillListSort): Int32Array {
    const order = this.order(sort);
    const known = this.ranks[sort];
    if (known?.order === order) return known.rank;
    const rank = new Int32Array(this.entries.length);
    order.forEach((doc, place) => {
      rank[doc] = place;
    });
    this.ranks[sort] = { order, rank };
    return rank;
  }
}
