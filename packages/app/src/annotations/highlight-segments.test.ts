import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight-segments.ts';

const pieces = (text: string, highlights: Parameters<typeof highlightSegments>[1]) =>
  highlightSegments(text, highlights).map((segment) => [
    text.slice(segment.start, segment.end),
    segment.highlightIds.join('+'),
  ]);

describe('highlightSegments', () => {
  it('is the whole text as one plain piece without highlights', () => {
    expect(pieces('The Secretary shall', [])).toEqual([['The Secretary shall', '']]);
  });

  it('is nothing for an empty text', () => {
    expect(highlightSegments('', [{ id: 'a', start: 0, end: 3 }])).toEqual([]);
  });

  it('cuts around a highlight', () => {
    expect(pieces('The Secretary shall act', [{ id: 'a', start: 4, end: 13 }])).toEqual([
      ['The ', ''],
      ['Secretary', 'a'],
      [' shall act', ''],
    ]);
  });

  it('splits overlapping highlights into pieces carrying each highlight that covers them', () => {
    expect(
      pieces('abcdefghij', [
        { id: 'a', start: 1, end: 6 },
        { id: 'b', start: 4, end: 9 },
      ]),
    ).toEqual([
      ['a', ''],
      ['bcd', 'a'],
      ['ef', 'a+b'],
      ['ghi', 'b'],
      ['j', ''],
    ]);
  });

  it('clips highlights beyond the text and drops empty ones', () => {
    expect(
      pieces('abc', [
        { id: 'a', start: -5, end: 1 },
        { id: 'b', start: 2, end: 99 },
        { id: 'c', start: 2, end: 2 },
        { id: 'd', start: 50, end: 60 },
      ]),
    ).toEqual([
      ['a', 'a'],
      ['b', ''],
      ['c', 'b'],
    ]);
  });

  it('never cuts a surrogate pair in half', () => {
    const text = 'a😀b';
    const result = pieces(text, [{ id: 'a', start: 2, end: 4 }]);
    expect(result.map(([piece]) => piece).join('')).toBe(text);
    expect(result).toEqual([
      ['a😀', ''],
      ['b', 'a'],
    ]);
  });

  it('covers the text exactly once, in order, whatever the highlights', () => {
    const text = 'x'.repeat(40);
    const highlights = Array.from({ length: 12 }, (_, index) => ({
      id: String(index),
      start: (index * 7) % 37,
      end: ((index * 7) % 37) + ((index * 5) % 11),
    }));
    const segments = highlightSegments(text, highlights);
    let at = 0;
    for (const segment of segments) {
      expect(segment.start).toBe(at);
      expect(segment.end).toBeGreaterThan(segment.start);
      at = segment.end;
    }
    expect(at).toBe(text.length);
  });
});
