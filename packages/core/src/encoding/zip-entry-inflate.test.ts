import { deflateSync, inflateSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { expandArchives } from './zip-archive.ts';
import { crc32 } from './zip-archive.ts';
import { inflateWithin } from './zip-entry-inflate.ts';
import { encodeUtf8 } from './text-bytes.ts';
import { zerosDeflate, zipOfEntry } from '../test-support/hostile-zips.ts';

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

  it('stops an entry that declares 1,000 bytes and inflates to 1 GiB after about 4 MiB', () => {
    const bomb = zerosDeflate(Math.ceil((GiB - 1) / 258));
    expect(bomb.length).toBeLessThan(7 * 1024 * 1024);
    const result = inflateWithin(bomb, 1000);
    expect(result.ok).toBe(false);
    // The work done is the declared size plus at most one 4 KiB piece's output (≤ 4,128 KiB),
    // not the gigabyte.
    expect(result.inflated).toBeGreaterThan(1000);
    expect(result.inflated).toBeLessThan(4.1 * 1024 * 1024);
    if (!result.ok) {
      expect(result.reason).toBe(
        'it inflates past the 1000 bytes it declares; inflating was stopped and the entry refused as a possible ZIP bomb',
      );
    }
  });

  it('refuses a small entry that lies, inflated in one call, after at most 4 MiB', () => {
    // Under 4 KiB of compressed bytes (this stream gives 158 times its size; deflate's worst is
    // 1,032 times): the one-call path.
    const liar = zerosDeflate(2400);
    expect(liar.length).toBeLessThan(4064);
    expect(inflateSync(liar).length).toBe(619_201);
    const result = inflateWithin(liar, 1000);
    expect(result).toMatchObject({
      ok: false,
      reason:
        'it inflates past the 1000 bytes it declares; inflating was stopped and the entry refused as a possible ZIP bomb',
    });
    expect(result.inflated).toBeLessThanOrEqual(4 * 1024 * 1024);
    // Declaring its true size, the same bytes inflate; one byte short, they are refused.
    expect(inflateWithin(liar, 619_201).ok).toBe(true);
    expect(inflateWithin(liar, 619_200).ok).toBe(false);
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
    // 70,000 text-like bytes deflate to under 4 KiB (one call); 3 MiB to far more (pieces).
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
