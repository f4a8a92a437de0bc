import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  pathOf,
  setup,
  signIn,
  signUp,
  uniqueEmail,
  waitForLoggedLink,
} from './test-server.ts';
import type { TestApp } from './test-server.ts';

// ASVS L2: at least 12 characters, and none of the passwords seen most in breaches, wherever a
// password is set (sign-up and reset), said in words the sign-up form shows as they are.

const server = setup();

function signUpWith(password: string) {
  const email = uniqueEmail('policy');
  return server.app.inject({
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

  it.each([
    ['aaaaaaaaaaaa', /easy to guess \(Repeated characters/],
    ['asdfasdfasdf', /easy to guess \(Repeated character patterns/],
    ['abcdefghijkl', /easy to guess/],
    ['zxcvbnmasdfg', /easy to guess/],
  ])(
    'refuses "%s": long enough and on no list, but easy to guess (zxcvbn below 3)',
    async (password, said) => {
      const response = await signUpWith(password);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(said);
    },
  );

  it('refuses the account’s own address or name as its password, or inside it', async () => {
    const email = uniqueEmail('ownaddress');
    for (const [password, name] of [
      [email, 'Someone'],
      [`${email}!`, 'Someone'],
      ['Margarethe Vandersloot 1', 'Margarethe Vandersloot'],
    ] as const) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email, password, name },
      });
      expect(response.statusCode, password).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(
        /may not contain your e-mail address or your name/,
      );
    }
  });

  it('takes a long passphrase that is on no list', async () => {
    expect((await signUpWith(PASSWORD)).statusCode).toBe(200);
    expect((await signUpWith('tulip lantern 42 river')).statusCode).toBe(200);
  });
});

describe('password policy on reset', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await server.build();
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

describe('what an account says of its person (issue 42)', () => {
  it('refuses a name longer than 200 characters, and takes one of 200', async () => {
    const signUpNamed = (name: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail('named'), password: PASSWORD, name },
      });
    const long = await signUpNamed('N'.repeat(900_000));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).toBe(
      'A name may have at most 200 characters.',
    );
    expect((await signUpNamed('N'.repeat(201))).statusCode).toBe(400);
    expect((await signUpNamed('N'.repeat(200))).statusCode).toBe(200);
  });

  it.each(['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', 'not an address'])(
    'refuses the picture "%s" at sign-up and on update, and keeps the old one',
    async (image) => {
      const refused = await server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail('picture'), password: PASSWORD, name: 'Picture', image },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        'A picture must be an http or https address.',
      );
      const { cookie } = await signUp(server.app);
      const update = (picture: string) =>
        server.app.inject({
          method: 'POST',
          url: '/api/auth/update-user',
          headers: { cookie, origin: 'http://localhost:8080' },
          payload: { image: picture },
        });
      expect((await update('https://example.test/me.png')).statusCode).toBe(200);
      expect((await update(image)).statusCode).toBe(400);
      const session = await server.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie },
      });
      expect(session.json<{ user: { image: string | null } }>().user.image).toBe(
        'https://example.test/me.png',
      );
    },
  );
});
