import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInFailures } from '../src/db/schema.ts';
import { PASSWORD, setup, signIn, signUp, uniqueEmail, type TestApp } from './test-server.ts';

// Guessing one account's password from one client, through any number of server processes,
// meets one counter kept in the database: after FREE wrong passwords each further try from that
// client waits, longer each time. Another client (the account's owner) is never slowed by it
// (issue 42: anyone could lock a person out), and the count is exact however many guesses
// arrive at once.

const FREE = 3;
const DELAY_SECONDS = 60;
const env = { SIGN_IN_FREE_FAILURES: String(FREE), SIGN_IN_DELAY_SECONDS: String(DELAY_SECONDS) };
const server = setup({ env });
let otherProcess: TestApp;

beforeAll(async () => {
  otherProcess = await server.build(env);
});

/** As if the last failure was long ago: the test does not sleep through the delay. */
async function forwardPastDelay(email: string): Promise<void> {
  await server.database.db
    .update(signInFailures)
    .set({ lastFailureAt: sql`now() - interval '1 hour'` })
    .where(eq(signInFailures.email, email.toLowerCase()));
}

function retryAfter(response: { headers: Record<string, unknown> }): number {
  return Number(response.headers['retry-after']);
}

const GUESSER = '10.0.0.66';

describe('sign-in failures per address and client', () => {
  it('make that client’s next try wait, in any process, the right password too', async () => {
    const email = uniqueEmail('target');
    await signUp(server.app, email);
    for (let guess = 1; guess <= FREE; guess += 1) {
      const wrong = await signIn(server.app, email, `wrong guess ${guess}`, GUESSER);
      expect(wrong.statusCode, `guess ${guess}`).toBe(401);
    }
    const delayed = await signIn(server.app, email, PASSWORD, GUESSER);
    expect(delayed.statusCode).toBe(429);
    const body = delayed.json<{ code: string; message: string }>();
    expect(body.code).toBe('SIGN_IN_DELAYED');
    expect(body.message).toMatch(
      /^Too many wrong passwords for this address from here\. Try again in/,
    );
    expect(retryAfter(delayed)).toBeGreaterThan(0);
    expect(retryAfter(delayed)).toBeLessThanOrEqual(DELAY_SECONDS);
    // Another process reads the same counter.
    expect((await signIn(otherProcess.app, email, PASSWORD, GUESSER)).statusCode).toBe(429);

    // Once the wait is over, one more wrong password waits twice as long.
    await forwardPastDelay(email);
    expect((await signIn(server.app, email, 'wrong again', GUESSER)).statusCode).toBe(401);
    const longer = await signIn(otherProcess.app, email, PASSWORD, GUESSER);
    expect(longer.statusCode).toBe(429);
    expect(retryAfter(longer)).toBeGreaterThan(DELAY_SECONDS);
    expect(retryAfter(longer)).toBeLessThanOrEqual(2 * DELAY_SECONDS);

    // The right password after the wait signs in and clears the count.
    await forwardPastDelay(email);
    expect((await signIn(server.app, email, PASSWORD, GUESSER)).statusCode).toBe(200);
    expect((await signIn(server.app, email, 'one slip', GUESSER)).statusCode).toBe(401);
    expect((await signIn(server.app, email, PASSWORD, GUESSER)).statusCode).toBe(200);
  });

  it('never slow the owner signing in from another client while someone guesses', async () => {
    const email = uniqueEmail('owner');
    await signUp(server.app, email);
    // Ten addresses guess, each past its free failures.
    for (let client = 1; client <= 10; client += 1) {
      for (let guess = 1; guess <= FREE + 1; guess += 1) {
        await signIn(server.app, email, `guess ${guess}`, `10.1.0.${client}`);
      }
    }
    const owner = await signIn(otherProcess.app, email, PASSWORD, '192.0.2.7');
    expect(owner.statusCode).toBe(200);
    // The guessers still wait.
    expect((await signIn(server.app, email, PASSWORD, '10.1.0.3')).statusCode).toBe(429);
  });

  it('are counted exactly when forty guesses arrive at once: only the free ones are checked', async () => {
    const email = uniqueEmail('burst');
    await signUp(server.app, email);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, guess) =>
        signIn(guess % 2 === 0 ? server.app : otherProcess.app, email, `burst ${guess}`, GUESSER),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(FREE);
    expect(codes.filter((code) => code === 429)).toHaveLength(40 - FREE);
    const [row] = await server.database.db
      .select({ failures: signInFailures.failures })
      .from(signInFailures)
      .where(eq(signInFailures.email, email.toLowerCase()));
    expect(row?.failures).toBe(FREE);
  });

  it('treat an address without an account the same, so the wait tells nothing', async () => {
    const email = uniqueEmail('nobody');
    for (let guess = 1; guess <= FREE; guess += 1) {
      expect((await signIn(server.app, email, `guess ${guess}`)).statusCode).toBe(401);
    }
    const delayed = await signIn(server.app, email, PASSWORD);
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json<{ code: string }>().code).toBe('SIGN_IN_DELAYED');
  });

  it('take no client address a client sends for itself', async () => {
    const email = uniqueEmail('forged');
    await signUp(server.app, email);
    for (let guess = 1; guess <= FREE; guess += 1) {
      await server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: `guess ${guess}` },
        remoteAddress: GUESSER,
        headers: { 'x-docket-client-address': `203.0.113.${guess}` },
      });
    }
    const forged = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: PASSWORD },
      remoteAddress: GUESSER,
      headers: { 'x-docket-client-address': '203.0.113.99' },
    });
    expect(forged.statusCode).toBe(429);
  });
});
