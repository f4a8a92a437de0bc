import cors from '@fastify/cors';
import { PROTOCOL_HEADER } from '@docket/protocol/protocol-version';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';

/**
 * Lets the origins in TRUSTED_ORIGINS (the native shell's capacitor://localhost, say) call the
 * API from another origin. Same-origin use by the web app needs none of this, so without
 * TRUSTED_ORIGINS nothing is registered and browsers keep refusing cross-origin calls.
 */
export async function registerCors(app: FastifyInstance, config: ServerConfig): Promise<void> {
  if (config.trustedOrigins.length === 0) return;
  await app.register(cors, {
    origin: config.trustedOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', PROTOCOL_HEADER],
    // The bearer plugin hands the native shell its token in this header.
    exposedHeaders: ['set-auth-token'],
    maxAge: 600,
  });
}
