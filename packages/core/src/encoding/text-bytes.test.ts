import { describe, expect, it } from 'vitest';
import { failure } from '../importers/bill-import-record.ts';
import { encodeUtf8, printable, utf8ByteLength } from './text-bytes.ts';

describe('utf8ByteLength', () => {
  it('counts what encoding writes, one to four bytes a character', () => {
    for (const text of [
      '',
      'plain',
      'é',
      '法律',
      '🏛️ bill',
      'a\u0000b',
      JSON.stringify('\ud800 lone'),
    ]) {
      expect(utf8ByteLength(text), text).toBe(encodeUtf8(text).length);
    }
  });

  it('counts a lone surrogate as the replacement character encoders write', () => {
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(utf8ByteLength('x\udc00')).toBe(4);
  });
});

describe('printable', () => {
  it('escapes control characters and binary, flattens lines and cuts long text', () => {
    expect(printable('a\u001b[2Jb\u0007c\u0000\ufffd')).toBe('a\\u001b[2Jb\\u0007c\\u0000\\ufffd');
    expect(printable('one\r\ntwo\nthree\tfour')).toBe('one two three\tfour');
    expect(printable('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('keeps every import refusal free of them', () => {
    const outcome = failure('a\u001b.json', 'HB\u0007 1', 'bad \u0000 byte');
    expect(outcome).toEqual({
      ok: false,
      error: { file: 'a\\u001b.json', record: 'HB\\u0007 1', reason: 'bad \\u0000 byte' },
    });
  });
});
