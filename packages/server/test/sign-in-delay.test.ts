import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { signInFailures } from '../src/db/schema.ts';
import {
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  signIn,
  signUp,
  uniqueEmail,
  type TestApp,
} from './test-server.ts';

// Guessing one account's password from many client addresses, or through several server
// processes, meets one counter kept in the database: after FREE wrong passwords each further
// try waits, longer each time.

const FREE = 3;
const DELAY_SECONDS = 60;
let database: Database;
let testApp: TestApp;
let otherProcess: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  const env = { SIGN_IN_FREE_FAILURES: String(FREE), SIGN_IN_DELAY_SECONDS: String(DELAY_SECONDS) };
  testApp = await buildTestApp(database, env);
  otherProcess = await buildTestApp(database, env);
});

afterAll(async () => {
  await testApp.app.close();
  await otherProcess.app.close();
  await database.close();
});

/** As if the last failure was long ago: the test does not sleep through the delay. */
async function forwardPastDelay(email: string): Promise<void> {
  await database.db
    .update(signInFailures)
    .set({ lastFailureAt: sql`now() - interval '1 hour'` })
    .where(eq(signInFailures.email, email.toLowerCase()));
}

function retryAfter(response: { headers: Record<string, unknown> }): number {
  return Number(response.headers['retry-after']);
}

describe('sign-in failures per address', () => {
  it('make the next try wait, from any client address and any process, the right password too', async () => {
    const email = uniqueEmail('target');
    await signUp(testApp.app, email);
    for (let guess = 1; guess <= FREE; guess += 1) {
      const wrong = await signIn(testApp.app, email, `wrong guess ${guess}`, `10.0.0.${guess}`);
      expect(wrong.statusCode, `guess ${guess}`).toBe(401);
    }
    const delayed = await signIn(testApp.app, email, PASSWORD, '10.0.1.1');
    expect(delayed.statusCode).toBe(429);
    const body = delayed.json<{ code: string; message: string }>();
    expect(body.code).toBe('SIGN_IN_DELAYED');
    expect(body.message).toMatch(/^Too many wrong passwords for this address\. Try again in/);
    expect(retryAfter(delayed)).toBeGreaterThan(0);
    expect(retryAfter(delayed)).toBeLessThanOrEqual(DELAY_SECONDS);
    // Another process reads the same counter.
    expect((await signIn(otherProcess.app, email, PASSWORD, '10.0.2.1')).statusCode).toBe(429);

    // Once the wait is over, one more wrong password waits twice as long.
    await forwardPastDelay(email);
    expect((await signIn(testApp.app, email, 'wrong again', '10.0.3.1')).statusCode).toBe(401);
    const longer = await signIn(otherProcess.app, email, PASSWORD, '10.0.3.2');
    expect(longer.statusCode).toBe(429);
    expect(retryAfter(longer)).toBeGreaterThan(DELAY_SECONDS);
    expect(retryAfter(longer)).toBeLessThanOrEqual(2 * DELAY_SECONDS);

    // The right password after the wait signs in and clears the count.
    await forwardPastDelay(email);
    expect((await signIn(testApp.app, email, PASSWORD, '10.0.4.1')).statusCode).toBe(200);
    expect((await signIn(testApp.app, email, 'one slip', '10.0.4.2')).statusCode).toBe(401);
    expect((await signIn(testApp.app, email, PASSWORD, '10.0.4.3')).statusCode).toBe(200);
  });

  it('treat an address without an account the same, so the wait tells nothing', async () => {
    const email = uniqueEmail('nobody');
    for (let guess = 1; guess <= FREE; guess += 1) {
      expect((await signIn(testApp.app, email, `guess ${guess}`)).statusCode).toBe(401);
    }
    const delayed = await signIn(testApp.app, email, PASSWORD);
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json<{ code: string }>().code).toBe('SIGN_IN_DELAYED');
  });
});
