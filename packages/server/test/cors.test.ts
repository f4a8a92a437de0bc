import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import {
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  signUp,
  uniqueEmail,
  type TestApp,
} from './test-server.ts';

const NATIVE_SHELL = 'capacitor://localhost';
let database: Database;
let testApp: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  testApp = await buildTestApp(database, { TRUSTED_ORIGINS: NATIVE_SHELL });
});

afterAll(async () => {
  await testApp.app.close();
  await database.close();
});

it('lets the native shell sign in cross-origin and read its bearer token', async () => {
  const preflight = await testApp.app.inject({
    method: 'OPTIONS',
    url: '/api/auth/sign-in/email',
    headers: {
      origin: NATIVE_SHELL,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  expect(preflight.statusCode).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe(NATIVE_SHELL);

  const email = uniqueEmail('native');
  await signUp(testApp.app, email);
  const signIn = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: NATIVE_SHELL },
    payload: { email, password: PASSWORD },
  });
  expect(signIn.statusCode).toBe(200);
  expect(signIn.headers['access-control-allow-origin']).toBe(NATIVE_SHELL);
  expect(String(signIn.headers['access-control-expose-headers'])).toContain('set-auth-token');
  const token = String(signIn.headers['set-auth-token']);

  const terms = await testApp.app.inject({
    method: 'GET',
    url: '/api/terms/acceptance',
    headers: { origin: NATIVE_SHELL, authorization: `Bearer ${token}` },
  });
  expect(terms.statusCode).toBe(200);
});

it('gives other origins no CORS headers and refuses their sign-in', async () => {
  const preflight = await testApp.app.inject({
    method: 'OPTIONS',
    url: '/api/terms/acceptance',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
  });
  expect(preflight.headers['access-control-allow-origin']).toBeUndefined();

  const email = uniqueEmail();
  await signUp(testApp.app, email);
  const signIn = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: 'https://evil.example' },
    payload: { email, password: PASSWORD },
  });
  expect(signIn.statusCode).toBe(403);
});
