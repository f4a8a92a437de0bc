import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';

/**
 * Adds reply.sendFile for the built app. The app-shell route decides what to send and with
 * which cache headers, so this plugin serves nothing by itself. The build writes brotli and gzip
 * copies beside each text file (packages/app/build-tools/precompress.ts); `preCompressed` sends
 * the one the browser accepts, else the plain file.
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
    preCompressed: true,
  });
}
