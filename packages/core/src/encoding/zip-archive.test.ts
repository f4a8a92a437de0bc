import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, expandArchives, isZip } from './zip-archive.ts';
import { encodeUtf8 } from './text-bytes.ts';

describe('ZIP archives', () => {
  it('computes CRC-32', () => {
    expect(crc32(encodeUtf8('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('computes CRC-32 eight bytes at a time as the one-byte definition does, at every length', () => {
    const table = Array.from({ length: 256 }, (_, n) => {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      return c >>> 0;
    });
    const plainCrc32 = (bytes: Uint8Array) => {
      let crc = 0xffffffff;
      for (const byte of bytes) crc = ((table[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8)) >>> 0;
      return (crc ^ 0xffffffff) >>> 0;
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(crc32(bytes)).toBe(plainCrc32(bytes));
      }),
    );
    const large = Uint8Array.from({ length: 100_003 }, (_, n) => (n * 7919) % 251);
    expect(crc32(large)).toBe(plainCrc32(large));
    expect(crc32(large.subarray(5, 99_000))).toBe(plainCrc32(large.subarray(5, 99_000)));
  });

  it('expands entries under the archive name, skipping folders and macOS junk', () => {
    const zip = zipSync({
      'set/': new Uint8Array(),
      'set/a.json': encodeUtf8('{}'),
      '__MACOSX/set/._a.json': encodeUtf8('junk'),
      'set/._b.json': encodeUtf8('junk'),
    });
    expect(isZip(zip)).toBe(true);
    const expanded = expandArchives([{ name: 'd.zip', bytes: zip }]);
    expect(expanded.errors).toEqual([]);
    expect(expanded.files.map((file) => file.name)).toEqual(['d.zip/set/a.json']);
  });

  it('refuses a cut-off archive and a file over the size limit', () => {
    const zip = zipSync({ 'a.json': encodeUtf8('{"a": 1}') });
    expect(
      expandArchives([{ name: 'cut.zip', bytes: zip.slice(0, zip.length - 10) }]).errors[0]?.reason,
    ).toMatch(/^not a readable ZIP archive: /);
    const big = { name: 'big.json', bytes: new Uint8Array(2 * 1024 * 1024) };
    expect(
      expandArchives([big], {
        maxEntries: 10,
        maxTotalBytes: 10 * 1024 * 1024,
        maxFileBytes: 1024 * 1024,
      }).errors,
    ).toEqual([{ file: 'big.json', record: null, reason: 'file is 2 MB, over the 1 MB limit' }]);
  });
});
