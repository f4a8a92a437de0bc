import type { FastifyInstance } from 'fastify';
import type { Auth } from '../auth/auth.ts';
import type { ServerConfig } from '../config.ts';
import { sendWebResponse, toWebRequest } from '../http/web-request.ts';

/** Hands every /api/auth/* request to better-auth, rate limited per client IP. */
export async function authRoutes(
  app: FastifyInstance,
  auth: Auth,
  config: ServerConfig,
): Promise<void> {
  await app.register((scope, _options, done) => {
    // better-auth parses and validates bodies itself (JSON and form posts), so it gets the raw
    // bytes; the 1 MiB body limit still applies.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, parsed) => {
      parsed(null, body);
    });

    scope.route({
      // OPTIONS is left to the CORS plugin's preflight answer.
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/api/auth/*',
      config: {
        rateLimit: {
          max: config.authRateLimitMax,
          timeWindow: '1 minute',
          // Guessing passwords and flooding mail take POSTs; the session check every page load
          // makes is a GET and would otherwise lock out an office behind one address.
          allowList: (request) => request.method === 'GET',
        },
      },
      handler: async (request, reply) => {
        const response = await auth.handler(toWebRequest(request, config.publicUrl));
        return sendWebResponse(reply, response);
      },
    });
    done();
  });
}
