import { describe, expect, it } from 'vitest';
import { encodeUtf8, utf8ByteLength } from './text-bytes.ts';

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
