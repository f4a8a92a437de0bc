import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  pathOf,
  sharedTestApp,
  signIn,
  signUp,
  uniqueEmail,
  waitForLoggedLink,
} from './test-server.ts';
import { buildTestApp, type TestApp } from './test-server.ts';

// ASVS L2: at least 12 characters, and none of the passwords seen most in breaches, wherever a
// password is set (sign-up and reset), said in words the sign-up form shows as they are.

const { app, database } = sharedTestApp();

function signUpWith(password: string) {
  const email = uniqueEmail('policy');
  return app().inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password, name: 'policy' },
  });
}

describe('password policy', () => {
  it.each(['password', '12345678', 'eleven char'])(
    'refuses "%s": shorter than 12',
    async (password) => {
      const response = await signUpWith(password);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(
        'Use at least 12 characters for your password.',
      );
    },
  );

  it.each(['password1234', 'qazwsxedcrfv', '123456789012', 'Football2024!!', 'LeaveMeAlone'])(
    'refuses "%s": on the common-password list, or a listed word with digits stuck on',
    async (password) => {
      const response = await signUpWith(password);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(
        /on a list of common or leaked passwords/,
      );
    },
  );

  it('takes a long passphrase that is on no list', async () => {
    expect((await signUpWith(PASSWORD)).statusCode).toBe(200);
    expect((await signUpWith('tulip lantern 42 river')).statusCode).toBe(200);
  });
});

describe('password policy on reset', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(database());
  });
  afterAll(async () => {
    await testApp.app.close();
  });

  it('refuses a weak new password and keeps the old one', async () => {
    const email = uniqueEmail('resetter');
    await signUp(testApp.app, email);
    const requested = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email, redirectTo: '/return-from-login?mode=reset' },
    });
    expect(requested.statusCode).toBe(200);
    const link = await waitForLoggedLink(testApp.logs, 'Password reset link', email);
    const followed = await testApp.app.inject({ method: 'GET', url: pathOf(link) });
    const token = new URL(String(followed.headers.location), 'http://x').searchParams.get('token');
    const reset = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { newPassword: 'password123456', token },
    });
    expect(reset.statusCode).toBe(400);
    expect((await signIn(testApp.app, email, PASSWORD)).statusCode).toBe(200);
  });
});
