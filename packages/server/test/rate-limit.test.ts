import { randomInt } from 'node:crypto';
import { apiErrorSchema } from '@docket/protocol/api-error';
import { eq, like, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHits } from '../src/db/schema.ts';
import { RateLimitRepository } from '../src/repositories/rate-limit-repository.ts';
import {
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  setup,
  signIn,
  uniqueEmail,
  type TestApp,
} from './test-server.ts';

// The per-address limit on POSTs to /api/auth/* is counted in the database, so every server
// process on one database shares it. The apps below are two such processes. Each test takes
// client addresses of its own: on PostgreSQL every test file shares the counts.

const MAX = 5;
const server = setup({ env: { AUTH_RATE_LIMIT_MAX: String(MAX) } });
let otherProcess: TestApp;

beforeAll(async () => {
  otherProcess = await server.build({ AUTH_RATE_LIMIT_MAX: String(MAX) });
});

/** A client address no other test uses. */
function uniqueAddress(): string {
  return `10.${randomInt(100, 256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function expectLimited(response: Awaited<ReturnType<typeof signIn>>, what: string): void {
  expect(response.statusCode, what).toBe(429);
  expect(apiErrorSchema.parse(response.json()).error).toBe('rate-limited');
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** As if `address`'s windows had ended: the test does not sleep through a minute. */
async function endWindowsOf(address: string): Promise<void> {
  const ended = await server.database.db
    .update(rateLimitHits)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(like(rateLimitHits.key, `% ${address}`))
    .returning({ key: rateLimitHits.key });
  expect(ended.length).toBeGreaterThan(0);
}

it(`answers 429 with our error body after ${MAX} auth requests a minute from one address`, async () => {
  const email = uniqueEmail('guesser');
  const address = uniqueAddress();
  for (let attempt = 1; attempt <= MAX; attempt += 1) {
    const response = await signIn(server.app, email, `guess ${attempt}`, address);
    expect(response.statusCode, `attempt ${attempt}`).toBe(401);
  }
  expectLimited(await signIn(server.app, email, PASSWORD, address), 'one more');

  // Reading the session is not limited: every page load does it.
  const session = await server.app.inject({
    method: 'GET',
    url: '/api/auth/get-session',
    remoteAddress: address,
  });
  expect(session.statusCode).toBe(200);

  // Another address has its own allowance, and Docket's own routes are not limited.
  const elsewhere = await signIn(server.app, email, PASSWORD, uniqueAddress());
  expect(elsewhere.statusCode).toBe(401); // answered (no such account), not limited
  const health = await server.app.inject({
    method: 'GET',
    url: '/api/health',
    remoteAddress: address,
  });
  expect(health.statusCode).toBe(200);
  // Public link opens count apart from sign-ins.
  const link = await server.app.inject({
    method: 'GET',
    url: '/api/links/00000000-0000-4000-8000-000000000000/public',
    remoteAddress: address,
  });
  expect(link.statusCode).toBe(404);
});

describe('one limit for every process on the database', () => {
  it(`answers ${MAX} requests split across two processes, then 429 on either`, async () => {
    const email = uniqueEmail('spread');
    const address = uniqueAddress();
    const processes = [server, otherProcess];
    for (let attempt = 1; attempt <= MAX; attempt += 1) {
      const through = processes[attempt % 2] ?? server;
      const response = await signIn(through.app, email, `guess ${attempt}`, address);
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    expectLimited(await signIn(server.app, email, PASSWORD, address), 'first process');
    expectLimited(await signIn(otherProcess.app, email, PASSWORD, address), 'second process');

    // Another address is counted on its own, through either process.
    const other = uniqueAddress();
    expect((await signIn(otherProcess.app, email, 'guess', other)).statusCode).toBe(401);
    expect((await signIn(server.app, email, 'guess', other)).statusCode).toBe(401);
  });

  it('starts counting again in a new window', async () => {
    const email = uniqueEmail('patient');
    const address = uniqueAddress();
    for (let attempt = 1; attempt <= MAX; attempt += 1) {
      const through = attempt <= 2 ? server : otherProcess;
      expect((await signIn(through.app, email, `guess ${attempt}`, address)).statusCode).toBe(401);
    }
    expectLimited(await signIn(otherProcess.app, email, PASSWORD, address), 'before');

    await endWindowsOf(address);
    for (let attempt = 1; attempt <= MAX; attempt += 1) {
      const through = attempt % 2 === 0 ? server : otherProcess;
      const response = await signIn(through.app, email, `again ${attempt}`, address);
      expect(response.statusCode, `attempt ${attempt} of the new window`).toBe(401);
    }
    expectLimited(await signIn(server.app, email, PASSWORD, address), 'after');
  });

  it('keeps one count when requests from one address arrive at once', async () => {
    const email = uniqueEmail('burst');
    const address = uniqueAddress();
    const responses = await Promise.all(
      Array.from({ length: 2 * MAX }, (_, index) =>
        signIn((index % 2 === 0 ? server : otherProcess).app, email, `guess ${index}`, address),
      ),
    );
    const codes = responses.map((response) => response.statusCode).sort((a, b) => a - b);
    expect(codes).toEqual([...Array<number>(MAX).fill(401), ...Array<number>(MAX).fill(429)]);
  });
});

describe('the counts in the database', () => {
  it('count per key in windows that end, and a sweep deletes only the ended ones', async () => {
    const repository = new RateLimitRepository(server.database.db);
    const ending = `test ${uniqueAddress()}`;
    const going = `test ${uniqueAddress()}`;
    expect(await repository.hit(ending, 60_000)).toMatchObject({ hits: 1 });
    const second = await repository.hit(ending, 60_000);
    expect(second.hits).toBe(2);
    expect(second.ttlMs).toBeGreaterThan(50_000);
    expect(second.ttlMs).toBeLessThanOrEqual(60_000);
    await repository.hit(going, 60_000);
    expect(await repository.read(ending)).toMatchObject({ hits: 2 });
    expect((await repository.read(`test ${uniqueAddress()}`)).hits).toBe(0);

    await endWindowsOf(ending.slice('test '.length));
    expect(await repository.read(ending)).toEqual({ hits: 0, ttlMs: 0 });
    await repository.sweepExpired();
    const left = await server.database.db
      .select({ key: rateLimitHits.key })
      .from(rateLimitHits)
      .where(sql`${eq(rateLimitHits.key, ending)} or ${eq(rateLimitHits.key, going)}`);
    expect(left).toEqual([{ key: going }]);
    expect(await repository.hit(ending, 60_000)).toMatchObject({ hits: 1 });
  });
});

describe('when the database fails', () => {
  it('refuses a limited request with 503 rather than let it through uncounted', async () => {
    // An app of its own whose connection to the database is then closed, so every query fails.
    const failing = await openTestDatabase();
    const failingApp = await buildTestApp(failing, { AUTH_RATE_LIMIT_MAX: String(MAX) });
    await failingApp.app.ready();
    await failing.close();
    try {
      const response = await signIn(failingApp.app, uniqueEmail(), PASSWORD, uniqueAddress());
      expect(response.statusCode).toBe(503);
      expect(apiErrorSchema.parse(response.json()).error).toBe('database-unavailable');
      expect(
        failingApp.logs.some((line) => line.msg.startsWith('The rate limit could not be counted')),
      ).toBe(true);
    } finally {
      await failingApp.app.close().catch(() => undefined);
    }
  });
});
