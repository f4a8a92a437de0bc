import { z } from 'zod';

// A dataset's mark on this device that files it lacks here cannot come (`filesUnavailable`, one
// of `datasetLocalFields`: never synced, never in a server backup). Sync sets and clears it after
// each run's download (sync/sync-dataset-files-unavailable.ts); Datasets says why from it.

/**
 * Why: no device sent them (`not-sent`: the definition lists no blob for a file), none since the
 * cloud password was reset (`not-sent-since-reset`: blobs only of an older key epoch), or one
 * listed under the current epoch could not be fetched (`not-fetched`).
 */
export const datasetFilesUnavailableReasons = [
  'not-sent',
  'not-sent-since-reset',
  'not-fetched',
] as const;

export const filesUnavailableSchema = z.object({
  reason: z.enum(datasetFilesUnavailableReasons),
  /** How many of its files this device lacks. */
  missing: z.number().int().nonnegative(),
  /** For `not-fetched`: the first file that could not be fetched, and why. */
  file: z.string().max(1000).optional(),
  problem: z.string().max(2000).optional(),
});
export type FilesUnavailable = z.infer<typeof filesUnavailableSchema>;
