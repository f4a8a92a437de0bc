import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';

/**
 * Browser features the app never uses, denied to it and to anything it could be made to load:
 * a script injected despite the CSP still cannot reach the camera, the microphone or the
 * person's location. The clipboard stays the app's own (Copy link); Web Share is left at its
 * default (the page itself), as Chromium on a desktop does not know the feature's name. Every
 * name here must be one Chromium knows: an unknown one is a console warning on every page (an
 * e2e test in first-contact.spec.ts watches for it).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'serial=()',
  'usb=()',
  'clipboard-write=(self)',
].join(', ');

/** Helmet's headers on every answer, with a Content-Security-Policy written out in full. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: ServerConfig,
): Promise<void> {
  const connectSrc = ["'self'", 'https:', 'http:']; // dataset URLs on any site; CORS decides
  // The app reports errors to Sentry straight from the browser when a DSN is configured.
  if (config.sentryOrigin !== null) connectSrc.push(config.sentryOrigin);

  await app.register(helmet, {
    contentSecurityPolicy: {
      // Helmet's defaults would add upgrade-insecure-requests, which breaks a server reached
      // over plain http on a LAN address; every directive Docket needs is listed here.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the app compile WebAssembly (Argon2id for the cloud password)
        // and nothing else: eval and inline scripts stay forbidden.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Ionic's web components inject <style> elements and style attributes at runtime, so
        // inline styles must be allowed; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc,
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // HSTS only means something over https; on http it would only confuse a later https setup
    // on the same host name.
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  // Helmet has no Permissions-Policy of its own.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
  // An API answer is no one's to keep: on a shared computer the browser's disk cache outlives a
  // sign-out and a removal (issue 38), and the session's answer names the account. A route that
  // says otherwise (a dataset file's immutable ciphertext) keeps its own.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
}
