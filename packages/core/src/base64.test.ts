import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './base64.ts';
import { decodeUtf8, encodeUtf8 } from './text-bytes.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A reference encoder, written the obvious slow way. */
function encode(bytes: Uint8Array): string {
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let at = 0; at < bits.length; at += 6)
    out += ALPHABET[parseInt(bits.slice(at, at + 6).padEnd(6, '0'), 2)] ?? '';
  return out + '='.repeat((4 - (out.length % 4)) % 4);
}

describe('decodeBase64', () => {
  it('decodes with and without padding, ignoring line breaks', () => {
    expect(decodeUtf8(decodeBase64('aGVsbG8gd29ybGQ=') ?? new Uint8Array())).toBe('hello world');
    expect(decodeUtf8(decodeBase64('aGVsbG8gd29ybGQ') ?? new Uint8Array())).toBe('hello world');
    expect(decodeUtf8(decodeBase64('aGVs\nbG8=\r\n') ?? new Uint8Array())).toBe('hello');
    expect(decodeBase64('')).toEqual(new Uint8Array());
  });

  it('refuses what is not base64', () => {
    for (const bad of ['a', 'ab=c', 'a===', 'not base64!', 'aGVsbG8=aGVs', 'é'])
      expect(decodeBase64(bad), bad).toBeNull();
  });

  it('inverts encoding for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(decodeBase64(encode(bytes))).toEqual(bytes);
      }),
    );
  });
});

describe('encodeBase64', () => {
  it('matches the standard encoding, padding included', () => {
    const text = encodeUtf8;
    expect(encodeBase64(text(''))).toBe('');
    expect(encodeBase64(text('f'))).toBe('Zg==');
    expect(encodeBase64(text('fo'))).toBe('Zm8=');
    expect(encodeBase64(text('foo'))).toBe('Zm9v');
    expect(encodeBase64(text('foobar'))).toBe('Zm9vYmFy');
  });

  it('round-trips any bytes through decodeBase64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
      }),
    );
  });
});
