import { z } from 'zod';

/** How much of one kind of room an account uses on the server, and its quota, in bytes. */
export const spaceUsageSchema = z.object({
  usedBytes: z.number().int().min(0),
  limitBytes: z.number().int().min(0),
});
export type SpaceUsage = z.infer<typeof spaceUsageSchema>;

/**
 * GET /api/account/usage: the signed-in user's room on the server per kind, each with its own
 * quota (QUOTA_*_MIB): the dataset files sync carries (blobs), the synced changes (log), and the
 * backups with their public links' copies.
 */
export const accountUsageResponseSchema = z.object({
  blobs: spaceUsageSchema,
  log: spaceUsageSchema,
  backups: spaceUsageSchema,
});
export type AccountUsageResponse = z.infer<typeof accountUsageResponseSchema>;
