import { compareBillsByNumber, CONGRESS_TYPE_ORDER, type NamedBill } from './bill-naming.ts';
import { jurisdictionName } from './us-jurisdictions.ts';

// Orders of bills written as one string each, so that a store index can hold them and a reader
// walk a few keys in order instead of sorting every bill: the deck deals its first card from an
// index of 50,000 bills. Each key sorts, as plain text (IndexedDB compares strings by code unit),
// the way compareBillsByNumber sorts, and ends with the bill's id, so that no two bills share one.

/** The deck's orders: the most recently active bills first, or by bill number. */
export const billOrders = ['activity', 'number'] as const;
export type BillOrder = (typeof billOrders)[number];

/** The stored field of each order's key (written by the stores, never read back as a row's). */
export const billOrderFields = {
  activity: 'activityKey',
  number: 'numberKey',
} as const satisfies Record<BillOrder, string>;

/** Ends the part of a key that sorts and starts the id; below every character a key holds. */
const ID_MARK = '\u0000';
/** Between the parts that sort; below every character they hold but the id mark. */
const PART = '\u0001';
/** Digit runs are padded to this width, so that 2 sorts before 10 as text. */
const NUMBER_WIDTH = 12;

/** Lower case without accents or control characters, digit runs padded: a natural text key. */
function naturalKey(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      // eslint-disable-next-line no-control-regex -- the marks a key is cut by must not be in it
      .replace(/[\u0000-\u001f]/g, '')
      .replace(/\d+/g, (digits) => {
        const bare = digits.replace(/^0+(?=\d)/, '');
        return bare.length >= NUMBER_WIDTH ? bare : bare.padStart(NUMBER_WIDTH, '0');
      })
  );
}

// Congress's measures in the order it lists them; a state's types sort by their letters.
function typeRank(jurisdiction: string, type: string): string {
  const rank = jurisdiction === 'us' ? CONGRESS_TYPE_ORDER.indexOf(type) : 0;
  return String(rank === -1 ? CONGRESS_TYPE_ORDER.length : rank).padStart(2, '0');
}

/** What a bill's order keys are made of. */
export interface OrderedBill extends NamedBill {
  readonly id: string;
  readonly statusDate: string | null;
  readonly actions: readonly { readonly date: string | null }[];
}

/** The bill's latest activity: its newest dated action, else its status date; null when none. */
export function latestActivityDate(
  bill: Pick<OrderedBill, 'statusDate' | 'actions'>,
): string | null {
  let latest: string | null = null;
  for (const action of bill.actions) {
    if (action.date !== null && (latest === null || action.date > latest)) latest = action.date;
  }
  return latest ?? bill.statusDate;
}

function numberPart(bill: NamedBill): string {
  return [
    naturalKey(jurisdictionName(bill.jurisdiction)),
    naturalKey(bill.session),
    typeRank(bill.jurisdiction, bill.type),
    naturalKey(bill.type),
    naturalKey(bill.number),
  ].join(PART);
}

/** A date's digits turned round (9 − d), so the newest sorts first; undated bills sort last. */
function newestFirst(date: string | null): string {
  if (date === null) return '~';
  return date.replace(/\d/g, (digit) => String(9 - Number(digit)));
}

/** The key of the bill-number order: jurisdiction name, session, type as the source numbers
 *  them, number as a number (compareBillsByNumber), then the id. */
export function billNumberKey(bill: NamedBill & { readonly id: string }): string {
  return `${numberPart(bill)}${ID_MARK}${bill.id}`;
}

/** The key of the recent-activity order: the latest activity, newest first, then the bill
 *  number's order, then the id. */
export function billActivityKey(bill: OrderedBill): string {
  return `${newestFirst(latestActivityDate(bill))}${PART}${numberPart(bill)}${ID_MARK}${bill.id}`;
}

/** The key of a bill in an order. */
export function billOrderKey(bill: OrderedBill, order: BillOrder): string {
  return order === 'activity' ? billActivityKey(bill) : billNumberKey(bill);
}

/** Both order keys, under the names the stores keep them by (billOrderFields). */
export function billOrderKeys(bill: OrderedBill): { activityKey: string; numberKey: string } {
  return { activityKey: billActivityKey(bill), numberKey: billNumberKey(bill) };
}

/** The bill id an order key ends with. */
export function billIdOfOrderKey(key: string): string {
  return key.slice(key.indexOf(ID_MARK) + 1);
}

/** Most recent activity first (undated last), ties by bill number: billActivityKey's order. */
export function compareBillsByActivity(a: OrderedBill, b: OrderedBill): number {
  const da = latestActivityDate(a);
  const db = latestActivityDate(b);
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    return da < db ? 1 : -1;
  }
  return compareBillsByNumber(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
