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
