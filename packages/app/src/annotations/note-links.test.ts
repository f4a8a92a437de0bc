import { describe, expect, it } from 'vitest';
import { notePieces } from './note-links.ts';

describe('notePieces', () => {
  it('keeps a note without addresses as one piece of text', () => {
    expect(notePieces('Ask the sponsor about section 2.')).toEqual([
      { kind: 'text', text: 'Ask the sponsor about section 2.' },
    ]);
  });

  it('is nothing for an empty note', () => {
    expect(notePieces('')).toEqual([]);
  });

  it('makes http and https addresses links, leaving sentence punctuation out', () => {
    expect(
      notePieces('See https://example.org/bill?id=1&x=2. Also (http://example.com/a) too'),
    ).toEqual([
      { kind: 'text', text: 'See ' },
      {
        kind: 'link',
        text: 'https://example.org/bill?id=1&x=2',
        href: 'https://example.org/bill?id=1&x=2',
      },
      { kind: 'text', text: '. Also (' },
      { kind: 'link', text: 'http://example.com/a', href: 'http://example.com/a' },
      { kind: 'text', text: ') too' },
    ]);
  });

  it('keeps a bracket that belongs to the address', () => {
    const pieces = notePieces('https://en.wikipedia.org/wiki/Civil_Rights_Act_(1964)');
    expect(pieces).toEqual([
      {
        kind: 'link',
        text: 'https://en.wikipedia.org/wiki/Civil_Rights_Act_(1964)',
        href: 'https://en.wikipedia.org/wiki/Civil_Rights_Act_(1964)',
      },
    ]);
  });

  it('never makes a javascript:, data: or other scheme a link', () => {
    for (const note of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'javascript:alert("https://example.org")',
    ]) {
      const pieces = notePieces(note);
      expect(pieces.map((piece) => piece.text).join('')).toBe(note);
      for (const piece of pieces) {
        if (piece.kind === 'link') expect(piece.href).toMatch(/^https?:\/\//);
      }
    }
    expect(notePieces('javascript:alert(1)')).toEqual([
      { kind: 'text', text: 'javascript:alert(1)' },
    ]);
  });

  it('keeps markup as text', () => {
    const note = '<img src=x onerror=window.__pwned=1> <a href="javascript:alert(1)">x</a>';
    expect(notePieces(note)).toEqual([{ kind: 'text', text: note }]);
  });

  it('stops an address at a quote or angle bracket', () => {
    expect(notePieces('<https://example.org/"onmouseover="x>')).toEqual([
      { kind: 'text', text: '<' },
      { kind: 'link', text: 'https://example.org/', href: 'https://example.org/' },
      { kind: 'text', text: '"onmouseover="x>' },
    ]);
  });

  it('leaves a bare scheme as text', () => {
    expect(notePieces('https:// and http://')).toEqual([
      { kind: 'text', text: 'https:// and http://' },
    ]);
  });

  it('always gives back the note unchanged when its pieces are joined', () => {
    const note = 'a https://x.org/(b c) d, http://y.org/?q=1). e\nhttps://z.org/é';
    expect(
      notePieces(note)
        .map((piece) => piece.text)
        .join(''),
    ).toBe(note);
  });
});
