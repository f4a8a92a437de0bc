// Base64 is the platform's own everywhere core runs: Uint8Array.fromBase64/toBase64 where there
// are (Chromium 140+, Node 25+), Node's Buffer under Node 20 (the CLI, the tests), and the web's
// atob/btoa, which Node 20, browsers and workers all have, as the fallback. Each refuses what is
// not base64, so no library is needed for validation either (README.md says why no library).

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
const nativeFromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
// Core's type check has no DOM types; every platform core runs on has these two.
const { atob, btoa } = globalThis as unknown as {
  atob: (text: string) => string;
  btoa: (binary: string) => string;
};
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
const URL_SAFE_DIGITS = /[-_]/g;

/** Decodes standard or URL-safe base64 (whitespace ignored). Returns null when it is not base64. */
export function decodeBase64(input: string): Uint8Array | null {
  if (nativeFromBase64 !== undefined) {
    try {
      return nativeFromBase64(input);
    } catch {
      // Refused (or URL-safe, which it reads only when asked): atob's reading decides.
      return decodePortably(input);
    }
  }
  if (nativeBuffer !== undefined && input.length % 4 === 0 && !BEYOND_LATIN1.test(input)) {
    // Node's decoder skips what is not base64 instead of refusing it. Skipping anything makes
    // the output shorter than the text's length says (three bytes per four characters, less
    // the padding), so an exact length means every character was a digit. It reads only the
    // low byte of a character beyond Latin-1 (Ń as C), so those go to atob.
    const padding = input.endsWith('==') ? 2 : input.endsWith('=') ? 1 : 0;
    const bytes = nativeBuffer.from(input, 'base64');
    if (bytes.length === (input.length / 4) * 3 - padding) return new Uint8Array(bytes);
  }
  return decodePortably(input);
}

/**
 * The decoder every platform has: the web's forgiving base64 (atob), which skips whitespace,
 * takes the padding or leaves it out, and refuses anything else. The URL-safe digits, which
 * appear in some exports, are read as their standard twins first.
 */
export function decodePortably(input: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(input.replace(URL_SAFE_DIGITS, (digit) => (digit === '-' ? '+' : '/')));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Encodes bytes as standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  const nativeToBase64 = (bytes as { toBase64?: () => string }).toBase64;
  if (nativeToBase64 !== undefined) return nativeToBase64.call(bytes);
  if (nativeBuffer !== undefined) {
    return nativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  return encodePortably(bytes);
}

/** Characters per String.fromCharCode call: well under any engine's limit on arguments. */
const CHUNK = 0x8000;

/** The encoder every platform has (btoa), fed the bytes as one character each, a chunk at a
 *  time: adding characters one by one to a string took seconds for megabytes of envelopes. */
export function encodePortably(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let index = 0; index < bytes.length; index += CHUNK) {
    parts.push(String.fromCharCode(...bytes.subarray(index, index + CHUNK)));
  }
  return btoa(parts.join(''));
}
