import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { sendApiError } from '../http/api-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery, refused the way better-auth refuses it on /api/auth/*: a request
 * that changes state on Docket's own API must come from the server's own origin or from
 * TRUSTED_ORIGINS (the native shell). A request without an Origin header is a non-browser
 * client (the CLI, a script), unless the browser says it is cross-site.
 *
 * And bearer tokens: the `set-auth-token` header goes only to the native shell (a trusted
 * origin) and to non-browser clients; a web page keeps its session in an httpOnly cookie, and
 * its script never sees a token it could leak.
 */
export function registerOriginCheck(app: FastifyInstance, config: ServerConfig): void {
  const allowed = new Set([...config.publicOrigins, ...config.trustedOrigins]);
  const native = new Set(config.trustedOrigins);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url.split('?', 1)[0] ?? request.url;
    if (!path.startsWith('/api/') || path.startsWith('/api/auth/')) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    const refused =
      origin === undefined ? fetchSite === 'cross-site' : !allowed.has(origin.replace(/\/+$/, ''));
    if (refused) {
      return sendApiError(
        reply,
        403,
        'forbidden-origin',
        `Requests from ${origin ?? 'another site'} may not change anything here; use Docket at ${config.publicUrl}.`,
      );
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !native.has(origin) && reply.hasHeader('set-auth-token')) {
      reply.removeHeader('set-auth-token');
    }
    return payload;
  });
}
