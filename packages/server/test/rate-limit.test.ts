import { apiErrorSchema } from '@docket/protocol/api-error';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import {
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  signIn,
  uniqueEmail,
  type TestApp,
} from './test-server.ts';

const MAX = 5;
let database: Database;
let testApp: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  testApp = await buildTestApp(database, { AUTH_RATE_LIMIT_MAX: String(MAX) });
});

afterAll(async () => {
  await testApp.app.close();
  await database.close();
});

it(`answers 429 with our error body after ${MAX} auth requests a minute from one address`, async () => {
  const email = uniqueEmail('guesser');
  for (let attempt = 1; attempt <= MAX; attempt += 1) {
    const response = await signIn(testApp.app, email, `guess ${attempt}`);
    expect(response.statusCode, `attempt ${attempt}`).toBe(401);
  }
  const limited = await signIn(testApp.app, email, PASSWORD);
  expect(limited.statusCode).toBe(429);
  expect(apiErrorSchema.parse(limited.json()).error).toBe('rate-limited');
  expect(limited.headers['retry-after']).toBeDefined();

  // Reading the session is not limited: every page load does it.
  const session = await testApp.app.inject({ method: 'GET', url: '/api/auth/get-session' });
  expect(session.statusCode).toBe(200);

  // Another address has its own allowance, and Docket's own routes are not limited.
  const elsewhere = await signIn(testApp.app, email, PASSWORD, '10.1.2.3');
  expect(elsewhere.statusCode).toBe(401); // answered (no such account), not limited
  const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
  expect(health.statusCode).toBe(200);
});
