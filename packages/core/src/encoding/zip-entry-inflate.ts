import { Inflate } from 'fflate';

// An archive entry's bytes, inflated under a budget. fflate's one-shot inflate, given a buffer of
// the declared size, stops writing at its end but goes on decoding the whole stream: an entry
// that declares 1,000 bytes and inflates to 1 GiB took 9–17 s per MB of ZIP before its CRC
// refused it. Here the compressed bytes are fed in pieces and inflation stops at the first piece
// whose output passes the declared size. Deflate expands at most 1,032 times, so a piece of a
// 1,024th of the declared size (at least 1 KiB, at most 256 KiB) gives at most about the
// declared size again: a lie costs at most twice the work of the truth, and a 1,000-byte entry
// at most about 1 MB. Streaming costs some speed over the one-shot call (larger pieces, less).

/** Compressed bytes fed per step. */
function pieceSize(declaredSize: number): number {
  return Math.min(256 * 1024, Math.max(1024, Math.floor(declaredSize / 1024)));
}

export type BoundedInflate =
  | { ok: true; bytes: Uint8Array; inflated: number }
  | { ok: false; reason: string; inflated: number };

/** A size as a person reads it: "1000 bytes", "3 KB", "200 MB". */
export function byteSizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * Inflates raw DEFLATE data into exactly `declaredSize` bytes, refusing it once it would give
 * more (an entry that lies about its size), or less. `inflated` is the work done, in bytes out.
 */
export function inflateWithin(compressed: Uint8Array, declaredSize: number): BoundedInflate {
  const out = new Uint8Array(declaredSize);
  // A holder, so the compiler sees the callback change it.
  const seen = { inflated: 0, over: false };
  const inflater = new Inflate((chunk) => {
    if (seen.over) return;
    if (seen.inflated + chunk.length > declaredSize) seen.over = true;
    else out.set(chunk, seen.inflated);
    seen.inflated += chunk.length;
  });
  const step = pieceSize(declaredSize);
  try {
    for (let at = 0; at < compressed.length && !seen.over; at += step) {
      const end = Math.min(compressed.length, at + step);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
    if (compressed.length === 0) inflater.push(compressed, true);
  } catch (error) {
    return {
      ok: false,
      reason: `its compressed data is damaged (${error instanceof Error ? error.message : String(error)})`,
      inflated: seen.inflated,
    };
  }
  const { inflated } = seen;
  if (seen.over) {
    return {
      ok: false,
      reason: `it inflates past the ${byteSizeLabel(declaredSize)} it declares; inflating was stopped and the entry refused as a possible ZIP bomb`,
      inflated,
    };
  }
  if (inflated !== declaredSize) {
    return {
      ok: false,
      reason: `it inflates to ${byteSizeLabel(inflated)}, not the ${byteSizeLabel(declaredSize)} it declares`,
      inflated,
    };
  }
  return { ok: true, bytes: out, inflated };
}
