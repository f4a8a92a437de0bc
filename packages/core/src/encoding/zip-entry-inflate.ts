import { Inflate, inflateSync } from 'fflate';

// An archive entry's bytes, inflated under a budget. fflate's one-shot inflate, given a buffer of
// the declared size, stops writing at its end but goes on decoding the whole stream: an entry
// that declares 1,000 bytes and inflates to 1 GiB took 9–17 s per MB of ZIP before its CRC
// refused it. Deflate expands at most 1,032 times, so the work a lie can cost is bounded two ways:
// - An entry whose compressed bytes could not give more than 4 MiB even at that ratio (under
//   4 KiB of them, a bill's usual size) is inflated in one call, into a buffer one byte longer
//   than it declares; the extra byte written is the lie. At most 4 MiB of work, a few ms.
// - A larger entry is fed in pieces, and inflating stops at the first piece whose output passes
//   the declared size. A piece of a 1,024th of the declared size (at least 4 KiB, at most
//   256 KiB) gives at most about the declared size again, or 4 MiB: a lie costs at most twice
//   the work of the truth, plus 4 MiB.
// The one-shot call is the fast one: a bill of 10 KB (2 KB deflated) took 320 µs in pieces of
// 1 KiB, 190 µs streamed in one piece and 75 µs in one call.

/** Deflate's largest expansion: 258 bytes from 2 bits. */
const MAX_DEFLATE_RATIO = 1032;

/** The most a one-shot inflate may write for an entry that lies about its size. */
const ONE_SHOT_MAX_BYTES = 4 * 1024 * 1024;

/** Compressed bytes fed per step. */
function pieceSize(declaredSize: number): number {
  return Math.min(256 * 1024, Math.max(4 * 1024, Math.floor(declaredSize / 1024)));
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
  if (compressed.length > 0 && compressed.length * MAX_DEFLATE_RATIO <= ONE_SHOT_MAX_BYTES) {
    return inflateInOneCall(compressed, declaredSize);
  }
  return inflateInPieces(compressed, declaredSize);
}

function damaged(error: unknown, inflated: number): BoundedInflate {
  return {
    ok: false,
    reason: `its compressed data is damaged (${error instanceof Error ? error.message : String(error)})`,
    inflated,
  };
}

function checked(bytes: Uint8Array, declaredSize: number, inflated: number): BoundedInflate {
  if (inflated > declaredSize) {
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
  return { ok: true, bytes, inflated };
}

function inflateInOneCall(compressed: Uint8Array, declaredSize: number): BoundedInflate {
  // fflate writes nothing past the buffer it is given, and returns the part it filled.
  const room = new Uint8Array(declaredSize + 1);
  let written: Uint8Array;
  try {
    written = inflateSync(compressed, { out: room });
  } catch (error) {
    return damaged(error, 0);
  }
  return checked(room.subarray(0, declaredSize), declaredSize, written.length);
}

function inflateInPieces(compressed: Uint8Array, declaredSize: number): BoundedInflate {
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
    return damaged(error, seen.inflated);
  }
  return checked(out, declaredSize, seen.inflated);
}
