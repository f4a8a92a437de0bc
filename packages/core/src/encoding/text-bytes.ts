import { strFromU8, strToU8 } from 'fflate';

const BYTE_ORDER_MARK = '\uFEFF';

// A TextDecoder of its own, as fflate's strFromU8 would use, but never asked to stream: fflate
// tries its decoder once with { stream: true } when it loads, which turns Node's fast path for
// UTF-8 off for good, and every later decode took three times as long (a fifth of reading
// BILLSTATUS went there). Same options, so the same text: a byte-order mark dropped, invalid bytes
// as U+FFFD. Core is compiled without the platform's types, so the one call is typed here.
interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}
const decoderClass = (globalThis as { TextDecoder?: new () => Utf8Decoder }).TextDecoder;
const utf8Decoder: Utf8Decoder | null = decoderClass === undefined ? null : new decoderClass();

/**
 * Decodes UTF-8 bytes to a string. Invalid sequences become U+FFFD rather than throwing, because a
 * damaged file must turn into a readable error further on, not an exception here. A leading
 * byte-order mark (Excel writes one) is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  let text: string;
  if (utf8Decoder !== null) text = utf8Decoder.decode(bytes);
  else {
    try {
      text = strFromU8(bytes);
    } catch {
      // Only reached where no TextDecoder exists and fflate's own decoder meets a broken sequence.
      text = strFromU8(bytes, true);
    }
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

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFD\u2028\u2029]/g;

/**
 * Text from a file made safe to print in a message: control characters, replacement characters
 * and line separators are shown as \u escapes, a line break as a space, and long text is cut.
 */
export function printable(text: string, max = 80): string {
  const flat = text
    .replace(/\r\n?|\n/g, ' ')
    .replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
