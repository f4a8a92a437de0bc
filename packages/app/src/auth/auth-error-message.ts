import { z } from 'zod';

export const AUTH_UNREACHABLE_MESSAGE =
  'Cannot reach the Docket server. Check your connection and try again.';

const authErrorSchema = z.object({
  status: z.number().optional(),
  message: z.string().optional(),
});

/**
 * What to tell the user about a failed better-auth call. The server's own message is the most
 * precise (wrong password, e-mail taken, too many attempts); without one, a failure without an
 * HTTP answer or with a gateway error means the server could not be reached.
 */
export function authErrorMessage(error: unknown): string {
  const parsed = authErrorSchema.safeParse(error);
  if (!parsed.success) return AUTH_UNREACHABLE_MESSAGE;
  const { status, message } = parsed.data;
  if (message?.trim() && status !== undefined && status > 0) return message;
  if (status === 429) return 'Too many attempts. Wait a minute and try again.';
  if (status === undefined || status === 0 || status >= 500) return AUTH_UNREACHABLE_MESSAGE;
  return `The server refused the request (${status}).`;
}
