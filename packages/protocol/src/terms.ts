import { z } from 'zod';

/** The terms of service a user is asked to accept. Bump when the text changes materially. */
export const TERMS_VERSION = '2026-11-01';

/** Who is reading the terms: the web app or one of the native shells. */
export const termsViewers = ['web', 'ios', 'android'] as const;
export const termsViewerSchema = z.enum(termsViewers);
export type TermsViewer = z.infer<typeof termsViewerSchema>;

/** GET /api/terms/acceptance: the signed-in user's own acceptance, if any. */
export const termsAcceptanceResponseSchema = z.object({
  currentVersion: z.string(),
  accepted: z
    .object({
      version: z.string(),
      acceptedAt: z.string(),
    })
    .nullable(),
});
export type TermsAcceptanceResponse = z.infer<typeof termsAcceptanceResponseSchema>;

/** POST /api/terms/acceptance: accept a version of the terms. Unknown fields are refused. */
export const acceptTermsRequestSchema = z.strictObject({
  version: z.string().min(1).max(64),
});
export type AcceptTermsRequest = z.infer<typeof acceptTermsRequestSchema>;
