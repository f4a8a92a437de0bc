export const AUTH_UNREACHABLE_MESSAGE =
  'Cannot reach the Docket server. Check your connection and try again.';

/**
 * What to tell the user about a failed better-auth call. The server's own message is the most
 * precise (wrong password, e-mail taken, too many attempts); without one, a failure without an
 * HTTP answer or with a gateway error means the server could not be reached.
 */
export function authErrorMessage(error: unknown): string {
  // Checked by hand, not with zod: the sign-in screen's first paint would pay for zod.
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    return AUTH_UNREACHABLE_MESSAGE;
  }
  const fields = error as { status?: unknown; message?: unknown };
  const status = fields.status;
  const message = fields.message;
  if (
    (status !== undefined && typeof status !== 'number') ||
    (message !== undefined && typeof message !== 'string')
  ) {
    return AUTH_UNREACHABLE_MESSAGE;
  }
  if (message?.trim() && status !== undefined && status > 0) return message;
  if (status === 429) return 'Too many attempts. Wait a minute and try again.';
  if (status === undefined || status === 0 || status >= 500) return AUTH_UNREACHABLE_MESSAGE;
  return `The server refused the request (${status}).`;
}
