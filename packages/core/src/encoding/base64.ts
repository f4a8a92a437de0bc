import { strFromU8 } from 'fflate';

// ES2023 has no atob and fflate has no base64, so core decodes it itself.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) VALUES[ALPHABET.charCodeAt(index)] = index;
// The URL-safe alphabet appears in some exports; accepting it costs nothing.
VALUES['-'.charCodeAt(0)] = 62;
VALUES['_'.charCodeAt(0)] = 63;

function isSpace(code: number): boolean {
  // ASCII whitespace as the web's forgiving base64 (and Uint8Array.fromBase64) skips it.
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/** Every UTF-16 code unit's digit value, -1 for those that are not digits: one lookup each. */
const DIGITS = new Int8Array(65536).fill(-1);
DIGITS.set(VALUES.map((value) => value));

/**
 * The common case, four digits at a time: unbroken base64 (no whitespace) with at most two
 * padding characters at its end, as sync's envelopes are. Null sends the text to the careful
 * path, which also says whether it is base64 at all.
 */
function decodeUnbroken(input: string): Uint8Array | null {
  let end = input.length;
  if (end % 4 !== 0) return null;
  if (end > 0 && input.charCodeAt(end - 1) === 0x3d) end--;
  if (end > 0 && input.charCodeAt(end - 1) === 0x3d) end--;
  const output = new Uint8Array(Math.floor((end * 3) / 4));
  const whole = end - (end % 4);
  let out = 0;
  let index = 0;
  for (; index < whole; index += 4) {
    const a = DIGITS[input.charCodeAt(index)] ?? -1;
    const b = DIGITS[input.charCodeAt(index + 1)] ?? -1;
    const c = DIGITS[input.charCodeAt(index + 2)] ?? -1;
    const d = DIGITS[input.charCodeAt(index + 3)] ?? -1;
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    output[out++] = n >> 16;
    output[out++] = (n >> 8) & 255;
    output[out++] = n & 255;
  }
  const rest = end - whole;
  if (rest === 1) return null;
  if (rest >= 2) {
    const a = DIGITS[input.charCodeAt(index)] ?? -1;
    const b = DIGITS[input.charCodeAt(index + 1)] ?? -1;
    const c = rest === 3 ? (DIGITS[input.charCodeAt(index + 2)] ?? -1) : 0;
    if ((a | b | c) < 0) return null;
    output[out++] = (a << 2) | (b >> 4);
    if (rest === 3) output[out++] = ((b & 15) << 4) | (c >> 2);
  }
  return output;
}

/** The platform's own base64, where there is one: ten times faster than any loop here. */
interface NativeBytes extends Omit<Uint8Array, 'toString'> {
  toString(encoding: 'base64'): string;
}
const nativeBuffer = (
  globalThis as {
    Buffer?: {
      from(text: string, encoding: 'base64'): NativeBytes;
      from(buffer: ArrayBufferLike, offset: number, length: number): NativeBytes;
    };
  }
).Buffer;
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
const nativeFromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

/** Decodes standard or URL-safe base64 (whitespace ignored). Returns null when it is not base64. */
export function decodeBase64(input: string): Uint8Array | null {
  if (nativeFromBase64 !== undefined) {
    try {
      return nativeFromBase64(input);
    } catch {
      // Refused (or URL-safe, which it reads only when asked): the portable code decides.
      return decodePortably(input);
    }
  }
  if (nativeBuffer !== undefined && input.length % 4 === 0 && !BEYOND_LATIN1.test(input)) {
    // Node's decoder skips what is not base64 instead of refusing it. Skipping anything makes
    // the output shorter than the text's length says (three bytes per four characters, less
    // the padding), so an exact length means every character was a digit. It reads only the
    // low byte of a character beyond Latin-1 (Ń as C), so those go to the portable code.
    const padding = input.endsWith('==') ? 2 : input.endsWith('=') ? 1 : 0;
    const bytes = nativeBuffer.from(input, 'base64');
    if (bytes.length === (input.length / 4) * 3 - padding) return new Uint8Array(bytes);
  }
  return decodePortably(input);
}

/** The decoder for platforms without a native one (exported for its tests). */
export function decodePortably(input: string): Uint8Array | null {
  return decodeUnbroken(input) ?? decodeCarefully(input);
}

function decodeCarefully(input: string): Uint8Array | null {
  const digits = new Uint8Array(input.length);
  let count = 0;
  let padding = 0;
  for (let index = 0; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (isSpace(code)) continue;
    if (code === 0x3d) {
      padding++;
      continue;
    }
    // Data after padding means the text is not one base64 value.
    if (padding > 0) return null;
    const value = code < 128 ? (VALUES[code] ?? -1) : -1;
    if (value < 0) return null;
    digits[count++] = value;
  }
  if (padding > 2 || count % 4 === 1) return null;
  if (padding > 0 && (count + padding) % 4 !== 0) return null;
  const output = new Uint8Array(Math.floor((count * 3) / 4));
  let out = 0;
  let index = 0;
  for (; index + 4 <= count; index += 4) {
    const a = digits[index] ?? 0;
    const b = digits[index + 1] ?? 0;
    const c = digits[index + 2] ?? 0;
    const d = digits[index + 3] ?? 0;
    output[out++] = (a << 2) | (b >> 4);
    output[out++] = ((b & 15) << 4) | (c >> 2);
    output[out++] = ((c & 3) << 6) | d;
  }
  const rest = count - index;
  if (rest >= 2) {
    const a = digits[index] ?? 0;
    const b = digits[index + 1] ?? 0;
    output[out++] = (a << 2) | (b >> 4);
    if (rest === 3) {
      const c = digits[index + 2] ?? 0;
      output[out++] = ((b & 15) << 4) | (c >> 2);
    }
  }
  return output;
}

const CODES = new Uint8Array(64);
for (let index = 0; index < ALPHABET.length; index++) CODES[index] = ALPHABET.charCodeAt(index);

/**
 * Encodes bytes as standard base64 with padding. The characters are written as codes into one
 * array and decoded into text at once: adding four characters at a time to a string took
 * seconds for a few megabytes of sync envelopes.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const nativeToBase64 = (bytes as { toBase64?: () => string }).toBase64;
  if (nativeToBase64 !== undefined) return nativeToBase64.call(bytes);
  if (nativeBuffer !== undefined) {
    return nativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  return encodePortably(bytes);
}

/** The encoder for platforms without a native one (exported for its tests). */
export function encodePortably(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let index = 0;
  for (; index + 3 <= bytes.length; index += 3) {
    const n =
      ((bytes[index] ?? 0) << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    out[o++] = CODES[n >> 18] ?? 0;
    out[o++] = CODES[(n >> 12) & 63] ?? 0;
    out[o++] = CODES[(n >> 6) & 63] ?? 0;
    out[o++] = CODES[n & 63] ?? 0;
  }
  const rest = bytes.length - index;
  if (rest > 0) {
    const n = ((bytes[index] ?? 0) << 16) | (rest === 2 ? (bytes[index + 1] ?? 0) << 8 : 0);
    out[o++] = CODES[n >> 18] ?? 0;
    out[o++] = CODES[(n >> 12) & 63] ?? 0;
    out[o++] = rest === 2 ? (CODES[(n >> 6) & 63] ?? 0) : 0x3d;
    out[o++] = 0x3d;
  }
  // Every code is ASCII, so a UTF-8 decode (native TextDecoder where there is one) is exact.
  return strFromU8(out);
}
