import { z } from 'zod';

// Content-addressed encrypted blobs (a dataset's files, encrypted on the device). The address is
// the SHA-256 of the ciphertext, so the server can check what it stores without reading it.
//
// PUT /api/sync/blobs/:sha256   body: the ciphertext, Content-Type application/octet-stream
// GET /api/sync/blobs/:sha256   answer: the same bytes (HEAD tells whether it is there)

/** Largest blob, in bytes (`blob-too-large` beyond). */
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;

export const BLOB_CONTENT_TYPE = 'application/octet-stream';

/** Lower-case hex SHA-256 of the blob's bytes. */
export const blobAddressSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256');

/** The path parameters of both blob routes. */
export const blobParamsSchema = z.strictObject({ sha256: blobAddressSchema });
export type BlobParams = z.infer<typeof blobParamsSchema>;

/** The answer to a PUT; putting a blob that is already there is not an error. */
export const blobPutResponseSchema = z.object({
  sha256: blobAddressSchema,
  size: z.number().int().nonnegative(),
  /** False when the server already had this blob. */
  created: z.boolean(),
});
export type BlobPutResponse = z.infer<typeof blobPutResponseSchema>;
