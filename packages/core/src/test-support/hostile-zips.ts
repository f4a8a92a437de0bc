import { encodeUtf8 } from '../encoding/text-bytes.ts';

// Hostile archives for tests, built in memory: a DEFLATE stream that inflates to 1 GiB of zeros
// from 6.5 MB, written by hand (fflate would take seconds to compress that much), inside a ZIP
// that declares 1,000 bytes for it.

/** Raw DEFLATE, one fixed-Huffman block: a zero, then `copies` copies of 258 bytes at distance
 *  1, so it inflates to 1 + 258 × copies zero bytes. */
export function zerosDeflate(copies: number): Uint8Array {
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
export function zipOfEntry(
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
