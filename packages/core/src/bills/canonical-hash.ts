// Change hashes are computed for every bill of every import, so this module is written for
// speed: canonical JSON is hashed as it is walked (contentHash), never built, with each object
// shape's keys sorted once, and canonicalJson builds it by concatenation with the keys quoted
// once. Both give exactly what the plain definitions give (property tests check it), so stored
// hashes stay valid.

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One object shape: its keys as Object.keys gives them, and how they are written, sorted. */
interface Shape {
  keys: string[];
  /** The keys in code-unit order. */
  sorted: string[];
  /** `"key":` for each sorted key, and `,"key":` for each but the first written. */
  first: string[];
  next: string[];
}

// The last few shapes seen: a bill alternates between its own shape and its lists' shapes
// (sponsors, actions, votes), and each is sorted and quoted once.
const SHAPES = 8;
const shapes: Shape[] = [];
let oldestShape = 0;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function shapeOf(keys: string[]): Shape {
  for (let index = 0; index < shapes.length; index++) {
    const shape = shapes[index] as Shape;
    if (sameKeys(shape.keys, keys)) return shape;
  }
  const sorted = [...keys].sort(byCodeUnit);
  const quoted = sorted.map((key) => `${JSON.stringify(key)}:`);
  const shape: Shape = { keys, sorted, first: quoted, next: quoted.map((key) => `,${key}`) };
  if (shapes.length < SHAPES) shapes.push(shape);
  else {
    shapes[oldestShape] = shape;
    oldestShape = (oldestShape + 1) % SHAPES;
  }
  return shape;
}

function appendCanonical(value: unknown): string {
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
      if (Array.isArray(value)) {
        const length = value.length;
        if (length === 0) return '[]';
        let out = `[${appendCanonical(value[0])}`;
        for (let index = 1; index < length; index++) out += `,${appendCanonical(value[index])}`;
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const { sorted, first, next } = shapeOf(Object.keys(record));
      let out = '{';
      let written = false;
      for (let index = 0; index < sorted.length; index++) {
        const item = record[sorted[index] as string];
        if (item === undefined) continue;
        out += (written ? next[index] : first[index]) as string;
        out += appendCanonical(item);
        written = true;
      }
      return `${out}}`;
    }
    default:
      throw new Error(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

/**
 * JSON with object keys in code-unit order at every level, so that two objects with the same
 * content serialise to the same text whatever order their keys were built in. Undefined
 * properties are left out, as JSON.stringify does; non-finite numbers are refused because they
 * have no JSON form.
 */
export function canonicalJson(value: unknown): string {
  return appendCanonical(value);
}

/**
 * FNV-1a, 64 bits, over bytes. The 64-bit state is kept as two 32-bit halves so that no BigInt
 * is needed (BigInt is several times slower, and bill texts can be megabytes). The prime is
 * 2^40 + 0x1b3, so the low half times 0x1b3 (below 2^41, exact in a double) gives the new low
 * half and a carry, and the high half gains its own product, the carry and the low half shifted
 * by 8 (the 2^40 term), all modulo 2^32.
 */
export function fnv1a64Hex(bytes: Uint8Array): string {
  // Offset basis 0xcbf29ce484222325.
  let low = 0x84222325;
  let high = 0xcbf29ce4;
  const length = bytes.length;
  for (let index = 0; index < length; index++) {
    const mixed = (low ^ (bytes[index] as number)) >>> 0;
    const product = mixed * 0x1b3;
    high = (Math.imul(high, 0x1b3) + (mixed << 8) + ((product / 0x100000000) | 0)) >>> 0;
    low = product >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

// The same FNV-1a 64 fed from strings as they are read, for text and canonical JSON: the UTF-8
// bytes of a string (TextEncoder's: a lone surrogate is U+FFFD) are worked out character by
// character, and canonical JSON is hashed as it is walked, never built. Building the JSON and
// encoding it took three quarters of a bill's change hash. The state is two signed 32-bit halves,
// multiplied with integer arithmetic only (the low half in 16-bit pieces, so that its carry into
// the high half is exact); it lives here between the calls of one hash.
let hashLow = 0;
let hashHigh = 0;

function startHash(): void {
  // Offset basis 0xcbf29ce484222325.
  hashLow = 0x84222325 | 0;
  hashHigh = 0xcbf29ce4 | 0;
}

function hashHex(): string {
  const high = (hashHigh >>> 0).toString(16).padStart(8, '0');
  return high + (hashLow >>> 0).toString(16).padStart(8, '0');
}

/** One byte into the hash: xor, then times the prime 2^40 + 0x1b3 modulo 2^64. */
function mixByte(byte: number): void {
  const mixed = hashLow ^ byte;
  const low = (mixed & 0xffff) * 0x1b3;
  const high = (mixed >>> 16) * 0x1b3 + (low >>> 16);
  hashLow = (high << 16) | (low & 0xffff);
  hashHigh = (Math.imul(hashHigh, 0x1b3) + (mixed << 8) + (high >>> 16)) | 0;
}

/** ASCII text into the hash, one byte a character (JSON's punctuation, numbers, escapes). */
function mixAscii(text: string): void {
  if (text.length === 1) mixByte(text.charCodeAt(0));
  else mixPlain(text, 0);
}

/** A character past ASCII as UTF-8; returns how many UTF-16 units it took (2 for a pair). */
function mixWide(text: string, index: number, code: number, quoted: boolean): number {
  if (code < 0x800) {
    mixByte(0xc0 | (code >> 6));
    mixByte(0x80 | (code & 0x3f));
    return 1;
  }
  if (code >= 0xd800 && code <= 0xdfff) {
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      mixByte(0xf0 | (point >> 18));
      mixByte(0x80 | ((point >> 12) & 0x3f));
      mixByte(0x80 | ((point >> 6) & 0x3f));
      mixByte(0x80 | (point & 0x3f));
      return 2;
    }
    // A lone surrogate: JSON.stringify writes it as an escape, TextEncoder as U+FFFD.
    if (quoted) {
      mixAscii(JSON.stringify(String.fromCharCode(code)).slice(1, -1));
      return 1;
    }
    mixThreeBytes(0xfffd);
    return 1;
  }
  mixThreeBytes(code);
  return 1;
}

function mixThreeBytes(code: number): void {
  mixByte(0xe0 | (code >> 12));
  mixByte(0x80 | ((code >> 6) & 0x3f));
  mixByte(0x80 | (code & 0x3f));
}

// How JSON.stringify writes each ASCII character inside a string: itself, or its escape.
const JSON_ASCII: string[] = Array.from({ length: 0x80 }, (_, code) =>
  JSON.stringify(String.fromCharCode(code)).slice(1, -1),
);

// Characters a string cannot hash as one byte each: past ASCII, or (in JSON) escaped. One
// negated class each: an alternation took twice as long.
const WIDE = /[^\u0000-\u007f]/; // eslint-disable-line no-control-regex -- the point
const WIDE_OR_ESCAPED = /[^\u0020\u0021\u0023-\u005b\u005d-\u007f]/;

/** Characters that each are one byte as they are, from `from` up to `end` (the text's end). */
function mixPlain(text: string, from: number, end = text.length): void {
  let low = hashLow;
  let high = hashHigh;
  for (let index = from; index < end; index++) {
    const mixed = low ^ text.charCodeAt(index);
    const lowProduct = (mixed & 0xffff) * 0x1b3;
    const highProduct = (mixed >>> 16) * 0x1b3 + (lowProduct >>> 16);
    low = (highProduct << 16) | (lowProduct & 0xffff);
    high = (Math.imul(high, 0x1b3) + (mixed << 8) + (highProduct >>> 16)) | 0;
  }
  hashLow = low;
  hashHigh = high;
}

/** Whether a character hashes as itself, one byte: ASCII, and (in JSON) not escaped. */
function plainAt(code: number, quoted: boolean): boolean {
  return quoted ? code >= 0x20 && code < 0x80 && code !== 0x22 && code !== 0x5c : code < 0x80;
}

/**
 * A string's UTF-8 into the hash: as it is, or (quoted) as JSON.stringify writes it, quotes and
 * escapes included, without making that string. Most strings of a bill are plain ASCII, found so
 * by one regular expression and hashed in a loop with nothing else in it (a test inside the
 * loop made it half as fast again). The others (a summary with a line break or a quote, a name
 * with an accent) are found run by run: each run of plain characters goes through that same
 * loop, and only the characters between runs one at a time (one call a character made these
 * strings cost three times their length in plain ones).
 */
function mixText(text: string, quoted: boolean): void {
  if (quoted) mixByte(0x22);
  if (!(quoted ? WIDE_OR_ESCAPED : WIDE).test(text)) mixPlain(text, 0);
  else {
    const length = text.length;
    let index = 0;
    while (index < length) {
      let end = index;
      while (end < length && plainAt(text.charCodeAt(end), quoted)) end++;
      if (end > index) mixPlain(text, index, end);
      if (end === length) break;
      const code = text.charCodeAt(end);
      if (code >= 0x80) index = end + mixWide(text, end, code, quoted);
      else {
        mixAscii(JSON_ASCII[code] as string);
        index = end + 1;
      }
    }
  }
  if (quoted) mixByte(0x22);
}

/** canonicalJson(value)'s UTF-8 into the hash, walked as canonicalJson walks it. */
function mixCanonical(value: unknown): void {
  if (value === null) {
    mixAscii('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      mixText(value, true);
      return;
    case 'boolean':
      mixAscii(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new Error('canonicalJson: non-finite number');
      mixAscii(JSON.stringify(value));
      return;
    case 'object': {
      if (Array.isArray(value)) {
        mixByte(0x5b);
        const length = value.length;
        for (let index = 0; index < length; index++) {
          if (index > 0) mixByte(0x2c);
          mixCanonical(value[index]);
        }
        mixByte(0x5d);
        return;
      }
      const record = value as Record<string, unknown>;
      const { sorted } = shapeOf(Object.keys(record));
      mixByte(0x7b);
      let written = false;
      for (let index = 0; index < sorted.length; index++) {
        const key = sorted[index] as string;
        const item = record[key];
        if (item === undefined) continue;
        if (written) mixByte(0x2c);
        mixText(key, true);
        mixByte(0x3a);
        mixCanonical(item);
        written = true;
      }
      mixByte(0x7d);
      return;
    }
    default:
      throw new Error(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

/** FNV-1a 64 of a string's UTF-8 bytes (a lone surrogate as U+FFFD, as TextEncoder writes it). */
export function fnv1a64HexOfText(text: string): string {
  startHash();
  mixText(text, false);
  return hashHex();
}

/** The hash of a value's canonical JSON, as 16 lower-case hex digits. */
export function contentHash(value: unknown): string {
  startHash();
  mixCanonical(value);
  return hashHex();
}
