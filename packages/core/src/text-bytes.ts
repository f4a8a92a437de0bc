import { strFromU8, strToU8 } from 'fflate';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Decodes UTF-8 bytes to a string. Invalid sequences become U+FFFD rather than throwing, because a
 * damaged file must turn into a readable error further on, not an exception here. A leading
 * byte-order mark (Excel writes one) is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  let text: string;
  try {
    text = strFromU8(bytes);
  } catch {
    // Only reached where no TextDecoder exists and fflate's own decoder meets a broken sequence.
    text = strFromU8(bytes, true);
  }
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

export function encodeUtf8(text: string): Uint8Array {
  return strToU8(text);
}

/** The first `length` characters of a file, for sniffing its format without decoding all of it. */
export function decodeUtf8Head(bytes: Uint8Array, length = 4096): string {
  return decodeUtf8(bytes.subarray(0, length));
}

/**
 * How many bytes `text` takes in UTF-8, without encoding it: what a size limit is checked against
 * before anything is built. A lone surrogate counts 3 bytes, as an encoder writes U+FFFD for it.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00 // NaN past the end: & gives 0
    ) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
