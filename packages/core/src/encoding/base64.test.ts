import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, decodePortably, encodeBase64, encodePortably } from './base64.ts';
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

// The platform's own base64 serves where there is one (Node's here); the portable code serves
// elsewhere and must agree with it on everything, refusals included.
describe('the portable encoder and decoder', () => {
  it('agree with the native ones on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodePortably(bytes);
        expect(text).toBe(encodeBase64(bytes));
        expect(text).toBe(encode(bytes));
        expect(decodePortably(text)).toEqual(bytes);
      }),
    );
  });

  it('agree with decodeBase64 on any text, base64 or not', () => {
    const digits = fc.constantFrom(...`${ALPHABET}=\n -_é`.split(''));
    fc.assert(
      fc.property(fc.array(digits, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(decodePortably(text)).toEqual(decodeBase64(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuse what is not base64', () => {
    for (const bad of ['a', 'ab=c', 'a===', 'not base64!', 'aGVsbG8=aGVs', 'é', 'QUJD='])
      expect(decodePortably(bad), bad).toBeNull();
  });
});
