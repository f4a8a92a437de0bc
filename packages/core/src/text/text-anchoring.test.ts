import { describe, expect, it } from 'vitest';
import { anchor, describeSelection } from './text-anchoring.ts';

const bill = [
  'SECTION 1. SHORT TITLE.',
  'This Act may be cited as the "Clean Water Act of 2025".',
  'SEC. 2. REPORTS.',
  '(a) In General.—The Secretary shall submit a report to Congress not later than 90 days after the date of enactment.',
  '(b) Contents.—The report shall include the number of grants awarded under this Act.',
].join('\n');

function select(text: string, passage: string, from = 0) {
  const start = text.indexOf(passage, from);
  if (start === -1) throw new Error(`not in the text: ${passage}`);
  return describeSelection(text, start, start + passage.length);
}

const textOf = (text: string, range: { start: number; end: number } | null) =>
  range === null ? null : text.slice(range.start, range.end);

describe('describeSelection', () => {
  it('gives a W3C quote with 32 characters of context and the position', () => {
    const selectors = select(bill, 'submit a report to Congress');
    expect(selectors.quote).toEqual({
      type: 'TextQuoteSelector',
      exact: 'submit a report to Congress',
      prefix: 'In General.—The Secretary shall ',
      suffix: ' not later than 90 days after th',
    });
    expect(selectors.quote.prefix).toHaveLength(32);
    expect(selectors.position).toEqual({
      type: 'TextPositionSelector',
      start: bill.indexOf('submit a report'),
      end: bill.indexOf('submit a report') + 27,
    });
  });

  it('has shorter context at the edges of the text', () => {
    const selectors = describeSelection('Short title', 0, 5);
    expect(selectors.quote).toMatchObject({ exact: 'Short', prefix: '', suffix: ' title' });
  });

  it('never splits a surrogate pair in the context', () => {
    const text = `${'😀'.repeat(20)}passage${'😀'.repeat(20)}`;
    const start = text.indexOf('passage');
    const { quote } = describeSelection(text, start, start + 7, 5);
    expect(quote.prefix).toBe('😀😀');
    expect(quote.suffix).toBe('😀😀');
    expect(() => encodeURIComponent(quote.prefix + quote.suffix)).not.toThrow();
  });

  it('refuses an empty or outside selection', () => {
    expect(() => describeSelection('abc', 1, 1)).toThrow(/empty/);
    expect(() => describeSelection('abc', 2, 9)).toThrow(/not inside the text/);
    expect(() => describeSelection('abc', -1, 2)).toThrow(/not inside the text/);
    expect(() => describeSelection('abc', 0.5, 2)).toThrow(/not inside the text/);
  });
});

describe('anchor', () => {
  const selectors = select(bill, 'The Secretary shall submit a report to Congress');

  it('finds an unchanged passage where it was', () => {
    expect(anchor(bill, selectors)).toEqual({
      start: selectors.position.start,
      end: selectors.position.end,
    });
  });

  it('follows a passage moved by a new section before it', () => {
    const text = bill.replace(
      'SEC. 2.',
      'SEC. 2. FINDINGS.\nCongress finds that water matters.\nSEC. 3.',
    );
    expect(textOf(text, anchor(text, selectors))).toBe(
      'The Secretary shall submit a report to Congress',
    );
  });

  it('forgives reflowed whitespace and an amended word', () => {
    const reflowed = bill.replace('shall submit a report', 'shall\n    submit a  report');
    expect(textOf(reflowed, anchor(reflowed, selectors))).toBe(
      'The Secretary shall\n    submit a  report to Congress',
    );
    const amended = bill.replace('submit a report to', 'submit the report to');
    expect(textOf(amended, anchor(amended, selectors))).toBe(
      'The Secretary shall submit the report to Congress',
    );
  });

  it('gives up (an orphan) when the passage was rewritten beyond a few characters', () => {
    const rewritten = bill.replace(
      'The Secretary shall submit a report to Congress',
      'The Administrator must send an update to the committees',
    );
    expect(anchor(rewritten, selectors)).toBeNull();
    expect(anchor('', selectors)).toBeNull();
  });

  it('does not move a short phrase to the same words in another place', () => {
    const phrase = select(bill, 'The Secretary');
    // Section 2 rewritten; the phrase still exists, in a new and unrelated sentence.
    const text = bill.replace(
      /\(a\) In General[^\n]*/,
      '(a) Repealed.\n(c) Definitions.—The Secretary means the head of the agency.',
    );
    expect(anchor(text, phrase)).toBeNull();
  });

  it('picks the copy whose context agrees best', () => {
    const text =
      'A fee. The fee is $5.00 now. B fee. The fee is $9.99 now. C fee. The fee is $5.00 now.';
    const middle = text.indexOf('The fee', text.indexOf('B fee'));
    const selection = describeSelection(text, middle, middle + 7, 12);
    const changed = `Fees.\n${text.replace('B fee. ', 'Fee B. ')}`;
    const expected = changed.indexOf('The fee', changed.indexOf('Fee B. '));
    // Its prefix changed, but its suffix (" is $9.99 now") still agrees in full: 2 + 12
    // characters of context, against 6 + 5 for each of the other copies.
    expect(anchor(changed, selection)).toEqual({ start: expected, end: expected + 7 });
  });

  it('among copies alike in every stored character, takes the one nearest the old position', () => {
    const text = 'x. The fee is $5. x. The fee is $5. x. The fee is $5.';
    const middle = text.indexOf('The fee', 10);
    const selection = describeSelection(text, middle, middle + 7, 4);
    const changed = `Re: ${text}`;
    expect(anchor(changed, selection)).toEqual({ start: middle + 4, end: middle + 11 });
  });

  it('treats markup and scripts in the text as plain characters', () => {
    const hostile = 'Note: <img src=x onerror=alert(1)> and <script>alert("x")</script> end.';
    const payload = select(hostile, '<img src=x onerror=alert(1)>');
    const moved = `Preamble (.*+?^$[](){}|\\). ${hostile}`;
    expect(textOf(moved, anchor(moved, payload))).toBe('<img src=x onerror=alert(1)>');
    // Regular-expression characters in a quote are matched literally.
    const regexy = select(moved, '(.*+?^$[](){}|\\)');
    expect(textOf(`x${moved}`, anchor(`x${moved}`, regexy))).toBe('(.*+?^$[](){}|\\)');
  });

  it('anchors in right-to-left text and across bidi controls', () => {
    const text = 'סעיף 1. השר יגיש דוח לכנסת תוך 90 יום. \u202eحكومة\u202c القانون رقم ٥';
    const selection = select(text, 'השר יגיש דוח');
    const edited = `הקדמה חדשה. ${text}`;
    expect(textOf(edited, anchor(edited, selection))).toBe('השר יגיש דוח');
    const arabic = select(text, '\u202eحكومة\u202c');
    expect(textOf(`${text} ملحق`, anchor(`${text} ملحق`, arabic))).toBe('\u202eحكومة\u202c');
  });

  // How fast this runs is a benchmark's business, not a unit test's; here only the answers count.
  it('anchors among million-character words', () => {
    const word = 'a'.repeat(1_000_000);
    const text = `${word} the passage here ${word}`;
    const selection = select(text, 'the passage here');
    const shifted = `b${text}`;
    expect(textOf(shifted, anchor(shifted, selection))).toBe('the passage here');
    // Every one of a million positions is a candidate for these two.
    const edited = describeSelection(
      `${'x'.repeat(40)}${'a'.repeat(49)}b${'y'.repeat(40)}`,
      40,
      90,
    );
    expect(anchor(word, edited)).toEqual({ start: 40, end: 90 });
    const short = describeSelection(`x${'a'.repeat(20)}b`, 1, 21);
    expect(anchor(word, short)).toBeNull();
  });
});
