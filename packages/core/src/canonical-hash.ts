import { encodeUtf8 } from './text-bytes.ts';

/**
 * JSON with object keys in code-unit order at every level, so that two objects with the same
 * content serialise to the same text whatever order their keys were built in. Undefined
 * properties are left out, as JSON.stringify does; non-finite numbers are refused because they
 * have no JSON form.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error('canonicalJson: non-finite number');
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new Error(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

/**
 * FNV-1a, 64 bits, over bytes. The 64-bit state is kept in four 16-bit limbs so that every
 * intermediate product stays far below 2^53 and no BigInt is needed (BigInt is several times
 * slower, and bill texts can be megabytes).
 */
export function fnv1a64Hex(bytes: Uint8Array): string {
  // Offset basis 0xcbf29ce484222325, least significant limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of bytes) {
    h0 ^= byte;
    // Prime 0x100000001b3 = 2^40 + 0x1b3; 2^40 is 0x100 in the third limb.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3;
    const t2 = h2 * 0x1b3 + h0 * 0x100;
    const t3 = h3 * 0x1b3 + h1 * 0x100;
    h0 = t0 & 0xffff;
    let carry = t1 + (t0 >>> 16);
    h1 = carry & 0xffff;
    carry = t2 + (carry >>> 16);
    h2 = carry & 0xffff;
    carry = t3 + (carry >>> 16);
    h3 = carry & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

/** The hash of a value's canonical JSON, as 16 lower-case hex digits. */
export function contentHash(value: unknown): string {
  return fnv1a64Hex(encodeUtf8(canonicalJson(value)));
}
