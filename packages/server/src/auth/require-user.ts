import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AccountLimits, Admission } from '../http/account-limits.ts';
import { sendApiError } from '../http/api-error.ts';
import { copyWebHeaders, toWebHeaders } from '../http/web-request.ts';
import type { Auth } from './auth.ts';

export interface SignedInUser {
  id: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook for routes that need a signed-in user (cookie session or Bearer token): it
     * runs before the body is read, so a signed-out client cannot make the server read one.
     */
    requireUser: onRequestAsyncHookHandler;
  }
  interface FastifyContextConfig {
    /**
     * A long-lived request (the event stream) counts against the account's request budget but
     * holds no place among its requests in progress.
     */
    longLived?: boolean;
  }
  interface FastifyRequest {
    /** Set by `requireUser`; null on routes that do not use it. */
    signedInUser: SignedInUser | null;
  }
}

/**
 * Resolves the user, then holds the request to the account's fair share (`AccountLimits`):
 * past it the answer is 429 with Retry-After, before the body is read or the database asked.
 */
export function createRequireUser(auth: Auth, limits: AccountLimits): onRequestAsyncHookHandler {
  const recent = new RecentCredentials();
  return async function requireUser(request: FastifyRequest, reply: FastifyReply) {
    const concurrent = request.routeOptions.config.longLived !== true;
    // A flood costs its account's own budget, not the server's: credentials that resolved to an
    // account lately are refused at once while that account is over its share, before the
    // session is looked up (a cookie's signature and two queries, about what serving a small
    // request costs). This never lets a request in: an admitted one is resolved as always.
    const credential = credentialOf(request);
    const knownUser = credential === null ? undefined : recent.get(credential);
    const early = knownUser === undefined ? null : limits.refusal(knownUser, { concurrent });
    if (early !== null && knownUser !== undefined) {
      return refuse(reply, limits, knownUser, early);
    }
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
    if (credential !== null) recent.set(credential, session.user.id);
    const admission = limits.admit(session.user.id, { concurrent });
    if (!admission.admitted) {
      return refuse(reply, limits, session.user.id, admission);
    }
    // 'close' comes once the answer is sent or the client went away, whichever is first. The
    // work is done before that, when the answer is handed to be sent (`markWorkDone`): a client
    // reading a large answer slowly then holds its own place only, not the lane.
    reply.raw.once('close', admission.release);
    workDoneOf.set(request, admission.workDone);
    if (admission.turn !== null && !(await admission.turn)) {
      // The client went away while its heavy account's request waited for its turn.
      return sendApiError(reply, 499, 'gone', 'The request was given up before its turn came.');
    }
    request.signedInUser = { id: session.user.id, email: session.user.email };
  };
}

const workDoneOf = new WeakMap<FastifyRequest, () => void>();

/**
 * onSend hook for the whole app: a request `requireUser` admitted has made its answer, and what
 * is left (writing it to a client that may read slowly) holds nothing other accounts wait for.
 */
export function markWorkDone(request: FastifyRequest): void {
  workDoneOf.get(request)?.();
}

/** Answers 429 with Retry-After, after the hold `AccountLimits.refusalDelay` asks for. */
async function refuse(
  reply: FastifyReply,
  limits: AccountLimits,
  userId: string,
  refusal: Exclude<Admission, { admitted: true }>,
): Promise<FastifyReply> {
  const delayMs = limits.refusalDelay(userId);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  reply.header('retry-after', String(refusal.retryAfterSeconds));
  return sendApiError(reply, 429, refusal.error, refusal.message);
}

/** The user `requireUser` resolved; a route without that hook is a bug, not a 401. */
export function signedInUserOf(request: FastifyRequest): SignedInUser {
  if (request.signedInUser === null) {
    throw new Error(
      `Route ${request.routeOptions.url ?? request.url} is missing the requireUser onRequest hook`,
    );
  }
  return request.signedInUser;
}

/** The request's credentials as they came: its Cookie and Authorization headers; null without. */
function credentialOf(request: FastifyRequest): string | null {
  const { cookie, authorization } = request.headers;
  if (cookie === undefined && authorization === undefined) return null;
  return `${cookie ?? ''}\n${authorization ?? ''}`;
}

/**
 * Which account each of the last few thousand credentials resolved to, in this process's memory
 * only (never logged, gone on restart). Used only to refuse early, never to admit.
 */
class RecentCredentials {
  private static readonly MAX = 10_000;
  private readonly users = new Map<string, string>();

  get(credential: string): string | undefined {
    return this.users.get(credential);
  }

  set(credential: string, userId: string): void {
    this.users.delete(credential);
    this.users.set(credential, userId);
    if (this.users.size > RecentCredentials.MAX) {
      // A Map keeps insertion order: the first key is the one least recently resolved.
      const oldest = this.users.keys().next().value;
      if (oldest !== undefined) this.users.delete(oldest);
    }
  }
}
