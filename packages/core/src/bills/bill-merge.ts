import type { Bill, BillVote, Sponsor } from './bill.ts';
import { billChangeHash } from './bill.ts';
import { cleanAlternativeTitles } from './bill-text-cleaning.ts';
import type { BillSource } from './bill-vocabulary.ts';

// Bills and their dated parts put in order, and one bill made of several records of it (the same
// bill in two formats or two files).

/**
 * Oldest first, for lists whose direction is not known (texts, votes): a list that runs backwards
 * by its first and last dates is turned round before a stable sort by date. Actions are never
 * ordered this way: a one-day list has no direction to read, so `inSourceOrder` takes it from the
 * source instead.
 */
export function chronological<T extends { date: string | null }>(items: readonly T[]): T[] {
  const list = [...items];
  const dated = list.filter((item) => item.date !== null);
  const first = dated[0]?.date;
  const last = dated[dated.length - 1]?.date;
  if (first && last && first > last) list.reverse();
  return list.sort((a, b) => {
    if (a.date === b.date) return 0;
    if (a.date === null) return 1;
    if (b.date === null) return -1;
    return a.date < b.date ? -1 : 1;
  });
}

/** An action (or anything dated) with what its source says about where it stands in time. */
export interface SourceOrderEntry<T> {
  item: T;
  date: string | null;
  /** The time of day as 'HH:MM:SS' (24-hour, so it sorts as text), where the source gives one. */
  time: string | null;
  /** Opens its day whatever the listing says: an introduction precedes the day's other actions. */
  opensDay?: boolean;
}

export interface SourceOrderOptions<T> {
  /** The direction the source documents for its list. */
  listing: 'oldest-first' | 'newest-first';
  /** The source's own latest action, where it names one: it ends its day. */
  isLatest?: ((item: T) => boolean) | undefined;
}

function compareDates(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * Oldest first, from each source's own order information: the date, then the time of day where
 * the source gives one, then the place in the source's list read in its documented direction.
 * Within a day, actions that carry a time are put in time order among the places such actions
 * hold, and the others keep their place in the list, so a day that mixes timed floor actions with
 * untimed ones stays as the source told it. Undated items go last. The source's own latest
 * action, when it names one, ends its day.
 */
export function inSourceOrder<T>(
  entries: readonly SourceOrderEntry<T>[],
  options: SourceOrderOptions<T>,
): T[] {
  const listed = options.listing === 'newest-first' ? [...entries].reverse() : [...entries];
  const sorted = listed
    .map((entry, position) => ({ entry, position }))
    .sort(
      (a, b) =>
        compareDates(a.entry.date, b.entry.date) ||
        Number(b.entry.opensDay === true) - Number(a.entry.opensDay === true) ||
        a.position - b.position,
    );
  let start = 0;
  while (start < sorted.length) {
    const head = sorted[start];
    let end = start + 1;
    while (
      end < sorted.length &&
      sorted[end]?.entry.date === head?.entry.date &&
      sorted[end]?.entry.opensDay === head?.entry.opensDay
    ) {
      end++;
    }
    const slots: number[] = [];
    for (let at = start; at < end; at++) if (sorted[at]?.entry.time != null) slots.push(at);
    const timed = slots
      .map((at) => sorted[at])
      .filter((value) => value !== undefined)
      .sort((a, b) => compareDates(a.entry.time, b.entry.time) || a.position - b.position);
    slots.forEach((at, index) => {
      const value = timed[index];
      if (value !== undefined) sorted[at] = value;
    });
    start = end;
  }
  const items = sorted.map(({ entry }) => entry.item);
  const { isLatest } = options;
  if (isLatest === undefined) return items;
  const lastDate = sorted.findLast(({ entry }) => entry.date !== null)?.entry.date ?? null;
  if (lastDate === null) return items;
  const dayEnd = sorted.findLastIndex(({ entry }) => entry.date === lastDate);
  const latest = sorted.findLastIndex(
    ({ entry }) => entry.date === lastDate && isLatest(entry.item),
  );
  if (latest < 0 || latest === dayEnd) return items;
  const [moved] = items.splice(latest, 1);
  if (moved !== undefined) items.splice(dayEnd, 0, moved);
  return items;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The parts of a bill its citation order reads. */
export type CitedBill = Pick<Bill, 'jurisdiction' | 'session' | 'type' | 'number' | 'id'>;

/** Jurisdiction, session, type, then number in numeric order (HB 2 before HB 10): the order
 *  bills are cited in, for whole bills and the Tracked list's entries alike. */
export function compareBills(a: CitedBill, b: CitedBill): number {
  return (
    compareText(a.jurisdiction, b.jurisdiction) ||
    compareText(a.session, b.session) ||
    compareText(a.type, b.type) ||
    Number.parseInt(a.number, 10) - Number.parseInt(b.number, 10) ||
    compareText(a.number, b.number) ||
    compareText(a.id, b.id)
  );
}

// When two sources describe the same bill, the official record wins ties.
const SOURCE_RANK: Readonly<Record<BillSource, number>> = {
  billstatus: 0,
  'congress-json': 1,
  openstates: 2,
  legiscan: 3,
  'docket-csv': 4,
};

function sameSponsor(a: Sponsor, b: Sponsor): boolean {
  if (a.externalId !== null && b.externalId !== null) return a.externalId === b.externalId;
  return a.name.toLowerCase() === b.name.toLowerCase();
}

/** The same roll call in two records: the same date, chamber and yes and no totals. */
function sameRollCall(a: BillVote, b: BillVote): boolean {
  return (
    a.date !== null &&
    a.date === b.date &&
    a.chamber === b.chamber &&
    a.yes !== null &&
    a.yes === b.yes &&
    a.no !== null &&
    a.no === b.no
  );
}

/** The votes, each without members given those of the same roll call in `other` that has them. */
function withMembersFrom(votes: BillVote[], other: readonly BillVote[]): BillVote[] {
  if (!other.some((vote) => vote.members !== undefined)) return votes;
  return votes.map((vote) => {
    if (vote.members !== undefined) return vote;
    const match = other.find(
      (candidate) => candidate.members !== undefined && sameRollCall(vote, candidate),
    );
    return match?.members === undefined ? vote : { ...vote, members: match.members };
  });
}

/**
 * One bill from several records with the same id. The most up-to-date record (latest status
 * date, then most actions, then the more official source, then the first given) is kept whole;
 * values it lacks are taken from the others, sponsors' missing parties are filled in from
 * matching sponsors, and its votes' missing member lists from the same roll calls. The result is
 * deterministic for the same input in the same order.
 */
export function mergeDuplicateBills(bills: readonly Bill[]): Bill {
  const ranked = bills
    .map((bill, index) => ({ bill, index }))
    .sort(
      (x, y) =>
        compareText(y.bill.statusDate ?? '', x.bill.statusDate ?? '') ||
        y.bill.actions.length - x.bill.actions.length ||
        SOURCE_RANK[x.bill.source] - SOURCE_RANK[y.bill.source] ||
        x.index - y.index,
    )
    .map(({ bill }) => bill);
  const [primary, ...others] = ranked;
  if (primary === undefined) throw new Error('mergeDuplicateBills: no bills');
  if (others.length === 0) return primary;
  const merged: Bill = { ...primary };
  for (const other of others) {
    if (merged.alternativeTitles === undefined && other.alternativeTitles !== undefined) {
      const titles = cleanAlternativeTitles(
        [other.title, ...other.alternativeTitles],
        merged.title,
      );
      if (titles !== undefined) merged.alternativeTitles = titles;
    }
    merged.summary ??= other.summary;
    merged.introducedDate ??= other.introducedDate;
    merged.rawStatus ??= other.rawStatus;
    merged.statusDate ??= other.statusDate;
    merged.url ??= other.url;
    merged.sourceId ??= other.sourceId;
    if (merged.sponsors.length === 0) merged.sponsors = other.sponsors;
    if (merged.cosponsors.length === 0) merged.cosponsors = other.cosponsors;
    if (merged.subjects.length === 0) merged.subjects = other.subjects;
    if (merged.actions.length === 0) merged.actions = other.actions;
    if (merged.texts.length === 0) merged.texts = other.texts;
    if (merged.votes.length === 0) merged.votes = other.votes;
    // Who voted how, where the kept record gives totals only and the other lists the members.
    else merged.votes = withMembersFrom(merged.votes, other.votes);
    // What one source knows of a person and the other does not: the party, the seat.
    const fillParty = (sponsor: Sponsor): Sponsor => {
      if (sponsor.party !== null && sponsor.district !== undefined) return sponsor;
      const match = [...other.sponsors, ...other.cosponsors].find((candidate) =>
        sameSponsor(candidate, sponsor),
      );
      if (match === undefined) return sponsor;
      const party = sponsor.party ?? match.party;
      const district = sponsor.district ?? match.district;
      return {
        name: sponsor.name,
        role: sponsor.role,
        party,
        ...(district === undefined ? {} : { district }),
        externalId: sponsor.externalId,
      };
    };
    merged.sponsors = merged.sponsors.map(fillParty);
    merged.cosponsors = merged.cosponsors.map(fillParty);
  }
  return { ...merged, changeHash: billChangeHash(merged) };
}
