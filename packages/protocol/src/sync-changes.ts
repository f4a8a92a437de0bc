import { z } from 'zod';
import {
  base64ByteLength,
  base64LengthFor,
  base64Schema,
  epochSchema,
  opaqueIdSchema,
  seqnoSchema,
} from './sync-wire.ts';

// The change log: a client pushes batches of encrypted envelopes, the server appends them to
// the user's log under consecutive sequence numbers, and every device pulls them back in order.

/** Most envelopes one push may carry (`batch-too-large` beyond). */
export const MAX_PUSH_ENVELOPES = 1000;
/** Largest ciphertext of one envelope, decoded, in bytes (`envelope-too-large` beyond). */
export const MAX_ENVELOPE_BYTES = 256 * 1024;
/** Largest push request body, in bytes (`batch-too-large` beyond). */
export const MAX_PUSH_BODY_BYTES = 8 * 1024 * 1024;
/** Most changes a pull page holds; also the default `limit`. */
export const MAX_PULL_LIMIT = 1000;
/**
 * A pull page stops taking changes once their ciphertext passes this many bytes (a page always
 * holds at least one change), so a page stays a few MiB whatever the limit.
 */
export const PULL_PAGE_TARGET_BYTES = 4 * 1024 * 1024;

/** One encrypted change as the client sends it. */
export const syncEnvelopeSchema = z.strictObject({
  /** The change's id, normally its hybrid-logical-clock timestamp; opaque to the server. */
  id: opaqueIdSchema,
  /** AES-GCM output (nonce and tag included, as the client lays them out), base64. */
  ciphertext: base64Schema
    .max(base64LengthFor(MAX_ENVELOPE_BYTES))
    .refine((value) => base64ByteLength(value) <= MAX_ENVELOPE_BYTES, {
      message: `must decode to at most ${MAX_ENVELOPE_BYTES} bytes`,
    })
    .refine((value) => value.length > 0, { message: 'must not be empty' }),
});
export type SyncEnvelope = z.infer<typeof syncEnvelopeSchema>;

/**
 * POST /api/sync/push. `batchId` makes the push idempotent: sending the same batch again (after
 * a lost answer, a crash, a reload) returns the first push's sequence numbers and stores nothing.
 */
export const pushRequestSchema = z.strictObject({
  batchId: opaqueIdSchema,
  deviceId: opaqueIdSchema,
  /** The key epoch the envelopes were encrypted under; must equal the settings' `keyEpoch`. */
  epoch: epochSchema,
  envelopes: z.array(syncEnvelopeSchema).min(1).max(MAX_PUSH_ENVELOPES),
});
export type PushRequest = z.infer<typeof pushRequestSchema>;

/** The answer to a push: the acknowledgement the client may remove its outbox entries on. */
export const pushResponseSchema = z.object({
  batchId: opaqueIdSchema,
  /** The sequence number of each envelope, in the order they were sent. */
  seqnos: z.array(seqnoSchema),
  /** True when this batch had been stored before and nothing new was written. */
  duplicate: z.boolean(),
  /** The newest sequence number in the user's log after this push. */
  latestSeqno: seqnoSchema,
});
export type PushResponse = z.infer<typeof pushResponseSchema>;

const decimalSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})$/, 'must be a whole number')
  .transform(Number);

/** GET /api/sync/pull?since=&limit= — the query string. */
export const pullQuerySchema = z.strictObject({
  /** The last sequence number the client has applied; 0 for everything. */
  since: decimalSchema.pipe(seqnoSchema),
  limit: decimalSchema.pipe(z.number().int().min(1).max(MAX_PULL_LIMIT)).optional(),
});
export type PullQuery = z.infer<typeof pullQuerySchema>;

/** One change as the server hands it back. */
export const syncChangeSchema = z.object({
  seqno: seqnoSchema,
  id: opaqueIdSchema,
  deviceId: opaqueIdSchema,
  batchId: opaqueIdSchema,
  epoch: epochSchema,
  ciphertext: base64Schema,
});
export type SyncChange = z.infer<typeof syncChangeSchema>;

/** A page of the log after `since`, in sequence order. */
export const pullResponseSchema = z.object({
  changes: z.array(syncChangeSchema),
  /** True when more changes follow the last one in this page: pull again from its seqno. */
  hasMore: z.boolean(),
  /** The newest sequence number in the user's log when this page was read. */
  latestSeqno: seqnoSchema,
});
export type PullResponse = z.infer<typeof pullResponseSchema>;

/**
 * GET /api/sync/unreceived?since=&deviceId= — what a cloud password reset on this device would
 * take out of the account: the log entries of the current key epoch after `since` (the device's
 * pull cursor; the epoch's start when its cursor is under another epoch) that devices other than
 * `deviceId` pushed. The server counts envelopes; how many changes each holds it cannot know.
 */
export const unreceivedQuerySchema = z.strictObject({
  since: decimalSchema.pipe(seqnoSchema),
  deviceId: opaqueIdSchema,
});
export type UnreceivedQuery = z.infer<typeof unreceivedQuerySchema>;

/** The answer: how many envelopes (each one or more changes) this device has not received. */
export const unreceivedResponseSchema = z.object({
  envelopes: z.number().int().nonnegative(),
});
export type UnreceivedResponse = z.infer<typeof unreceivedResponseSchema>;
