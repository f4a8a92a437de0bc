import { createAuthClient } from 'better-auth/react';
import type { Platform } from '../platform/platform.ts';

/** Where the server's better-auth handler is mounted. */
export const AUTH_BASE_PATH = '/api/auth';

/**
 * The better-auth client. Its calls go to /api/auth on the server's origin (the page's own on
 * the web). On a bearer platform every call carries the kept token, and a fresh token from
 * the `set-auth-token` response header replaces it.
 */
export function createDocketAuthClient(platform: Platform, pageOrigin: string) {
  const { auth } = platform;
  return createAuthClient({
    baseURL: `${platform.serverOrigin || pageOrigin}${AUTH_BASE_PATH}`,
    fetchOptions: {
      ...(auth.kind === 'bearer' ? { auth: { type: 'Bearer', token: () => auth.token() } } : {}),
      onSuccess: async (context) => {
        const token = context.response.headers.get('set-auth-token');
        if (token && auth.kind === 'bearer') await auth.rememberToken(token);
      },
    },
  });
}

export type DocketAuthClient = ReturnType<typeof createDocketAuthClient>;
