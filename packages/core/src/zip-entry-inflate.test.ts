import { deflateSync, inflateSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { expandArchives } from './zip-archive.ts';
import { crc32 } from './zip-archive.ts';
import { inflateWithin } from './zip-entry-inflate.ts';
import { encodeUtf8 } from './text-bytes.ts';

// Hostile archives are built here, in memory: a DEFLATE stream that inflates to 1 GiB of zeros
// from 6.5 MB, written by hand (fflate would take seconds to compress that much), inside a ZIP
// that declares 1,000 bytes for it.

/** Raw DEFLATE, one fixed-Huffman block: a zero, then `copies` copies of 258 bytes at distance
 *  1, so it inflates to 1 + 258 × copies zero bytes. */
function zerosDeflate(copies: number): Uint8Array {
  const bytes: number[] = [];
  let bitBuffer = 0;
  let bitCount = 0;
  const bits = (value: number, count: number) => {
    bitBuffer |= value << bitCount;
    bitCount += count;
    while (bitCount >= 8) {
      bytes.push(bitBuffer & 0xff);
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  };
  /** A Huffman code goes out from its most significant bit. */
  const code = (value: number, length: number) => {
    for (let bit = length - 1; bit >= 0; bit--) bits((value >>> bit) & 1, 1);
  };
  const copy = () => {
    code(0xc5, 8); // length 258 (symbol 285)
    code(0, 5); // distance 1
  };
  bits(1, 1); // final block
  bits(1, 2); // fixed Huffman codes
  code(0x30, 8); // literal 0
  // 11 bits so far; one copy (13 bits) reaches a byte boundary, after which eight copies are
  // exactly 13 bytes, the same each time.
  copy();
  let left = copies - 1;
  const start = bytes.length;
  for (let index = 0; index < 8; index++) copy();
  const pattern = bytes.slice(start);
  left -= 8;
  const out = new Uint8Array(bytes.length + Math.floor(left / 8) * 13 + 16);
  out.set(bytes);
  let at = bytes.length;
  for (; left >= 8; left -= 8, at += 13) out.set(pattern, at);
  bytes.length = 0;
  for (; left > 0; left--) copy();
  code(0, 7); // end of block (symbol 256)
  if (bitCount > 0) bytes.push(bitBuffer & 0xff);
  out.set(bytes, at);
  return out.subarray(0, at + bytes.length);
}

/** A ZIP of one deflated entry whose headers say what the caller wants. */
function zipOfEntry(
  name: string,
  compressed: Uint8Array,
  declared: { size: number; crc: number },
): Uint8Array {
  const nameBytes = encodeUtf8(name);
  const local = new Uint8Array(30 + nameBytes.length);
  const central = new Uint8Array(46 + nameBytes.length);
  const end = new Uint8Array(22);
  const put = (target: Uint8Array, at: number, value: number, size: 2 | 4) => {
    for (let index = 0; index < size; index++) target[at + index] = (value >>> (8 * index)) & 0xff;
  };
  put(local, 0, 0x04034b50, 4);
  put(local, 4, 20, 2);
  put(local, 8, 8, 2);
  put(local, 14, declared.crc, 4);
  put(local, 18, compressed.length, 4);
  put(local, 22, declared.size, 4);
  put(local, 26, nameBytes.length, 2);
  local.set(nameBytes, 30);
  put(central, 0, 0x02014b50, 4);
  put(central, 4, 20, 2);
  put(central, 6, 20, 2);
  put(central, 10, 8, 2);
  put(central, 16, declared.crc, 4);
  put(central, 20, compressed.length, 4);
  put(central, 24, declared.size, 4);
  put(central, 28, nameBytes.length, 2);
  put(central, 42, 0, 4);
  central.set(nameBytes, 46);
  const centralAt = local.length + compressed.length;
  put(end, 0, 0x06054b50, 4);
  put(end, 8, 1, 2);
  put(end, 10, 1, 2);
  put(end, 12, central.length, 4);
  put(end, 16, centralAt, 4);
  const zip = new Uint8Array(centralAt + central.length + end.length);
  zip.set(local);
  zip.set(compressed, local.length);
  zip.set(central, centralAt);
  zip.set(end, centralAt + central.length);
  return zip;
}

const GiB = 1024 * 1024 * 1024;

/** Bytes that deflate about as real text does (a few times), from a fixed seed. */
function textLike(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let seed = 12345;
  for (let index = 0; index < size; index++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    bytes[index] = 0x61 + ((seed >>> 16) % 20);
  }
  return bytes;
}

describe('inflating a ZIP entry under its declared size', () => {
  it('the hand-made stream is DEFLATE for that many zeros', () => {
    const small = zerosDeflate(1000);
    const inflated = inflateSync(small);
    expect(inflated.length).toBe(1 + 258 * 1000);
    expect(inflated.every((byte) => byte === 0)).toBe(true);
  });

  it('stops an entry that declares 1,000 bytes and inflates to 1 GiB after about a megabyte', () => {
    const bomb = zerosDeflate(Math.ceil((GiB - 1) / 258));
    expect(bomb.length).toBeLessThan(7 * 1024 * 1024);
    const result = inflateWithin(bomb, 1000);
    expect(result.ok).toBe(false);
    // The work done is the declared size plus at most one 1 KiB piece's output (≤ 1,032 KiB),
    // not the gigabyte.
    expect(result.inflated).toBeGreaterThan(1000);
    expect(result.inflated).toBeLessThan(1.1 * 1024 * 1024);
    if (!result.ok) {
      expect(result.reason).toBe(
        'it inflates past the 1000 bytes it declares; inflating was stopped and the entry refused as a possible ZIP bomb',
      );
    }
  });

  it('refuses the lying entry in a ZIP by name, with the reason', () => {
    const bomb = zerosDeflate(Math.ceil((GiB - 1) / 258));
    const zip = zipOfEntry('data/bills.json', bomb, { size: 1000, crc: 0 });
    const expanded = expandArchives([{ name: 'liar.zip', bytes: zip }]);
    expect(expanded.files).toEqual([]);
    expect(expanded.errors).toEqual([
      {
        file: 'liar.zip/data/bills.json',
        record: null,
        reason:
          'ZIP entry could not be read: it inflates past the 1000 bytes it declares; inflating was stopped and the entry refused as a possible ZIP bomb',
      },
    ]);
  });

  it('refuses an entry that inflates to less than it declares, and damaged data', () => {
    const data = encodeUtf8('{"a": 1}');
    const short = inflateWithin(deflateSync(data), 100);
    expect(short).toMatchObject({
      ok: false,
      reason: 'it inflates to 8 bytes, not the 100 bytes it declares',
    });
    const damaged = inflateWithin(Uint8Array.from([0xff, 0xff, 0xff, 0xff]), 100);
    expect(damaged.ok).toBe(false);
    if (!damaged.ok) expect(damaged.reason).toMatch(/^its compressed data is damaged \(/);
  });

  it('inflates honest entries of every size exactly, small and over many pieces', () => {
    for (const size of [0, 1, 1000, 70_000, 3 * 1024 * 1024]) {
      const data = textLike(size);
      const result = inflateWithin(deflateSync(data), size);
      expect(result.ok, String(size)).toBe(true);
      if (result.ok) expect(crc32(result.bytes)).toBe(crc32(data));
    }
  });
});

describe('the expansion ratio of a ZIP entry', () => {
  it('refuses an entry over 4 MB that would expand more than 100 times, before inflating it', () => {
    // 16 MB of JSON whitespace deflates about 1,000 times: the declared sizes are the truth.
    const whitespace = new Uint8Array(16 * 1024 * 1024).fill(0x20);
    whitespace[0] = 0x7b;
    whitespace[whitespace.length - 1] = 0x7d;
    const zip = zipSync({ 'big.json': whitespace });
    expect(zip.length).toBeLessThan(100 * 1024);
    const expanded = expandArchives([{ name: 'ws.zip', bytes: zip }]);
    expect(expanded.files).toEqual([]);
    expect(expanded.errors).toHaveLength(1);
    expect(expanded.errors[0]?.file).toBe('ws.zip');
    expect(expanded.errors[0]?.reason).toMatch(
      /^ZIP entry big\.json would expand \d+ times \(to 16 MB from \d+ KB\), over the limit of 100 times for entries over 4 MB; refused as a possible ZIP bomb$/,
    );
  });

  it('lets small entries expand as they like, and large ones at real-data ratios', () => {
    const small = new Uint8Array(1024 * 1024).fill(0x20);
    const varied = textLike(6 * 1024 * 1024);
    const expanded = expandArchives([
      { name: 'ok.zip', bytes: zipSync({ 'small.json': small, 'varied.json': varied }) },
    ]);
    expect(expanded.errors).toEqual([]);
    expect(expanded.files.map((file) => file.bytes.length)).toEqual([small.length, varied.length]);
  });
});
