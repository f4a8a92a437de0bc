import { formatBillIdentifier, type BillNumbering } from './bill-identifiers.ts';
import type { Sponsor } from './bill.ts';
import type { BillStatus } from './bill-vocabulary.ts';
import { jurisdictionName } from './us-jurisdictions.ts';

// How a bill is named wherever it is shown: where it is from and in which session, not only its
// number ("HB 1" is a bill in fifty legislatures and every year). One place, so the cards, the
// lists, bill details, public links and reports say it the same way.

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 101st, 111th. */
export function ordinal(value: number): string {
  const lastTwo = value % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${value}th`;
  switch (value % 10) {
    case 1:
      return `${value}st`;
    case 2:
      return `${value}nd`;
    case 3:
      return `${value}rd`;
    default:
      return `${value}th`;
  }
}

/**
 * A session as people name it, from what each source gives: a congress number ("114") becomes
 * "114th Congress"; a state's numbered legislature (Alaska's "34", Open States' identifier)
 * becomes "34th Legislature"; a year or a span of years ("2026", "2025-2026") becomes
 * "2026 session" / "2025–2026 session"; a name the source wrote out (LegiScan's "2023-2024
 * Regular Session", "119th Congress") is kept as it is.
 */
export function sessionLabel(jurisdiction: string, session: string): string {
  const text = session.trim();
  const numbered = /^(\d{1,3})(?:st|nd|rd|th)?$/i.exec(text);
  if (numbered?.[1] !== undefined) {
    const number = Number(numbered[1]);
    return `${ordinal(number)} ${jurisdiction === 'us' ? 'Congress' : 'Legislature'}`;
  }
  const years = /^((?:19|20)\d{2})(?:\s*[-–/]\s*((?:19|20)?\d{2}))?$/.exec(text);
  if (years?.[1] !== undefined) {
    const end = years[2];
    if (end === undefined) return `${years[1]} session`;
    const fullEnd = end.length === 2 ? `${years[1].slice(0, 2)}${end}` : end;
    return `${years[1]}–${fullEnd} session`;
  }
  return text;
}

/** A session names itself only within its jurisdiction (every state has a "2025"): the list
 *  filters by both, written as one value. Jurisdiction codes hold no colon. */
export function sessionKey(jurisdiction: string, session: string): string {
  return `${jurisdiction}:${session}`;
}

/** The jurisdiction and session of a `sessionKey`. */
export function sessionOfKey(key: string): { jurisdiction: string; session: string } {
  const colon = key.indexOf(':');
  return colon === -1
    ? { jurisdiction: key, session: '' }
    : { jurisdiction: key.slice(0, colon), session: key.slice(colon + 1) };
}

export interface NamedBill extends BillNumbering {
  readonly jurisdiction: string;
  readonly session: string;
}

/**
 * The bill's full name: "Alaska HB 1 · 34th Legislature", "H.Con.Res. 70 · 114th Congress"
 * (Congress's own numbering already says where it is from).
 */
export function billFullName(bill: NamedBill): string {
  const identifier = formatBillIdentifier(bill.jurisdiction, bill);
  const session = sessionLabel(bill.jurisdiction, bill.session);
  const place = bill.jurisdiction === 'us' ? '' : `${jurisdictionName(bill.jurisdiction)} `;
  return `${place}${identifier} · ${session}`;
}

/** Where the bill is from, for a line of its own: "Alaska · 34th Legislature". */
export function billPlace(bill: Pick<NamedBill, 'jurisdiction' | 'session'>): string {
  return `${jurisdictionName(bill.jurisdiction)} · ${sessionLabel(bill.jurisdiction, bill.session)}`;
}

// Congress numbers each kind of measure on its own, and its own lists give them in this order
// (bills, joint, concurrent, simple resolutions; House before Senate).
// The same are GovInfo's BILLSTATUS folders (sources/govinfo-bulk.ts).
export const congressBillTypes = [
  'hr',
  's',
  'hjres',
  'sjres',
  'hconres',
  'sconres',
  'hres',
  'sres',
] as const;
const CONGRESS_TYPE_ORDER: readonly string[] = congressBillTypes;

function typeRank(jurisdiction: string, type: string): number {
  if (jurisdiction !== 'us') return 0;
  const rank = CONGRESS_TYPE_ORDER.indexOf(type);
  return rank === -1 ? CONGRESS_TYPE_ORDER.length : rank;
}

/** Text that sorts naturally as plain text: letters folded to lower case, every run of digits
 *  padded to twelve places, so "2" < "2a" < "10" < "100". */
function naturalKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(12, '0'));
}

/**
 * A key whose plain text order is the order people expect in a list of bills: by jurisdiction
 * name and session, then by type in the order the source numbers them, then by number as a
 * number (H.Con.Res. 2 before 10, 10 before 100; "2A" after "2"). Computed once per bill, so
 * sorting 50,000 bills compares strings and nothing else.
 */
export function billOrderKey(bill: NamedBill): string {
  const groupKey = `${bill.jurisdiction}\u0000${bill.session}\u0000${bill.type}`;
  let group = orderKeyGroups.get(groupKey);
  if (group === undefined) {
    group = [
      naturalKey(jurisdictionName(bill.jurisdiction)),
      naturalKey(bill.session),
      String(typeRank(bill.jurisdiction, bill.type)).padStart(2, '0'),
      naturalKey(bill.type),
    ].join('\u0000');
    // A dataset holds a handful of jurisdictions, sessions and types; the bound is for safety.
    if (orderKeyGroups.size > 10_000) orderKeyGroups.clear();
    orderKeyGroups.set(groupKey, group);
  }
  return `${group}\u0000${naturalKey(bill.number)}`;
}

const orderKeyGroups = new Map<string, string>();

/** Two bills in the order of `billOrderKey`. */
export function compareBillsByNumber(a: NamedBill, b: NamedBill): number {
  const ka = billOrderKey(a);
  const kb = billOrderKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

const STATUS_WORDS: Readonly<Record<BillStatus, string>> = {
  introduced: 'Introduced',
  'in-committee': 'In committee',
  'passed-one-chamber': 'Passed one chamber',
  'passed-both': 'Passed both chambers',
  enacted: 'Enacted',
  vetoed: 'Vetoed',
  failed: 'Failed',
  other: 'Other',
};

/** A status in words ("Passed one chamber"), never the stored code. */
export function statusWord(status: BillStatus): string {
  return STATUS_WORDS[status];
}

/** "R, TX", "D, HD-014": a sponsor's party and seat where the source gives them; null for neither. */
export function sponsorSeat(sponsor: Sponsor): string | null {
  const about = [sponsor.party, sponsor.district ?? null].filter((part) => part !== null);
  return about.length === 0 ? null : about.join(', ');
}

/** "Ted Cruz (R, TX)", "Ada Quintero (D, HD-014)", or the name alone when the source says neither. */
export function sponsorName(sponsor: Sponsor): string {
  const seat = sponsorSeat(sponsor);
  return seat === null ? sponsor.name : `${sponsor.name} (${seat})`;
}
