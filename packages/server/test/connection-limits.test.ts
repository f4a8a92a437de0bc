import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listen, openSocket, untilClosed } from './raw-http.ts';
import { setup } from './test-server.ts';

// Issue 17, item 2: nobody signed in may hold connections open, or make the server read a body.

const server = setup({ app: false });

async function listenWith(
  env: Record<string, string>,
): Promise<{ app: FastifyInstance; port: number }> {
  const { app } = await server.build(env);
  return { app, port: await listen(app) };
}

/** Every route and method, read from printRoutes' tree ("│   └── /:id (GET, HEAD, DELETE)"). */
function listRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const prefixes: string[] = [];
  const routes: Array<{ method: string; url: string }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (match === null) continue;
    const [, indent = '', segment = '', methods] = match;
    const depth = indent.length / 4;
    prefixes.length = depth;
    const url = `${prefixes.join('')}${segment}`;
    prefixes.push(segment);
    for (const method of methods?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

/** Headers of a request whose body never comes. */
const slowBodyRequest =
  'POST /api/terms/acceptance HTTP/1.1\r\nHost: localhost\r\n' +
  'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ver';

describe('timeouts', () => {
  it('close a connection that trickles its body past the request timeout', async () => {
    const { app, port } = await listenWith({
      REQUEST_TIMEOUT_SECONDS: '1',
      CONNECTION_TIMEOUT_SECONDS: '30',
      SYNC_HEARTBEAT_SECONDS: '5',
      SOURCE_TIMEOUT_SECONDS: '20',
    });
    try {
      const socket = await openSocket(port);
      // A byte every 200 ms keeps the connection from ever being idle.
      const trickle = setInterval(() => socket.write(' '), 200);
      socket.write(slowBodyRequest.replace('/api/terms/acceptance', '/api/health'));
      const { received, afterMs } = await untilClosed(socket);
      clearInterval(trickle);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(afterMs).toBeLessThan(5000);
    } finally {
      await app.close();
    }
  });

  it('close a connection that goes silent', async () => {
    const { app, port } = await listenWith({
      CONNECTION_TIMEOUT_SECONDS: '1',
      SYNC_HEARTBEAT_SECONDS: '0.5',
      SOURCE_TIMEOUT_SECONDS: '0.5',
    });
    try {
      const socket = await openSocket(port);
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
      const { afterMs } = await untilClosed(socket);
      expect(afterMs).toBeGreaterThanOrEqual(900);
      expect(afterMs).toBeLessThan(4000);
    } finally {
      await app.close();
    }
  });

  it('are on by default', async () => {
    const { app } = await server.build();
    try {
      expect(app.server.requestTimeout).toBe(300_000);
      expect(app.server.keepAliveTimeout).toBe(10_000);
      expect(app.server.timeout).toBe(60_000);
      expect(app.server.maxConnections).toBe(1000);
    } finally {
      await app.close();
    }
  });
});

it('closes connections past MAX_CONNECTIONS as they arrive, and takes new ones when some end', async () => {
  const { app, port } = await listenWith({ MAX_CONNECTIONS: '2' });
  try {
    const held = [await openSocket(port), await openSocket(port)];
    const third = await openSocket(port);
    const { received } = await untilClosed(third);
    expect(received).toBe('');

    held[0]?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
    held[1]?.destroy();
  } finally {
    await app.close();
  }
});

describe('a signed-out request', () => {
  it('is refused before its body is read, on every route that needs a user', async () => {
    const { app } = await server.build();
    await app.ready();
    const routes = listRoutes(app);
    try {
      const open = (url: string) =>
        !url.startsWith('/api/') ||
        url.startsWith('/api/auth') ||
        url === '/api/health' ||
        url.endsWith('/public');
      const guarded = routes.filter(
        (route) => !open(route.url) && !['GET', 'HEAD', 'OPTIONS'].includes(route.method),
      );
      expect(guarded.length).toBeGreaterThanOrEqual(9);
      for (const route of guarded) {
        // Not JSON: a route that parsed the body before checking the user would answer 400.
        const response = await app.inject({
          method: route.method as 'POST',
          url: route.url.replace(/:\w+/g, 'x'),
          headers: { 'content-type': 'application/json' },
          payload: '{not json',
        });
        expect(`${route.method} ${route.url} ${response.statusCode}`).toBe(
          `${route.method} ${route.url} 401`,
        );
      }
    } finally {
      await app.close();
    }
  });
});
