import { encodeUtf8 } from '../encoding/text-bytes.ts';

// Change hashes are computed for every bill of every import, so this module is written for
// speed: canonical JSON is built by concatenation with each object shape's keys sorted and
// quoted once, and the hash loops by index. Both give exactly what the plain definitions give (a
// property test checks it), so stored hashes stay valid.

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

/**
 * FNV-1a 64 of a string's UTF-8 bytes. Encoding first (the platform's TextEncoder) and then
 * hashing the bytes in a tight loop measured faster in Chromium than reading the bytes from
 * the string inside the hash loop.
 */
export function fnv1a64HexOfText(text: string): string {
  return fnv1a64Hex(encodeUtf8(text));
}

/** The hash of a value's canonical JSON, as 16 lower-case hex digits. */
export function contentHash(value: unknown): string {
  return fnv1a64HexOfText(canonicalJson(value));
}
