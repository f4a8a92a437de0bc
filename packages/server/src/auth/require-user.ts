import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { sendApiError } from '../http/api-error.ts';
import { copyWebHeaders, toWebHeaders } from '../http/web-request.ts';
import type { Auth } from './auth.ts';

export interface SignedInUser {
  id: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for routes that need a signed-in user: cookie session or Bearer token. */
    requireUser: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Set by `requireUser`; null on routes that do not use it. */
    signedInUser: SignedInUser | null;
  }
}

export function createRequireUser(auth: Auth): preHandlerAsyncHookHandler {
  return async function requireUser(request: FastifyRequest, reply: FastifyReply) {
    const { headers, response: session } = await auth.api.getSession({
      headers: toWebHeaders(request.headers),
      returnHeaders: true,
    });
    // getSession may refresh the session's expiry or clear a dead cookie; pass that on so an
    // app that only calls the API keeps a sliding session like one that calls get-session.
    copyWebHeaders(reply, headers);
    if (session === null) {
      return sendApiError(reply, 401, 'unauthorized', 'Sign in to continue.');
    }
    request.signedInUser = { id: session.user.id, email: session.user.email };
  };
}

/** The user `requireUser` resolved; a route without that preHandler is a bug, not a 401. */
export function signedInUserOf(request: FastifyRequest): SignedInUser {
  if (request.signedInUser === null) {
    throw new Error(
      `Route ${request.routeOptions.url ?? request.url} is missing the requireUser preHandler`,
    );
  }
  return request.signedInUser;
}
