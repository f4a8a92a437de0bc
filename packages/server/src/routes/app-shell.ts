import { stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Vite puts content-hashed files here: a new build gives them new names, never new bytes. */
const HASHED_ASSETS_PREFIX = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, sw.js, the manifest) must be revalidated so updates arrive. */
const REVALIDATE = 'no-cache';

const NOT_BUILT_MESSAGE =
  "Docket's app has not been built yet. Run `npm run build` at the repository root " +
  '(or `npm start`, which builds it), then reload this page.\n';

/**
 * Serves the built app: its files as they are, and index.html for every other GET outside /api/
 * so the client router can open deep links such as /bill-details?id=1 or /public-link/abc.
 */
export function appShellRoutes(app: FastifyInstance, appDir: string): void {
  const root = resolve(appDir);

  app.get('/*', async (request, reply) => {
    const pathname = decodePathname(request.url);
    // Unknown API paths get the JSON 404 of the not-found handler, never the app.
    if (pathname === null || pathname === '/api' || pathname.startsWith('/api/')) {
      reply.callNotFound();
      return reply;
    }

    const file = await findFile(root, pathname);
    if (file !== null) {
      const cacheControl = pathname.startsWith(HASHED_ASSETS_PREFIX) ? IMMUTABLE : REVALIDATE;
      // The static plugin may answer with the build's brotli or gzip copy (preCompressed).
      return reply
        .header('cache-control', cacheControl)
        .header('vary', 'accept-encoding')
        .sendFile(file);
    }
    // A missing script or image must stay a 404: answering index.html would hand the browser
    // HTML where it expects JavaScript, and hide a stale reference to an old build.
    if (pathname.startsWith(HASHED_ASSETS_PREFIX) || /\.[a-z0-9]+$/i.test(pathname)) {
      reply.callNotFound();
      return reply;
    }
    return sendIndex(reply, root);
  });
}

async function sendIndex(reply: FastifyReply, root: string): Promise<FastifyReply> {
  if ((await findFile(root, '/index.html')) === null) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(NOT_BUILT_MESSAGE);
  }
  return reply
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .sendFile('index.html');
}

function decodePathname(url: string): string | null {
  const [path = '/'] = url.split('?', 1);
  try {
    const decoded = decodeURIComponent(path);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

/** The file's path relative to root, or null when it is missing, a folder, hidden or outside. */
async function findFile(root: string, pathname: string): Promise<string | null> {
  const absolute = resolve(join(root, pathname));
  if (!absolute.startsWith(root + sep)) return null;
  const relativePath = relative(root, absolute);
  if (relativePath.split(sep).some((segment) => segment.startsWith('.'))) return null;
  try {
    return (await stat(absolute)).isFile() ? relativePath.split(sep).join('/') : null;
  } catch {
    return null;
  }
}
