import { z } from 'zod';

/** The body of every 4xx/5xx answer from Docket's own API (auth routes answer in better-auth's shape). */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
