import { parseBillIdentifier } from '../bills/bill-identifiers.ts';

// Full-text search over bills: a small inverted index from folded words to the bills that hold
// them. Hand-written rather than a library because the tracked list needs three things at once:
// adding and removing single bills as imports land (no rebuild), prefix matching of the word
// being typed, and answers as plain document numbers the list's filters can intersect cheaply.
//
// Documents are numbered by the caller (the bill catalog); a number is never reused, so a
// removed document's postings can stay behind, skipped, until enough of them pile up to compact.

/** What a bill offers to search: identifier, titles, summary, subjects, sponsors, action text. */
export interface SearchableBill {
  readonly identifier: string;
  readonly type: string;
  readonly number: string;
  readonly title: string;
  readonly alternativeTitles?: readonly string[] | undefined;
  readonly summary: string | null;
  readonly subjects: readonly string[];
  readonly sponsors: readonly { readonly name: string }[];
  readonly cosponsors: readonly { readonly name: string }[];
  readonly actions: readonly { readonly text: string }[];
}

/** Longer tokens are cut: a hostile 100,000-letter word must not become a 100,000-letter key. */
export const MAX_TOKEN_LENGTH = 40;
/** The word being typed matches as a prefix from this many letters on; one letter would expand
 *  to most of the vocabulary and tell the reader nothing. */
export const MIN_PREFIX_LENGTH = 2;
const BUCKET_LENGTH = 2;
const MAX_QUERY_WORDS = 32;

const MARKS = /\p{M}+/gu;
// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters too
const ASCII = /^[\u0000-\u007f]*$/;
const WORD = /[\p{L}\p{N}]+/gu;

/** Case and diacritics do not matter: "Équité" and "equite" are the same word. */
export function foldText(text: string): string {
  // Most bill text is ASCII, and Unicode normalization is the slowest step of indexing.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The folded words of a text, in order, each cut to MAX_TOKEN_LENGTH. */
export function searchTokens(text: string): string[] {
  const words = foldText(text).match(WORD);
  if (words === null) return [];
  return words.map((word) =>
    word.length > MAX_TOKEN_LENGTH ? word.slice(0, MAX_TOKEN_LENGTH) : word,
  );
}

/**
 * The compact form of an identifier however it is written: "S.J.Res. 1", "sjres 1", "SJRES1"
 * and "S. J. Res. 1" all give "sjres1", "S.B. No. 5" and "House Bill 5" give "sb5" and "hb5",
 * "HB0001" gives "hb1". Null when the text is not letters followed by a number, so ordinary
 * queries ("climate change") are never taken for identifiers.
 */
export function identifierKey(text: string): string | null {
  if (text.length > 100) return null;
  const numbering = parseBillIdentifier(foldText(text), null);
  return numbering === null ? null : `${numbering.type}${numbering.number.toLowerCase()}`;
}

/** A bill's identifier key from its normalized parts (type 'sjres', number '1'). */
export function billIdentifierKey(bill: Pick<SearchableBill, 'type' | 'number'>): string {
  return `${bill.type}${bill.number}`.toLowerCase();
}

/** Every distinct token a bill is found by. */
export function billTokens(bill: SearchableBill): Set<string> {
  // One pass over all the text: folding and matching once is cheaper than once per field.
  const parts = [bill.identifier, bill.title, ...(bill.alternativeTitles ?? [])];
  if (bill.summary !== null) parts.push(bill.summary);
  parts.push(...bill.subjects);
  for (const sponsor of bill.sponsors) parts.push(sponsor.name);
  for (const sponsor of bill.cosponsors) parts.push(sponsor.name);
  for (const action of bill.actions) parts.push(action.text);
  const tokens = new Set(searchTokens(parts.join('\n')));
  tokens.add(bill.type.toLowerCase());
  tokens.add(billIdentifierKey(bill));
  return tokens;
}

interface Term {
  /** Posting lists whose union is the term's documents. */
  readonly lists: readonly (readonly number[])[];
  readonly size: number;
}

export class BillSearchIndex {
  private readonly postings = new Map<string, number[]>();
  /** Tokens by their first letters, so a prefix is expanded without scanning the vocabulary. */
  private readonly buckets = new Map<string, Set<string>>();
  private readonly identifiers = new Map<string, number[]>();
  /** Per document: 1 while indexed; the count of its postings, to know when to compact. */
  private alive = new Uint8Array(1024);
  private postingsOf = new Uint32Array(1024);
  private counts = new Uint8Array(1024);
  private livePostings = 0;
  private deadPostings = 0;
  private documents = 0;

  /** `compactAfter`: dead postings (at least, and more than live ones) that trigger a compaction. */
  constructor(private readonly options: { readonly compactAfter?: number } = {}) {}

  /** Indexed documents. */
  get size(): number {
    return this.documents;
  }

  has(doc: number): boolean {
    return doc < this.alive.length && this.alive[doc] === 1;
  }

  add(doc: number, bill: SearchableBill): void {
    if (!Number.isInteger(doc) || doc < 0) throw new RangeError(`bad document number ${doc}`);
    if (this.has(doc)) throw new Error(`document ${doc} is already indexed`);
    this.ensureCapacity(doc + 1);
    const tokens = billTokens(bill);
    for (const token of tokens) {
      let list = this.postings.get(token);
      if (list === undefined) {
        list = [];
        this.postings.set(token, list);
        if (token.length >= BUCKET_LENGTH) {
          const key = token.slice(0, BUCKET_LENGTH);
          let bucket = this.buckets.get(key);
          if (bucket === undefined) {
            bucket = new Set();
            this.buckets.set(key, bucket);
          }
          bucket.add(token);
        }
      }
      list.push(doc);
    }
    const key = billIdentifierKey(bill);
    const sameIdentifier = this.identifiers.get(key);
    if (sameIdentifier === undefined) this.identifiers.set(key, [doc]);
    else sameIdentifier.push(doc);
    this.alive[doc] = 1;
    this.postingsOf[doc] = tokens.size;
    this.livePostings += tokens.size;
    this.documents++;
  }

  remove(doc: number): void {
    if (!this.has(doc)) return;
    this.alive[doc] = 0;
    const count = this.postingsOf[doc] ?? 0;
    this.livePostings -= count;
    this.deadPostings += count;
    this.documents--;
    const threshold = this.options.compactAfter ?? 50_000;
    if (this.deadPostings > threshold && this.deadPostings > this.livePostings) this.compact();
  }

  /**
   * The documents matching every word of the query (the last word also as a prefix, unless the
   * query ends in a space), or, when the whole query is a bill identifier some bill has, just
   * those bills. Null for a query without words: no search, everything matches. Ascending order.
   */
  search(query: string): number[] | null {
    const words = searchTokens(query);
    if (words.length === 0) return null;
    const key = identifierKey(query);
    if (key !== null) {
      const named = (this.identifiers.get(key) ?? []).filter((doc) => this.alive[doc] === 1);
      if (named.length > 0) return named;
    }
    const typing = !/\s$/.test(query);
    // Counts are bytes: a query of more distinct words than that is cut, not miscounted.
    const terms = [...new Set(words)]
      .slice(0, MAX_QUERY_WORDS)
      .map((word, index, all) =>
        typing && index === all.length - 1 && word.length >= MIN_PREFIX_LENGTH
          ? this.prefixTerm(word)
          : this.exactTerm(word),
      );
    return this.intersect(terms);
  }

  private exactTerm(word: string): Term {
    const list = this.postings.get(word);
    return list === undefined ? { lists: [], size: 0 } : { lists: [list], size: list.length };
  }

  private prefixTerm(prefix: string): Term {
    const bucket = this.buckets.get(prefix.slice(0, BUCKET_LENGTH));
    if (bucket === undefined) return { lists: [], size: 0 };
    const lists: number[][] = [];
    let size = 0;
    for (const token of bucket) {
      if (!token.startsWith(prefix)) continue;
      const list = this.postings.get(token);
      if (list === undefined) continue;
      lists.push(list);
      size += list.length;
    }
    return { lists, size };
  }

  // Counting intersection: a document's count reaches i+1 only if it was at i, so each term
  // counts once per document however many of its lists (prefix expansions) hold it. Only
  // documents of the smallest term can count at all, so only those are reset afterwards.
  private intersect(terms: Term[]): number[] {
    terms.sort((a, b) => a.size - b.size);
    const first = terms[0];
    if (first === undefined || first.size === 0) return [];
    const counts = this.counts;
    const alive = this.alive;
    const only = terms.length === 1 ? first.lists[0] : undefined;
    if (only !== undefined && first.lists.length === 1) {
      // One word of one token: its list is the answer, less removed documents.
      const found: number[] = [];
      for (const doc of only) if (alive[doc] === 1) found.push(doc);
      return found;
    }
    terms.forEach((term, index) => {
      const next = index + 1;
      for (const list of term.lists) {
        for (const doc of list) if (counts[doc] === index) counts[doc] = next;
      }
    });
    const all = terms.length;
    const found: number[] = [];
    // A prefix's lists overlap and are each in order, not together. When they are large next to
    // the document numbers, reading the counts back in document order gives the union sorted in
    // one pass over a typed array, where sorting thousands of matches by a comparison took most
    // of a search's time; when they are small, they are collected and sorted.
    const scan = first.lists.length > 1 && first.size * 8 >= counts.length;
    if (!scan) {
      for (const list of first.lists) {
        for (const doc of list) {
          if (counts[doc] === all && alive[doc] === 1) found.push(doc);
          counts[doc] = 0;
        }
      }
      if (first.lists.length > 1) found.sort((a, b) => a - b);
      return found;
    }
    for (let doc = 0; doc < counts.length; doc++) {
      if (counts[doc] === 0) continue;
      if (counts[doc] === all && alive[doc] === 1) found.push(doc);
      counts[doc] = 0;
    }
    return found;
  }

  private compact(): void {
    const alive = this.alive;
    for (const [token, list] of this.postings) {
      const kept = list.filter((doc) => alive[doc] === 1);
      if (kept.length > 0) {
        this.postings.set(token, kept);
        continue;
      }
      this.postings.delete(token);
      this.buckets.get(token.slice(0, BUCKET_LENGTH))?.delete(token);
    }
    for (const [key, list] of this.identifiers) {
      const kept = list.filter((doc) => alive[doc] === 1);
      if (kept.length > 0) this.identifiers.set(key, kept);
      else this.identifiers.delete(key);
    }
    this.deadPostings = 0;
  }

  private ensureCapacity(size: number): void {
    if (size <= this.alive.length) return;
    let capacity = this.alive.length;
    while (capacity < size) capacity *= 2;
    const alive = new Uint8Array(capacity);
    alive.set(this.alive);
    this.alive = alive;
    const postingsOf = new Uint32Array(capacity);
    postingsOf.set(this.postingsOf);
    this.postingsOf = postingsOf;
    // Counts are all zero between searches, so a fresh array is the same array.
    this.counts = new Uint8Array(capacity);
  }
}
