import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, fnv1a64Hex, fnv1a64HexOfText } from './canonical-hash.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';

// The fast versions must give exactly what the plain definitions give: stored change hashes
// were computed with them. encodeUtf8 is the platform's TextEncoder, which the old hash used.

function plainCanonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'number':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(plainCanonicalJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((key) => `${JSON.stringify(key)}:${plainCanonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new Error('unsupported');
  }
}

/** FNV-1a 64 with BigInt, straight from the definition. */
function plainFnv(bytes: Uint8Array): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), fc.option(tie('value'), { nil: undefined }), { maxKeys: 5 }),
  ),
})).value;

describe('canonical hash', () => {
  it('canonicalJson matches the plain definition', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(plainCanonicalJson(value));
      }),
    );
    const actions = [
      { date: '2020-01-02', text: 'b', chamber: null },
      { date: null, text: 'a', chamber: 'upper', extra: undefined },
      { text: 'c', date: '2020-01-03', chamber: 'lower' },
    ];
    expect(canonicalJson({ z: actions, a: { y: 1, x: [actions[0]] } })).toBe(
      plainCanonicalJson({ z: actions, a: { y: 1, x: [actions[0]] } }),
    );
  });

  it('hashes bytes and text as FNV-1a 64 of their UTF-8 does', () => {
    expect(fnv1a64Hex(new Uint8Array())).toBe('cbf29ce484222325');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(fnv1a64Hex(bytes)).toBe(plainFnv(bytes));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        expect(fnv1a64HexOfText(text)).toBe(plainFnv(encodeUtf8(text)));
      }),
    );
    // Lone surrogates are written as U+FFFD, as TextEncoder does.
    for (const text of ['\ud800', 'a\udc00b', '\ud83d\ude00', '\ud83d', 'é€😀']) {
      expect(fnv1a64HexOfText(text)).toBe(plainFnv(encodeUtf8(text)));
    }
    expect(contentHash({ b: 1, a: 'é' })).toBe(plainFnv(encodeUtf8('{"a":"é","b":1}')));
  });

  it('hashes a value as FNV-1a 64 of its canonical JSON’s UTF-8, escapes and lone surrogates included', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(contentHash(value)).toBe(plainFnv(encodeUtf8(plainCanonicalJson(value))));
      }),
      { numRuns: 500 },
    );
    for (const text of ['\ud800', 'a\udc00b', '\ud83d\ude00', '"\\\n\u0001\u007f', 'é€😀']) {
      expect(contentHash({ [text]: [text, 1.5, true, null] })).toBe(
        plainFnv(encodeUtf8(plainCanonicalJson({ [text]: [text, 1.5, true, null] }))),
      );
    }
    expect(() => contentHash({ a: Number.NaN })).toThrow();
  });
});
