import { strFromU8 } from 'fflate';

// ES2023 has no atob and fflate has no base64, so core decodes it itself.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) VALUES[ALPHABET.charCodeAt(index)] = index;
// The URL-safe alphabet appears in some exports; accepting it costs nothing.
VALUES['-'.charCodeAt(0)] = 62;
VALUES['_'.charCodeAt(0)] = 63;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Decodes standard or URL-safe base64 (whitespace ignored). Returns null when it is not base64. */
export function decodeBase64(input: string): Uint8Array | null {
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
