// Anchoring annotations to a passage of a bill's text so that they survive a re-import that
// changes the text. An annotation keeps two W3C Web Annotation selectors: a TextQuoteSelector
// (the passage itself with ~32 characters of context on each side) and a TextPositionSelector.
// `anchor` looks for the passage in the new text in three tiers and stops at the first that
// gives an answer it can trust:
//
//   1. Position: the old offsets still hold the passage with its whole context (unchanged text).
//   2. Quote: every occurrence of the passage, ranked by how much context agrees with the
//      stored prefix and suffix, then by nearness to the old position.
//   3. Fuzzy: the same in a copy of the text with whitespace runs collapsed, and then with up to
//      a few edited characters (about one in eight, at most 16), found by splitting the quote
//      into pieces of which at least one must survive intact, then aligning around each hit.
//
// A match is trusted when its context agrees on one side for at least 8 characters (or all the
// stored context of that side, near the edge of the text), or when the passage is long enough
// (32 characters) to stand for itself. Short passages are never moved to an identical phrase
// elsewhere whose surroundings differ: "the Secretary shall" occurs in every section, and a
// highlight silently jumping to another section is worse than an orphan, which the caller keeps
// and shows with its quote. A trusted exact match beats a trusted fuzzy one; when nothing is
// trusted, a long passage takes its best match, anything else is an orphan (null).
//
// Offsets are UTF-16 code units, as in JavaScript strings and DOM ranges. (The W3C model counts
// code points; an exporter converts.) Everything here is plain string arithmetic: text is never
// parsed or evaluated, so markup or scripts in a bill or a selection are just characters.

export const DEFAULT_CONTEXT_LENGTH = 32;
/** Characters of agreeing context, on one side, that make a match trustworthy. */
export const MIN_CONTEXT_SUPPORT = 8;
/** A passage at least this long (whitespace collapsed) is trusted without its context. */
export const DISTINCTIVE_QUOTE_LENGTH = 32;
/** The most edited characters a fuzzy match may have. */
export const MAX_FUZZY_ERRORS = 16;
// Limits on the work one anchor may do in hostile text (one letter repeated a million times),
// spent on the occurrences nearest the old position first.
const MAX_OCCURRENCES = 50_000;
const MAX_FUZZY_WINDOWS = 1_000;

export interface TextQuoteSelector {
  type: 'TextQuoteSelector';
  exact: string;
  prefix: string;
  suffix: string;
}

export interface TextPositionSelector {
  type: 'TextPositionSelector';
  start: number;
  end: number;
}

export interface TextSelectors {
  quote: TextQuoteSelector;
  position: TextPositionSelector;
}

/** The selectors as an annotation row stores them (with or without W3C's `type`). */
export interface StoredTextSelectors {
  quote: { exact: string; prefix: string; suffix: string };
  position: { start: number; end: number };
}

export interface TextRange {
  start: number;
  end: number;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * The selectors of the passage [start, end) of `text`. The context is cut so that it never
 * splits a surrogate pair, which would not survive a round trip through UTF-8 (sync, export).
 */
export function describeSelection(
  text: string,
  start: number,
  end: number,
  contextLength = DEFAULT_CONTEXT_LENGTH,
): TextSelectors {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length) {
    throw new RangeError(`The selection ${start}–${end} is not inside the text.`);
  }
  if (end <= start) throw new RangeError('The selection is empty.');
  if (!Number.isInteger(contextLength) || contextLength < 0) {
    throw new RangeError(`The context length must be a whole number, not ${contextLength}.`);
  }
  let prefixStart = Math.max(0, start - contextLength);
  if (
    prefixStart > 0 &&
    isLowSurrogate(text.charCodeAt(prefixStart)) &&
    isHighSurrogate(text.charCodeAt(prefixStart - 1))
  ) {
    prefixStart++;
  }
  let suffixEnd = Math.min(text.length, end + contextLength);
  if (
    suffixEnd < text.length &&
    isHighSurrogate(text.charCodeAt(suffixEnd - 1)) &&
    isLowSurrogate(text.charCodeAt(suffixEnd))
  ) {
    suffixEnd--;
  }
  return {
    quote: {
      type: 'TextQuoteSelector',
      exact: text.slice(start, end),
      prefix: text.slice(prefixStart, start),
      suffix: text.slice(end, suffixEnd),
    },
    position: { type: 'TextPositionSelector', start, end },
  };
}

// --- context agreement ----------------------------------------------------------------------

/** How many characters right before `at` agree with the end of `prefix`. */
function agreementBefore(text: string, at: number, prefix: string): number {
  let n = 0;
  while (
    n < prefix.length &&
    at - n - 1 >= 0 &&
    text.charCodeAt(at - n - 1) === prefix.charCodeAt(prefix.length - n - 1)
  ) {
    n++;
  }
  return n;
}

/** How many characters from `at` on agree with the start of `suffix`. */
function agreementAfter(text: string, at: number, suffix: string): number {
  let n = 0;
  while (
    n < suffix.length &&
    at + n < text.length &&
    text.charCodeAt(at + n) === suffix.charCodeAt(n)
  ) {
    n++;
  }
  return n;
}

/**
 * One side vouches for a match when enough of its context agrees. An empty stored side means the
 * passage touched the edge of the text, so only a match at the same edge agrees with it (a
 * passage that was the whole text, such as a selected title, keeps its place while it still
 * starts or ends the text).
 */
function sideSupports(context: string, agreement: number, atEdge: boolean): boolean {
  if (context.length === 0) return atEdge;
  return agreement >= Math.min(MIN_CONTEXT_SUPPORT, context.length);
}

interface Candidate {
  /** In the original text. */
  start: number;
  end: number;
  errors: number;
  agreement: number;
  supported: boolean;
  /** From the old start, in the original text. */
  distance: number;
}

/** Whether `a` is the better answer: trusted, fewer edits, more context, nearer, earlier. */
function isBetter(a: Candidate, b: Candidate | null): boolean {
  if (b === null) return true;
  if (a.supported !== b.supported) return a.supported;
  if (a.errors !== b.errors) return a.errors < b.errors;
  if (a.agreement !== b.agreement) return a.agreement > b.agreement;
  if (a.distance !== b.distance) return a.distance < b.distance;
  return a.start < b.start;
}

interface Quote {
  exact: string;
  prefix: string;
  suffix: string;
}

/** Scores the match [start, end) of `quote` in `text` (whichever form of the text it is). */
function score(
  text: string,
  start: number,
  end: number,
  quote: Quote,
): { agreement: number; supported: boolean } {
  const before = agreementBefore(text, start, quote.prefix);
  const after = agreementAfter(text, end, quote.suffix);
  return {
    agreement: before + after,
    supported:
      sideSupports(quote.prefix, before, start === 0) ||
      sideSupports(quote.suffix, after, end === text.length),
  };
}

/**
 * Occurrences of `needle` in `haystack`, nearest to `from` first, alternating forwards and
 * backwards; `visit` returns false to stop early.
 */
function scanOutward(
  haystack: string,
  needle: string,
  from: number,
  limit: number,
  visit: (index: number) => boolean,
): void {
  let forward = haystack.indexOf(needle, from);
  let backward = from > 0 ? haystack.lastIndexOf(needle, from - 1) : -1;
  let seen = 0;
  while ((forward !== -1 || backward !== -1) && seen < limit) {
    const takeForward = backward === -1 || (forward !== -1 && forward - from <= from - backward);
    const index = takeForward ? forward : backward;
    seen++;
    if (!visit(index)) return;
    if (takeForward) forward = haystack.indexOf(needle, forward + 1);
    else backward = backward > 0 ? haystack.lastIndexOf(needle, backward - 1) : -1;
  }
}

// --- whitespace-collapsed text ---------------------------------------------------------------

/**
 * The text with every whitespace run as one space, and the way back to the original offsets.
 * Only runs longer than one character shift offsets, so only those are remembered.
 */
class CollapsedText {
  readonly text: string;
  /** Per run longer than one character: its space's index here, its original extent, and the
   * characters all runs so far dropped. */
  private readonly runAt: number[] = [];
  private readonly runStart: number[] = [];
  private readonly runEnd: number[] = [];
  private readonly dropped: number[] = [];

  constructor(original: string) {
    const parts: string[] = [];
    let last = 0;
    let droppedSoFar = 0;
    for (const match of original.matchAll(/\s+/g)) {
      const at = match.index;
      parts.push(original.slice(last, at), ' ');
      const length = match[0].length;
      if (length > 1) {
        this.runAt.push(at - droppedSoFar);
        this.runStart.push(at);
        this.runEnd.push(at + length);
        droppedSoFar += length - 1;
        this.dropped.push(droppedSoFar);
      }
      last = at + length;
    }
    parts.push(original.slice(last));
    this.text = parts.join('');
  }

  /** The last run whose key is at most `value`, or -1. */
  private lastRun(keys: readonly number[], value: number): number {
    let low = 0;
    let high = keys.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((keys[mid] ?? 0) <= value) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /** Where the collapsed character at `index` starts in the original. */
  originalStart(index: number): number {
    const run = this.lastRun(this.runAt, index);
    if (run === -1) return index;
    if (this.runAt[run] === index) return this.runStart[run] ?? index;
    return index + (this.dropped[run] ?? 0);
  }

  /** Where the collapsed character at `index` ends in the original. */
  originalEnd(index: number): number {
    const run = this.lastRun(this.runAt, index);
    if (run !== -1 && this.runAt[run] === index) return this.runEnd[run] ?? index + 1;
    return this.originalStart(index) + 1;
  }

  /** The collapsed offset of an original one. */
  collapsedOffset(original: number): number {
    const run = this.lastRun(this.runStart, original);
    if (run === -1) return original;
    if (original < (this.runEnd[run] ?? 0)) return this.runAt[run] ?? original;
    return original - (this.dropped[run] ?? 0);
  }
}

const collapse = (value: string): string => value.replace(/\s+/g, ' ');

// --- approximate matching -------------------------------------------------------------------

/** The edits a fuzzy match of a quote of this length may have. */
export function allowedErrors(quoteLength: number): number {
  return Math.min(MAX_FUZZY_ERRORS, Math.floor(quoteLength / 8));
}

interface Alignment {
  start: number;
  end: number;
  errors: number;
}

/**
 * Best alignments of the whole `pattern` against some substring of `text` starting within
 * [windowStart, windowStart + 2k]: edit distance (Sellers) in a diagonal band wide enough for
 * k edits, so the work is |pattern| × (4k + 1). Returns every end with the least distance.
 */
function alignInWindow(text: string, pattern: string, windowStart: number, k: number): Alignment[] {
  const m = pattern.length;
  const width = Math.min(text.length - windowStart, m + 2 * k);
  if (width <= 0) return [];
  const INF = 1 << 29;
  let prev = new Int32Array(width + 1).fill(INF);
  let prevStart = new Int32Array(width + 1);
  let cur = new Int32Array(width + 1).fill(INF);
  let curStart = new Int32Array(width + 1);
  // Row 0: the match may begin anywhere in the first 2k characters of the window, for free.
  for (let j = 0; j <= Math.min(width, 2 * k); j++) {
    prev[j] = 0;
    prevStart[j] = j;
  }
  let prevLow = 0;
  let prevHigh = Math.min(width, 2 * k);
  for (let i = 1; i <= m; i++) {
    const low = Math.max(0, i - k);
    const high = Math.min(width, i + 3 * k);
    const patternCode = pattern.charCodeAt(i - 1);
    for (let j = low; j <= high; j++) {
      let best = INF;
      let bestStart = 0;
      // Ties prefer the diagonal, so a changed first or last character is kept in the match
      // rather than left out of it.
      if (j >= 1 && j - 1 >= prevLow && j - 1 <= prevHigh) {
        const cost =
          (prev[j - 1] ?? INF) + (text.charCodeAt(windowStart + j - 1) === patternCode ? 0 : 1);
        if (cost < best) {
          best = cost;
          bestStart = prevStart[j - 1] ?? 0;
        }
      }
      if (j >= prevLow && j <= prevHigh) {
        const cost = (prev[j] ?? INF) + 1;
        if (cost < best) {
          best = cost;
          bestStart = prevStart[j] ?? 0;
        }
      }
      if (j - 1 >= low) {
        const cost = (cur[j - 1] ?? INF) + 1;
        if (cost < best) {
          best = cost;
          bestStart = curStart[j - 1] ?? 0;
        }
      }
      cur[j] = best;
      curStart[j] = bestStart;
    }
    [prev, cur] = [cur, prev];
    [prevStart, curStart] = [curStart, prevStart];
    // No reset: cells outside a row's band are never read, so the old values can stay.
    prevLow = low;
    prevHigh = high;
  }
  let least = INF;
  for (let j = prevLow; j <= prevHigh; j++) least = Math.min(least, prev[j] ?? INF);
  if (least > k) return [];
  const found: Alignment[] = [];
  for (let j = prevLow; j <= prevHigh; j++) {
    if (prev[j] === least) {
      found.push({ start: windowStart + (prevStart[j] ?? 0), end: windowStart + j, errors: least });
    }
  }
  return found;
}

/**
 * Starts of windows that may hold a match of `pattern` with at most k edits: split into k + 1
 * pieces, at least one of which such a match contains unchanged (the pigeonhole principle).
 */
function fuzzyWindows(text: string, pattern: string, k: number, near: number): number[] {
  const pieces = k + 1;
  const implied = new Map<number, number>();
  for (let piece = 0; piece < pieces; piece++) {
    const from = Math.floor((piece * pattern.length) / pieces);
    const to = Math.floor(((piece + 1) * pattern.length) / pieces);
    const needle = pattern.slice(from, to);
    if (needle === '') continue;
    scanOutward(text, needle, Math.max(0, near + from), MAX_FUZZY_WINDOWS, (index) => {
      const windowStart = Math.max(0, index - from - k);
      implied.set(windowStart, Math.abs(windowStart + k - near));
      return true;
    });
  }
  return [...implied.entries()]
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .slice(0, MAX_FUZZY_WINDOWS)
    .map(([windowStart]) => windowStart);
}

// --- anchoring ------------------------------------------------------------------------------

function exactMatches(
  text: string,
  quote: Quote,
  oldStart: number,
  originalOld: number,
  toOriginal: (start: number, end: number) => TextRange,
): Candidate | null {
  let best: Candidate | null = null;
  const full = quote.prefix.length + quote.suffix.length;
  scanOutward(text, quote.exact, oldStart, MAX_OCCURRENCES, (index) => {
    const end = index + quote.exact.length;
    const range = toOriginal(index, end);
    const candidate: Candidate = {
      ...range,
      errors: 0,
      ...score(text, index, end, quote),
      distance: Math.abs(range.start - originalOld),
    };
    if (isBetter(candidate, best)) best = candidate;
    // Candidates come nearest first, so once one agrees with all its context nothing later
    // can beat it.
    return !(candidate.supported && candidate.agreement === full);
  });
  return best;
}

function fuzzyMatches(
  collapsed: CollapsedText,
  quote: Quote,
  oldStart: number,
  originalOld: number,
): Candidate | null {
  const k = allowedErrors(quote.exact.length);
  if (k === 0) return null;
  let best: Candidate | null = null;
  for (const windowStart of fuzzyWindows(collapsed.text, quote.exact, k, oldStart)) {
    for (const alignment of alignInWindow(collapsed.text, quote.exact, windowStart, k)) {
      if (alignment.end <= alignment.start) continue;
      const start = collapsed.originalStart(alignment.start);
      const candidate: Candidate = {
        start,
        end: collapsed.originalEnd(alignment.end - 1),
        errors: alignment.errors,
        ...score(collapsed.text, alignment.start, alignment.end, quote),
        distance: Math.abs(start - originalOld),
      };
      if (isBetter(candidate, best)) best = candidate;
    }
  }
  return best;
}

/**
 * Where the passage the selectors describe is in `text` now, or null when it cannot be found
 * with confidence (an orphan: keep it, show its quote).
 */
export function anchor(text: string, selectors: StoredTextSelectors): TextRange | null {
  const { exact, prefix, suffix } = selectors.quote;
  if (exact === '') return null;
  const rawOld = selectors.position.start;
  const oldStart = Number.isInteger(rawOld) ? Math.min(Math.max(rawOld, 0), text.length) : 0;

  // 1. Unchanged text: the passage and all its context where they were.
  if (
    text.startsWith(exact, oldStart) &&
    agreementBefore(text, oldStart, prefix) === prefix.length &&
    agreementAfter(text, oldStart + exact.length, suffix) === suffix.length
  ) {
    return { start: oldStart, end: oldStart + exact.length };
  }

  // 2. The exact quote elsewhere.
  const quote: Quote = { exact, prefix, suffix };
  const exactBest = exactMatches(text, quote, oldStart, oldStart, (start, end) => ({
    start,
    end,
  }));
  if (exactBest?.supported) return { start: exactBest.start, end: exactBest.end };

  // 3. Whitespace collapsed, then a few edited characters.
  const collapsed = new CollapsedText(text);
  const collapsedQuote: Quote = {
    exact: collapse(exact),
    prefix: collapse(prefix),
    suffix: collapse(suffix),
  };
  const collapsedOld = collapsed.collapsedOffset(oldStart);
  let fuzzyBest: Candidate | null = null;
  if (collapsedQuote.exact.trim() !== '') {
    fuzzyBest = exactMatches(
      collapsed.text,
      collapsedQuote,
      collapsedOld,
      oldStart,
      (start, end) => ({
        start: collapsed.originalStart(start),
        end: collapsed.originalEnd(end - 1),
      }),
    );
    if (!fuzzyBest?.supported) {
      const edited = fuzzyMatches(collapsed, collapsedQuote, collapsedOld, oldStart);
      if (edited !== null && isBetter(edited, fuzzyBest)) fuzzyBest = edited;
    }
  }
  if (fuzzyBest?.supported) return { start: fuzzyBest.start, end: fuzzyBest.end };

  // Nothing vouched for by its context: only a passage distinctive on its own may move.
  if (collapsedQuote.exact.trim().length < DISTINCTIVE_QUOTE_LENGTH) return null;
  const fallback = exactBest ?? fuzzyBest;
  return fallback === null ? null : { start: fallback.start, end: fallback.end };
}
