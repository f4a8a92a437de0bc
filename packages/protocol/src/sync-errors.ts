import { z } from 'zod';

/**
 * The `error` codes of the sync routes (the body is `apiErrorSchema`; a settings conflict adds
 * `current`). Status codes in brackets.
 *
 * - `version-conflict` [409]: the settings changed since `expectedVersion`; merge with `current`.
 * - `epoch-mismatch` [409]: the push was encrypted under another key epoch than the settings'
 *   `keyEpoch`: the password was reset elsewhere. Fetch the settings, ask for the password.
 * - `epoch-regression` [409]: a settings write tried to move `keyEpoch` down.
 * - `batch-conflict` [409]: this batch id was already used for a different batch.
 * - `batch-too-large` [413]: more than MAX_PUSH_ENVELOPES envelopes, or a body over
 *   MAX_PUSH_BODY_BYTES: split the batch.
 * - `envelope-too-large` [413]: one ciphertext over MAX_ENVELOPE_BYTES.
 * - `blob-too-large` [413]: a blob over MAX_BLOB_BYTES.
 * - `blob-hash-mismatch` [400]: the bytes' SHA-256 is not the address they were put under.
 * - `not-found` [404]: no such blob for this user (another user's blob is not found either).
 */
export const syncErrorCodes = [
  'version-conflict',
  'epoch-mismatch',
  'epoch-regression',
  'batch-conflict',
  'batch-too-large',
  'envelope-too-large',
  'blob-too-large',
  'blob-hash-mismatch',
  'not-found',
] as const;
export const syncErrorCodeSchema = z.enum(syncErrorCodes);
export type SyncErrorCode = z.infer<typeof syncErrorCodeSchema>;
