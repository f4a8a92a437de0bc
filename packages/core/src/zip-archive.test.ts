import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, expandArchives, isZip } from './zip-archive.ts';
import { encodeUtf8 } from './text-bytes.ts';

describe('ZIP archives', () => {
  it('computes CRC-32', () => {
    expect(crc32(encodeUtf8('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
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
