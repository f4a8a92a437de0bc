import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { TextRange, TextSelectors } from './text-anchoring.ts';
import {
  allowedErrors,
  anchor,
  describeSelection,
  DISTINCTIVE_QUOTE_LENGTH,
  MIN_CONTEXT_SUPPORT,
} from './text-anchoring.ts';

// Re-anchoring after a bill's text changes: edits around a passage never lose it, a deleted
// passage becomes an orphan instead of jumping to a look-alike, and small edits inside it are
// forgiven.

const legalWords = [
  'the',
  'Secretary',
  'shall',
  'submit',
  'a',
  'report',
  'to',
  'Congress',
  'on',
  'of',
  'in',
  'section',
  'subsection',
  '(a)',
  '(b)',
  'State',
  'may',
  'not',
  'funds',
  'appropriated',
  'under',
  'this',
  'Act',
  'for',
  'fiscal',
  'year',
  '2025',
  'amended',
  'by',
  'striking',
  'inserting',
  'and',
  'or',
  'any',
  'person',
  'who',
  'is',
  'eligible',
  'program',
  'grant',
] as const;
const separators = [' ', ' ', ' ', ', ', '. ', '\n'] as const;

/** Text from a small vocabulary, with the bias fast-check likes: repeats are common. */
const repetitiveText = (maxWords: number): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.constantFrom(...legalWords), fc.constantFrom(...separators)), {
      maxLength: maxWords,
    })
    .map((pairs) => pairs.map(([word, sep]) => word + sep).join(''));

/** What a hostile or careless source puts in a bill: all of it is just characters here. */
const hostileFragments = [
  '<img src=x onerror=alert(1)>',
  '<script>alert("x")</script>',
  'javascript:alert(1)',
  '"; DROP TABLE bills; --',
  'שלום עולם',
  'مرحبا بالعالم',
  '\u202eevil\u202c',
  '\u200f',
  '😀👍🏽',
  '(.*+?^$[](){}|\\)',
  '&lt;b&gt;',
  'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(40),
  'the',
  'Secretary',
] as const;
const hostileText = (maxWords: number): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.constantFrom(...hostileFragments), fc.constantFrom(...separators)), {
      maxLength: maxWords,
    })
    .map((pairs) => pairs.map(([word, sep]) => word + sep).join(''));

/** Text whose words are drawn from thousands, without bias: a long span is almost surely unique. */
const syllables = ['ba', 'de', 'ki', 'lo', 'mu', 'na', 're', 'si', 'to', 'vu', 'za', 'qe'];
const rareWord = fc
  .noBias(fc.integer({ min: 0, max: 12 ** 4 - 1 }))
  .map((n) =>
    [n % 12, Math.floor(n / 12) % 12, Math.floor(n / 144) % 12, Math.floor(n / 1728)]
      .map((i) => syllables[i] ?? '')
      .join(''),
  );
const variedText = (maxWords: number): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(rareWord, fc.noBias(fc.constantFrom(...separators))), { maxLength: maxWords })
    .map((pairs) => pairs.map(([word, sep]) => word + sep).join(''));

interface Edit {
  kind: 'insert' | 'delete';
  /** Where, as a fraction of the text's length, so shrinking keeps it in range. */
  at: number;
  length: number;
  text: string;
}
const edits = (insertText: fc.Arbitrary<string>): fc.Arbitrary<Edit[]> =>
  fc.array(
    fc.record({
      kind: fc.constantFrom('insert' as const, 'delete' as const),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      length: fc.integer({ min: 1, max: 40 }),
      text: insertText,
    }),
    { maxLength: 8 },
  );

/**
 * Applies the edits that stay out of [from, to) (the passage and whatever else is protected),
 * following where the passage goes. `lockStart`/`lockEnd` also keep the edge of the text where
 * it is, when the protected context reaches it.
 */
function applyAround(
  text: string,
  passage: TextRange,
  protectedRange: TextRange,
  list: readonly Edit[],
  locks: { start: boolean; end: boolean } = { start: false, end: false },
): { text: string; passage: TextRange } {
  let current = text;
  let { start, end } = passage;
  let from = protectedRange.start;
  let to = protectedRange.end;
  for (const edit of list) {
    const at = Math.min(current.length, Math.floor(edit.at * (current.length + 1)));
    if (edit.kind === 'insert') {
      if (at > from && at < to) continue;
      if (locks.start && at === 0 && from === 0) continue;
      if (locks.end && at === current.length && to === current.length) continue;
      current = current.slice(0, at) + edit.text + current.slice(at);
      if (at <= from) {
        start += edit.text.length;
        end += edit.text.length;
        from += edit.text.length;
        to += edit.text.length;
      }
    } else {
      const stop = Math.min(current.length, at + edit.length);
      if (!(stop <= from || at >= to)) continue;
      current = current.slice(0, at) + current.slice(stop);
      if (stop <= from) {
        start -= stop - at;
        end -= stop - at;
        from -= stop - at;
        to -= stop - at;
      }
    }
  }
  return { text: current, passage: { start, end } };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/** Characters of context that agree around a range, as the anchor measures them. */
function contextAgreement(text: string, range: TextRange, selectors: TextSelectors): number {
  const { prefix, suffix } = selectors.quote;
  let before = 0;
  while (
    before < prefix.length &&
    range.start - before - 1 >= 0 &&
    text[range.start - before - 1] === prefix[prefix.length - before - 1]
  ) {
    before++;
  }
  let after = 0;
  while (after < suffix.length && text[range.end + after] === suffix[after]) after++;
  return before + after;
}

/** A passage of a text, picked by two fractions so that shrinking keeps it valid. */
function pick(text: string, a: number, b: number, minLength = 1): TextRange | null {
  if (text.length < minLength) return null;
  const start = Math.floor(a * (text.length - minLength + 1));
  const end = start + minLength + Math.floor(b * (text.length - start - minLength + 1));
  return { start, end: Math.min(end, text.length) };
}

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

// How often the strong branch of a property ran, so a generator that drifts into only ever
// testing the weak branch is noticed.
const coverage = { unique: 0, repeated: 0, longUnique: 0, fuzzy: 0 };
afterAll(() => {
  expect(coverage.unique).toBeGreaterThan(50);
  expect(coverage.repeated).toBeGreaterThan(20);
  expect(coverage.longUnique).toBeGreaterThan(100);
  expect(coverage.fuzzy).toBeGreaterThan(50);
});

describe('re-anchoring: edits around a passage', () => {
  it('finds an unchanged text passage at its old position, for any text and selection', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }),
        fraction,
        fraction,
        (text, a, b) => {
          const range = pick(text, a, b);
          if (range === null) return;
          expect(anchor(text, describeSelection(text, range.start, range.end))).toEqual(range);
        },
      ),
    );
  });

  it.each([
    ['legal prose', repetitiveText],
    ['hostile text (markup, scripts, right-to-left, very long words)', hostileText],
  ])(
    'finds the passage again exactly when edits keep 8 characters of context on one side: %s',
    (_kind, textOf) => {
      fc.assert(
        fc.property(
          textOf(40),
          fraction,
          fraction,
          fc.constantFrom('before' as const, 'after' as const),
          edits(textOf(6)),
          (original, a, b, guarded, list) => {
            const range = pick(original, a, b);
            if (range === null) return;
            const selectors = describeSelection(original, range.start, range.end);
            const { exact } = selectors.quote;
            // The guarded side keeps its nearest characters, and the edge of the text when the
            // passage is closer to it than that.
            const protectedRange =
              guarded === 'before'
                ? { start: Math.max(0, range.start - MIN_CONTEXT_SUPPORT), end: range.end }
                : {
                    start: range.start,
                    end: Math.min(original.length, range.end + MIN_CONTEXT_SUPPORT),
                  };
            const changed = applyAround(original, range, protectedRange, list, {
              start: guarded === 'before',
              end: guarded === 'after',
            });
            const found = anchor(changed.text, selectors);
            expect(found).not.toBeNull();
            if (found === null) return;
            expect(changed.text.slice(found.start, found.end)).toBe(exact);
            if (occurrences(changed.text, exact).length === 1) {
              coverage.unique++;
              expect(found).toEqual(changed.passage);
            } else {
              // Several copies: the one chosen agrees with at least as much context.
              coverage.repeated++;
              expect(contextAgreement(changed.text, found, selectors)).toBeGreaterThanOrEqual(
                contextAgreement(changed.text, changed.passage, selectors),
              );
            }
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it(`finds a passage of ${DISTINCTIVE_QUOTE_LENGTH}+ characters exactly after any edits around it`, () => {
    fc.assert(
      fc.property(
        variedText(60),
        fraction,
        fraction,
        edits(variedText(8)),
        (original, a, b, list) => {
          const range = pick(original, a, b, DISTINCTIVE_QUOTE_LENGTH + 2);
          if (range === null) return;
          const selectors = describeSelection(original, range.start, range.end);
          if (selectors.quote.exact.replace(/\s+/g, ' ').trim().length < DISTINCTIVE_QUOTE_LENGTH) {
            return;
          }
          // Right up to the passage on both sides: its whole context may go.
          const changed = applyAround(original, range, range, list);
          const found = anchor(changed.text, selectors);
          if (occurrences(changed.text, selectors.quote.exact).length === 1) {
            coverage.longUnique++;
            expect(found).toEqual(changed.passage);
          } else {
            expect(found).not.toBeNull();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Passages the surrounding text cannot contain by accident: capitals, spaces between. */
const capitalPassage = fc
  .array(fc.stringMatching(/^[A-Z]{1,9}$/), { minLength: 1, maxLength: 8 })
  .map((words) => words.join(' '));
const lowerText = fc.stringMatching(/^[a-z ,.\n]{0,120}$/);
const digits = fc.stringMatching(/^[0-9]{1,6}$/);

describe('re-anchoring: a deleted passage', () => {
  it('is an orphan when nothing like it remains', () => {
    fc.assert(
      fc.property(
        lowerText,
        capitalPassage,
        lowerText,
        edits(lowerText),
        (before, passage, after, list) => {
          const original = before + passage + after;
          const selectors = describeSelection(
            original,
            before.length,
            before.length + passage.length,
          );
          const without = before + after;
          const at = before.length;
          const changed = applyAround(
            without,
            { start: at, end: at },
            { start: at, end: at },
            list,
          );
          expect(anchor(changed.text, selectors)).toBeNull();
        },
      ),
    );
  });

  it('moves to an identical passage that kept the same context', () => {
    fc.assert(
      fc.property(
        lowerText,
        capitalPassage,
        lowerText,
        lowerText,
        fraction,
        (before, passage, after, elsewhere, where) => {
          const original = before + passage + after;
          const selectors = describeSelection(
            original,
            before.length,
            before.length + passage.length,
          );
          const { prefix, suffix } = selectors.quote;
          const remaining = before + after + elsewhere;
          const at = Math.floor(where * (remaining.length + 1));
          // An empty prefix (suffix) says the passage began (ended) the text: its context is the
          // text's edge, kept only where the copy is put at that edge too.
          fc.pre(prefix !== '' || at === 0);
          fc.pre(suffix !== '' || at === remaining.length);
          const text = remaining.slice(0, at) + prefix + passage + suffix + remaining.slice(at);
          const start = at + prefix.length;
          expect(anchor(text, selectors)).toEqual({ start, end: start + passage.length });
        },
      ),
    );
  });

  it('does not move a short passage to a copy with other context; a long one does follow', () => {
    fc.assert(
      fc.property(
        lowerText,
        capitalPassage,
        lowerText,
        digits,
        digits,
        fraction,
        (before, passage, after, left, right, where) => {
          const original = before + passage + after;
          const selectors = describeSelection(
            original,
            before.length,
            before.length + passage.length,
          );
          const remaining = before + after;
          const at = Math.floor(where * (remaining.length + 1));
          const text = remaining.slice(0, at) + left + passage + right + remaining.slice(at);
          const found = anchor(text, selectors);
          if (passage.length < DISTINCTIVE_QUOTE_LENGTH) {
            expect(found).toBeNull();
          } else {
            const start = at + left.length;
            expect(found).toEqual({ start, end: start + passage.length });
          }
        },
      ),
    );
  });
});

describe('re-anchoring: small edits inside the passage', () => {
  it('forgives reflowed whitespace and a few changed characters', () => {
    fc.assert(
      fc.property(
        variedText(40),
        fraction,
        fraction,
        fc.array(fc.tuple(fraction, fc.constantFrom('\n', '  ', '\n\t ', '\u00a0 ')), {
          maxLength: 4,
        }),
        fc.array(fc.tuple(fraction, fc.stringMatching(/^[A-Z]$/)), {
          minLength: 1,
          maxLength: 16,
        }),
        (original, a, b, spaces, substitutions) => {
          const range = pick(original, a, b, 8);
          if (range === null) return;
          const selectors = describeSelection(original, range.start, range.end);
          // Code units, so that indices match offsets (the text is ASCII anyway).
          const chars = selectors.quote.exact.split('');
          // Substitutions only where no whitespace is, within the allowance of this quote.
          const budget = allowedErrors(selectors.quote.exact.replace(/\s+/g, ' ').length);
          let used = 0;
          for (const [where, letter] of substitutions) {
            const i = Math.floor(where * chars.length);
            if (used >= budget || /\s/.test(chars[i] ?? ' ')) continue;
            chars[i] = letter;
            used++;
          }
          // Whitespace grows only between two other characters, so the passage's edges stay.
          for (const [where, run] of spaces) {
            const i = Math.floor(where * chars.length);
            const inner = i > 0 && i < chars.length - 1;
            if (
              inner &&
              chars[i] === ' ' &&
              !/\s/.test(chars[i - 1] ?? '') &&
              !/\s/.test(chars[i + 1] ?? '')
            ) {
              chars[i] = run;
            }
          }
          const edited = chars.join('');
          const text = original.slice(0, range.start) + edited + original.slice(range.end);
          if (occurrences(text, selectors.quote.exact).length > 0) return;
          coverage.fuzzy++;
          expect(anchor(text, selectors)).toEqual({
            start: range.start,
            end: range.start + edited.length,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
