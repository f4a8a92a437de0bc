import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';

/**
 * Adds reply.sendFile for the built app. The app-shell route decides what to send and with
 * which cache headers, so this plugin serves nothing by itself.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  config: ServerConfig,
): Promise<void> {
  await app.register(fastifyStatic, {
    root: config.appDir,
    serve: false,
    index: false,
    cacheControl: false,
    dotfiles: 'deny',
  });
}
