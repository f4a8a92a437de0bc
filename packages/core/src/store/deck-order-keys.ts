import { billActivityDate } from '../bills/bill-dates.ts';
import type { Bill } from '../bills/bill.ts';

// The keys that let the deck deal "Most recent activity first" without reading the bills it
// passes over. IndexedDB orders an index by its keys, ascending only, and answers a range of one
// index with the bills' ids in that order (getAllKeys): so each stored bill carries, in one
// multiEntry index, one key per list the deck may walk: every bill ('a'), a dataset's ('d'), a
// jurisdiction's ('j'), a status's ('s') and a session's ('p', by the id prefix a session's bills
// share), each key ending with the bill's place in the recent order. That place is the day of the
// bill's latest activity with every digit turned around (9 − d), so the most recent day sorts
// first in ascending order, then the bill's id; undated bills come last. A list is then one key
// range, read a page of ids at a time, and a page goes on from where the last one ended.

/**
 * The lists of the recent order: every bill, or those an indexed criterion lists under a value.
 * A list holds the undecided bills; `withLater` lists hold the bills put off for later too (the
 * deck's "Include later"). Tracked and dismissed bills are in no list.
 */
export type DeckOrderList = (
  | { readonly index: 'all' }
  | {
      readonly index: 'datasetIds' | 'jurisdiction' | 'status' | 'idPrefix';
      readonly value: string;
    }
) & { readonly withLater?: boolean };

/**
 * The `device:` setting that says the device is still giving the bills it held before the recent
 * order existed their keys (set by the store's upgrade when it found bills, removed by the
 * backfill once done); while it is there the deck deals in id order. A device that never held a
 * bill without keys never has it, and clearing the device clears it with the bills.
 */
export const DECK_ORDER_FILLING_SETTING = 'device:deck-order-filling';

/** Between a key's parts: no jurisdiction, dataset id, status or day holds it. */
const SEPARATOR = '\u0000';
/** Above every character a key's rest can hold: the end of a list's range. */
export const DECK_ORDER_RANGE_END = '\uffff';
/** Where an undated bill's place starts: after every turned-around day (digits and '-'). */
const UNDATED = '~';

const listLetters = {
  all: 'a',
  datasetIds: 'd',
  jurisdiction: 'j',
  status: 's',
  idPrefix: 'p',
} as const;

/** A day (YYYY-MM-DD) turned around so that later days sort first: 2025-07-29 → 7974-92-70. */
function turnedDay(day: string): string {
  if (day === '') return UNDATED;
  let turned = '';
  for (const char of day) {
    const digit = char.charCodeAt(0) - 48;
    turned += digit >= 0 && digit <= 9 ? String(9 - digit) : char;
  }
  return turned;
}

/** The bill's place in the recent order: its turned-around day, then its id. */
export function recentOrderPlace(
  bill: Pick<Bill, 'id' | 'actions' | 'statusDate' | 'introducedDate'>,
): string {
  return `${turnedDay(billActivityDate(bill))}${SEPARATOR}${bill.id}`;
}

/** What every key of a list starts with (a `withLater` list's letter is a capital). */
export function deckOrderListPrefix(list: DeckOrderList): string {
  const letter =
    list.withLater === true ? listLetters[list.index].toUpperCase() : listLetters[list.index];
  return list.index === 'all'
    ? `${letter}${SEPARATOR}`
    : `${letter}${SEPARATOR}${list.value}${SEPARATOR}`;
}

/** The start every id of a bill's session shares ("us-ak/34/"): its id up to the second slash. */
function sessionPrefixOfId(id: string): string {
  const first = id.indexOf('/');
  const second = first < 0 ? -1 : id.indexOf('/', first + 1);
  return second < 0 ? id : id.slice(0, second + 1);
}

/** Decisions that take a bill out of every list; a bill put off for `later` stays in some. */
const leavesDeck: ReadonlySet<string> = new Set(['track', 'dismiss']);

/**
 * Every key of the bill in the recent order's index, one per list that holds it: as a store keeps
 * them, given the bill's decision (undefined: none). An undecided bill is in both kinds of lists,
 * one put off for later only in the `withLater` ones, a tracked or dismissed bill in none: so the
 * deck never walks past a bill a user has decided, however many there are.
 */
export function billDeckOrderKeys(
  bill: Pick<
    Bill,
    'id' | 'actions' | 'statusDate' | 'introducedDate' | 'jurisdiction' | 'status'
  > & { readonly datasetIds: readonly string[] },
  decision?: string,
): string[] {
  if (decision !== undefined && leavesDeck.has(decision)) return [];
  const place = recentOrderPlace(bill);
  const lists: DeckOrderList[] = [
    { index: 'all' },
    ...bill.datasetIds.map((value) => ({ index: 'datasetIds' as const, value })),
    { index: 'jurisdiction', value: bill.jurisdiction },
    { index: 'status', value: bill.status },
    { index: 'idPrefix', value: sessionPrefixOfId(bill.id) },
  ];
  const keysIn = (withLater: boolean) =>
    lists.map((list) => `${deckOrderListPrefix({ ...list, withLater })}${place}`);
  return decision === 'later' ? keysIn(true) : [...keysIn(false), ...keysIn(true)];
}
