import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { webPlatform } from '../platform/web-platform.ts';
import { lazyAuthClient } from './lazy-auth-client.ts';
import type { SessionSnapshot } from './session-snapshot.ts';

// The real better-auth client against a real HTTP server on loopback that answers its session
// check the way Docket's server does.

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) resolve();
    else
      server.close(() => {
        resolve();
      });
  });
  server = undefined;
});

async function serveSession(body: unknown): Promise<{ origin: string; checks: () => number }> {
  let checks = 0;
  server = createServer((request, response) => {
    if (request.url?.startsWith('/api/auth/get-session') === true) checks += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, checks: () => checks };
}

function collect(): { seen: SessionSnapshot[]; listener: (snapshot: SessionSnapshot) => void } {
  const seen: SessionSnapshot[] = [];
  return { seen, listener: (snapshot) => seen.push(snapshot) };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const noReport = (message: string, error: unknown) => {
  throw new Error(`Unexpected report: ${message} ${String(error)}`);
};

describe('the auth client loaded after the first paint', () => {
  it("hands its session store's answers to a subscriber once loaded: a confirmed user", async () => {
    const user = { id: 'u1', email: 'reader@example.test', name: 'reader' };
    const { origin } = await serveSession({ session: { id: 's1', userId: 'u1' }, user });
    const auth = lazyAuthClient(webPlatform, origin, noReport);
    const { seen, listener } = collect();
    const unsubscribe = auth.session.subscribe(listener);
    await until(() => seen.some((snapshot) => snapshot.kind === 'signed-in'));
    unsubscribe();
    expect(seen.at(-1)).toEqual({ kind: 'signed-in', user });
    expect(seen.every((snapshot) => ['pending', 'signed-in'].includes(snapshot.kind))).toBe(true);
  });

  it('says signed out when the server has no session, and checks again when asked', async () => {
    const { origin, checks } = await serveSession(null);
    const auth = lazyAuthClient(webPlatform, origin, noReport);
    const { seen, listener } = collect();
    const unsubscribe = auth.session.subscribe(listener);
    await until(() => seen.at(-1)?.kind === 'signed-out');
    expect(seen.at(-1)).toEqual({ kind: 'signed-out' });
    const before = checks();
    auth.recheckSession();
    await until(() => checks() > before);
    unsubscribe();
    expect(checks()).toBeGreaterThan(before);
    // One client for every caller.
    expect(await auth.load()).toBe(await auth.load());
  });

  it('tells a subscriber that left before the client loaded nothing', async () => {
    const { origin, checks } = await serveSession(null);
    const auth = lazyAuthClient(webPlatform, origin, noReport);
    const { seen, listener } = collect();
    auth.session.subscribe(listener)();
    await auth.load();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
    expect(checks()).toBe(0);
  });

  it('an unreachable server is unreachable, not signed out', async () => {
    const { origin } = await serveSession(null);
    await new Promise<void>((resolve) =>
      server?.close(() => {
        resolve();
      }),
    );
    server = undefined;
    const auth = lazyAuthClient(webPlatform, origin, noReport);
    const { seen, listener } = collect();
    const unsubscribe = auth.session.subscribe(listener);
    await until(() => seen.at(-1)?.kind === 'unreachable');
    unsubscribe();
    expect(seen.at(-1)).toEqual({ kind: 'unreachable' });
  });
});
