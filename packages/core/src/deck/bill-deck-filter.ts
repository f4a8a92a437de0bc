import { z } from 'zod';
import type { BillStatus, Chamber } from '../bills/bill-vocabulary.ts';
import { billStatuses, chambers } from '../bills/bill-vocabulary.ts';
import { sessionSlug } from '../bills/bill-identifiers.ts';
import { sessionOfKey } from '../bills/bill-naming.ts';
import type { StoredBill } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// The deck's filter: which untriaged bills the swipeable deck deals. It is a view setting of this
// device (a `device:` settings row, which never syncs): two devices of one user may well be
// triaging different datasets at the same time.

export const DECK_FILTER_SETTING = 'device:deck-filter';

/** Longest search text and subject kept: a filter is typed by a person, not pasted from a file. */
export const DECK_FILTER_TEXT_LIMIT = 200;

const filterText = z.string().max(DECK_FILTER_TEXT_LIMIT);
const filterId = z.string().min(1).max(200).nullable();

/**
 * The orders the deck deals its cards in: the most recent activity first (the latest action's
 * day, billActivityDate), or by place (jurisdiction, session, then the bill's id).
 */
export const deckOrders = ['recent', 'place'] as const;
export type DeckOrder = (typeof deckOrders)[number];

export const deckFilterSchema = z.object({
  datasetId: filterId,
  jurisdiction: filterId,
  /** A session as the Tracked list names it (`sessionKey`: "us-ak:34"). */
  session: filterId,
  status: z.enum(billStatuses).nullable(),
  /** A word or phrase one of the bill's subjects contains, ignoring case and accents. */
  subject: filterText,
  /** The chamber the bill was introduced in (billChamber). */
  chamber: z.enum(chambers).nullable(),
  /** Words that must all appear in the bill's identifier, title, summary, subjects or sponsors. */
  search: filterText,
  /** Bills put off for later come back into the deck. */
  includeLater: z.boolean(),
  order: z.enum(deckOrders),
});
export type DeckFilter = z.infer<typeof deckFilterSchema>;

export const emptyDeckFilter: DeckFilter = Object.freeze({
  datasetId: null,
  jurisdiction: null,
  session: null,
  status: null,
  subject: '',
  chamber: null,
  search: '',
  includeLater: false,
  order: 'recent',
});

/**
 * Whether the filter narrows the deck down from every untriaged bill. "Include later" widens it,
 * and the order only orders it, so neither counts.
 */
export function deckFilterIsActive(filter: DeckFilter): boolean {
  return (
    filter.datasetId !== null ||
    filter.jurisdiction !== null ||
    filter.session !== null ||
    filter.status !== null ||
    filter.chamber !== null ||
    foldText(filter.subject) !== '' ||
    foldText(filter.search) !== ''
  );
}

/**
 * A stored filter, read leniently: one written by a newer build, or damaged, loses only the
 * fields this build cannot read, never the whole deck.
 */
export function parseDeckFilter(value: unknown): DeckFilter {
  const whole = deckFilterSchema.safeParse(value);
  if (whole.success) return whole.data;
  if (typeof value !== 'object' || value === null) return { ...emptyDeckFilter };
  const fields = value as Record<string, unknown>;
  const filter: Record<string, unknown> = { ...emptyDeckFilter };
  for (const [name, schema] of Object.entries(deckFilterSchema.shape)) {
    const field = schema.safeParse(fields[name]);
    if (field.success) filter[name] = field.data;
  }
  return filter as DeckFilter;
}

/** The filter this device last used, or the empty one. */
export async function readDeckFilter(store: LocalStore): Promise<DeckFilter> {
  const row = await store.read(['settings'], (tx) => tx.get('settings', DECK_FILTER_SETTING));
  return parseDeckFilter(row?.value);
}

/** Keeps the filter on this device. No outbox entry: `device:` settings never sync. */
export async function saveDeckFilter(store: LocalStore, filter: DeckFilter): Promise<DeckFilter> {
  const checked = deckFilterSchema.parse({
    ...filter,
    subject: filter.subject.slice(0, DECK_FILTER_TEXT_LIMIT),
    search: filter.search.slice(0, DECK_FILTER_TEXT_LIMIT),
  });
  await store.write(['settings'], (tx) =>
    tx.put('settings', { key: DECK_FILTER_SETTING, value: checked }),
  );
  return checked;
}

/** Lower case without accents, whitespace runs made one space: "Ça  Va" and "ca va" compare equal. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

// What a bill's type says about where it started: Congress and most states start a House bill's
// type with h ('hr', 'hjres', 'hb'), a Senate one with s ('sb', 'sjres'); California and New York
// call their lower house the Assembly ('ab', 'a'). Nebraska's one house writes 'lb' and 'lr'.
function chamberOfType(type: string): Chamber | null {
  if (/^(lb|lr)$/.test(type)) return 'legislature';
  if (type.startsWith('h') || type.startsWith('a')) return 'lower';
  if (type.startsWith('s')) return 'upper';
  return null;
}

/**
 * The chamber a bill was introduced in: from its type when the type says (most do), else from
 * its first action that names a chamber; null when neither tells.
 */
export function billChamber(bill: Pick<StoredBill, 'type' | 'actions'>): Chamber | null {
  const fromType = chamberOfType(bill.type);
  if (fromType !== null) return fromType;
  for (const action of bill.actions) {
    if (action.chamber === 'upper' || action.chamber === 'lower') return action.chamber;
    if (action.chamber === 'legislature') return 'legislature';
  }
  return null;
}

/**
 * A criterion a store index can answer without reading the bills themselves. A session needs no
 * index of its own: a bill's id starts with its jurisdiction and session (`billId`), so the
 * primary key holds a session's bills together, and `idPrefix` is a range of it.
 */
export type IndexedCriterion =
  | { index: 'datasetIds'; value: string }
  | { index: 'jurisdiction'; value: string }
  | { index: 'status'; value: BillStatus }
  | { index: 'idPrefix'; value: string };

/** The start every id of a session's bills shares: "us-ak/34/". */
export function sessionIdPrefix(jurisdiction: string, session: string): string {
  return `${jurisdiction}/${sessionSlug(session)}/`;
}

/** A filter taken apart for the reader: what indexes can narrow, and what needs each bill read. */
export interface CompiledDeckFilter {
  readonly filter: DeckFilter;
  /** Bills must match every one of these; answered from the store's indexes. */
  readonly indexed: readonly IndexedCriterion[];
  /** Whether `matches` looks at more than the indexed fields (so every candidate must be read). */
  readonly needsBills: boolean;
  /** The whole filter, on one bill. */
  matches(bill: StoredBill): boolean;
}

function words(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/** What a search looks in. The identifier is also given compact ("sjres1"), as people type it. */
function searchableText(bill: StoredBill): string {
  return foldText(
    [
      bill.identifier,
      `${bill.type}${bill.number}`,
      bill.title,
      bill.summary ?? '',
      ...bill.subjects,
      ...bill.sponsors.map((sponsor) => sponsor.name),
    ].join('\n'),
  );
}

export function compileDeckFilter(filter: DeckFilter): CompiledDeckFilter {
  const indexed: IndexedCriterion[] = [];
  if (filter.datasetId !== null) indexed.push({ index: 'datasetIds', value: filter.datasetId });
  const session = filter.session === null ? null : sessionOfKey(filter.session);
  if (session !== null) {
    // The id range of the session holds only that jurisdiction's bills: the jurisdiction's own
    // index would add nothing but reads (a different jurisdiction matches nothing either way).
    indexed.push({
      index: 'idPrefix',
      value: sessionIdPrefix(session.jurisdiction, session.session),
    });
  } else if (filter.jurisdiction !== null) {
    indexed.push({ index: 'jurisdiction', value: filter.jurisdiction });
  }
  if (filter.status !== null) indexed.push({ index: 'status', value: filter.status });
  const subject = foldText(filter.subject);
  const searchWords = words(filter.search);
  const chamber = filter.chamber;
  const needsBills = subject !== '' || searchWords.length > 0 || chamber !== null;
  const matches = (bill: StoredBill): boolean => {
    if (filter.datasetId !== null && !bill.datasetIds.includes(filter.datasetId)) return false;
    if (filter.jurisdiction !== null && bill.jurisdiction !== filter.jurisdiction) return false;
    if (
      session !== null &&
      (bill.jurisdiction !== session.jurisdiction || bill.session !== session.session)
    ) {
      return false;
    }
    if (filter.status !== null && bill.status !== filter.status) return false;
    if (chamber !== null && billChamber(bill) !== chamber) return false;
    if (subject !== '' && !bill.subjects.some((item) => foldText(item).includes(subject))) {
      return false;
    }
    if (searchWords.length > 0) {
      const haystack = searchableText(bill);
      if (!searchWords.every((word) => haystack.includes(word))) return false;
    }
    return true;
  };
  return { filter, indexed, needsBills, matches };
}
