import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiHttpError } from '../http/api-error.ts';

/**
 * Registers the limiter without applying it anywhere: routes opt in with `config.rateLimit`
 * (today only /api/auth/*, where password guessing and mail flooding happen).
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // Thrown by the plugin and answered by the global error handler in our JSON shape.
    errorResponseBuilder: (_request, context) =>
      new ApiHttpError(429, 'rate-limited', `Too many requests. Try again in ${context.after}.`),
  });
}
