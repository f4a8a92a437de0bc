import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setup } from './test-server.ts';

const server = setup({
  env: {
    SENTRY_DSN: 'https://abc123@o42.ingest.sentry.io/7',
  },
});

function get(url: string) {
  return server.app.inject({ method: 'GET', url });
}

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and helmet headers with the app', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'self'",
      'script-src': "'self' 'wasm-unsafe-eval'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'font-src': "'self' data:",
      'connect-src': "'self' https: http: https://o42.ingest.sentry.io",
      'worker-src': "'self' blob:",
      'manifest-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'none'",
    });
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    // What the app never uses is denied (issue 42); the clipboard stays its own.
    const permissions = String(response.headers['permissions-policy']);
    for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()']) {
      expect(permissions).toContain(denied);
    }
    expect(permissions).toContain('clipboard-write=(self)');
  });

  it('sends them with API answers too', async () => {
    const response = await get('/api/health');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['permissions-policy']).toContain('camera=()');
  });

  it('keeps API answers out of the browser’s disk cache unless a route says otherwise', async () => {
    for (const url of ['/api/auth/get-session', '/api/terms/acceptance', '/api/no-such-route']) {
      expect((await get(url)).headers['cache-control'], url).toBe('no-store');
    }
    // The app itself still caches as it says.
    expect((await get('/')).headers['cache-control']).not.toBe('no-store');
  });
});

describe('serving the built app', () => {
  it('serves index.html for the root and for client routes, never cached stale', async () => {
    for (const url of ['/', '/bill-details?id=1', '/public-link/abc', '/terms-of-service/web']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toContain('text/html');
      expect(response.body, url).toContain('<title>Docket</title>');
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and revalidates the service worker and manifest', async () => {
    const asset = await get('/assets/index-3f9a1c.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toContain('javascript');
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends the brotli or gzip copy the build made to a browser that accepts it', async () => {
    const script = `console.log(${JSON.stringify('docket '.repeat(400))});`;
    const asset = join(server.config.appDir, 'assets', 'packed-5e1f2a.js');
    await writeFile(asset, script);
    await writeFile(`${asset}.br`, brotliCompressSync(script));
    await writeFile(`${asset}.gz`, gzipSync(script));
    const fetch = (acceptEncoding?: string) =>
      server.app.inject({
        method: 'GET',
        url: '/assets/packed-5e1f2a.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });

    const br = await fetch('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await fetch('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await fetch();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    // A file the build did not compress (too small to gain) is sent as it is to everyone.
    const small = await server.app.inject({
      method: 'GET',
      url: '/assets/index-3f9a1c.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 for a missing file instead of index.html', async () => {
    expect((await get('/assets/index-old.js')).statusCode).toBe(404);
    expect((await get('/missing.png')).statusCode).toBe(404);
  });

  it('never serves files outside the app folder', async () => {
    for (const url of ['/..%2f..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd', '/.env']) {
      const response = await get(url);
      expect(response.body, url).not.toContain('root:');
      expect([200, 404], url).toContain(response.statusCode);
    }
  });

  it('answers unknown API paths with 404 JSON, not the app', async () => {
    const response = await get('/api/bills');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not-found', message: 'Nothing at GET /api/bills.' });
  });

  it('says how to build the app when it has not been built', async () => {
    const unbuilt = await server.build({
      DOCKET_APP_DIR: join(tmpdir(), 'docket-no-such-build'),
    });
    try {
      for (const url of ['/', '/bill-details?id=1']) {
        const response = await unbuilt.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(503);
        expect(response.headers['content-type']).toContain('text/plain');
        expect(response.body).toContain('npm run build');
      }
    } finally {
      await unbuilt.app.close();
    }
  });
});
