import { z } from 'zod';

// The building blocks every sync message is made of. The server stores these values and hands
// them back; only `seqno` and `epoch` mean anything to it.

/**
 * An id the client makes and the server only compares: a change's hybrid-logical-clock
 * timestamp, a device id, a push's batch id. Printable ASCII without spaces, so it can be
 * logged and compared byte for byte.
 */
export const opaqueIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** A position in a user's change log. The server hands them out per user: 1, 2, 3, … */
export const seqnoSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The key epoch: which data key a ciphertext was made with. A password reset makes a new data
 * key and the next epoch; the server refuses pushes made under any other epoch than the current.
 */
export const epochSchema = z.number().int().nonnegative().max(2_147_483_647);

/** Standard base64 (with padding), the way every binary value travels inside JSON. */
export const base64Schema = z.base64();

/** How many bytes a canonical base64 string decodes to, without decoding it. */
export function base64ByteLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/** The longest base64 text that can hold `bytes` bytes. */
export function base64LengthFor(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Where the sync routes live; a blob is at `${syncPaths.blobs}/${sha256}`. */
export const syncPaths = {
  settings: '/api/sync/settings',
  push: '/api/sync/push',
  pull: '/api/sync/pull',
  /** What a reset would take: the current epoch's envelopes other devices pushed after a cursor. */
  unreceived: '/api/sync/unreceived',
  blobs: '/api/sync/blobs',
  events: '/api/sync/events',
} as const;
