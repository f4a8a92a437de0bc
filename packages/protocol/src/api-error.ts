import { z } from 'zod';

/**
 * The body of every 4xx/5xx answer from Docket's own API (auth routes answer in better-auth's
 * shape). Codes any authenticated route may answer with:
 *
 * - `rate-limited` [429, Retry-After]: the account made too many requests this minute.
 * - `too-many-concurrent` [429, Retry-After]: the account has too many requests in progress.
 * - `over-share` [429, Retry-After]: the account moved more changes or blob bytes lately than
 *   its share; Retry-After says when its budget allows the next request.
 * - `request-too-slow` [408]: the request's body came slower than the server's minimum rate
 *   (any route, signed in or not); the connection is closed after the answer.
 * - `quota-exceeded` [413]: the write would take the account past its room for that kind of
 *   data (blobs, the change log, backups); `message` says which and how full, fit to show.
 */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
