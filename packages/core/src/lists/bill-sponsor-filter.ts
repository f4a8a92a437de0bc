import type { Sponsor } from '../bills/bill.ts';
import { foldText } from './bill-search-index.ts';

// The Tracked list's sponsor filter: the bills a person sponsors or cosponsors. A person is known
// by a key that travels in the list's URL (`sponsor=`): the source's id for them where the bill
// gives one ("id:K000384", a bioguide id; LegiScan's people_id; an Open States ocd-person id),
// else their name folded ("name:tim kaine": case, accents, spaces and punctuation do not
// matter). A person listed with an id on one bill and without one on another (two sources) is
// two keys: names alone are too loose to join on where an id says who it is.

export type SponsorLike = Pick<Sponsor, 'name' | 'externalId'>;

/** A name as the key compares it: folded, words joined by single spaces. */
export function foldPersonName(name: string): string {
  return foldText(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The key of the person a sponsor entry names. */
export function sponsorKey(sponsor: SponsorLike): string {
  const id = sponsor.externalId?.trim() ?? '';
  return id === '' ? `name:${foldPersonName(sponsor.name)}` : `id:${id}`;
}

/** The sponsors and cosponsors of a bill, as the list reads them (older rows may lack them). */
export interface SponsoredBill {
  readonly sponsors?: readonly SponsorLike[];
  readonly cosponsors?: readonly SponsorLike[];
}

/**
 * The people named on the bills of a catalog, each given a number once, so that a bill keeps its
 * sponsors as a few numbers (a typed array) instead of strings: a Congress with 15,000 bills and
 * dozens of cosponsors each costs kilobytes, and a filter compares integers.
 */
export class SponsorPeople {
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];

  /** The numbers of the people a bill names, ascending, each once. */
  numbersOf(bill: SponsoredBill): Int32Array {
    const found = new Set<number>();
    for (const sponsor of [...(bill.sponsors ?? []), ...(bill.cosponsors ?? [])]) {
      const key = sponsorKey(sponsor);
      let number = this.numbers.get(key);
      if (number === undefined) {
        number = this.names.length;
        this.numbers.set(key, number);
        // The first spelling met names the person on the filter's chip.
        this.names.push(sponsor.name);
      }
      found.add(number);
    }
    return Int32Array.from([...found].sort((a, b) => a - b));
  }

  /** The number of a key; undefined for a person no bill named. */
  numberOf(key: string): number | undefined {
    return this.numbers.get(key);
  }

  /** The name of the person a key stands for, as a bill spells it; null for one no bill named. */
  nameOf(key: string): string | null {
    const number = this.numbers.get(key);
    return number === undefined ? null : (this.names[number] ?? null);
  }
}

/** Whether a bill's sorted person numbers hold a person. */
export function namesPerson(people: Int32Array, person: number): boolean {
  let low = 0;
  let high = people.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = people[middle] ?? 0;
    if (value === person) return true;
    if (value < person) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
