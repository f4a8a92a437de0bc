import { expect, it } from 'vitest';
import {
  cookieHeader,
  PASSWORD,
  pathOf,
  PUBLIC_URL,
  setup,
  signIn,
  uniqueEmail,
  waitForLoggedLink,
} from './test-server.ts';

const server = setup({ env: { REQUIRE_EMAIL_VERIFICATION: 'true' } });

it('blocks sign-in until the verification link is followed', async () => {
  const email = uniqueEmail('unverified');
  const signUpResponse = await server.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: {
      email,
      password: PASSWORD,
      name: 'U',
      callbackURL: '/return-from-login?mode=verified',
    },
  });
  expect(signUpResponse.statusCode).toBe(200);
  expect(signUpResponse.headers['set-cookie']).toBeUndefined();

  const blocked = await signIn(server.app, email, PASSWORD);
  expect(blocked.statusCode).toBe(403);
  expect(blocked.json<{ code: string }>().code).toBe('EMAIL_NOT_VERIFIED');

  const link = await waitForLoggedLink(server.logs, 'E-mail verification link', email);
  expect(link.startsWith(`${PUBLIC_URL}/api/auth/verify-email?`)).toBe(true);
  const followed = await server.app.inject({ method: 'GET', url: pathOf(link) });
  expect(followed.statusCode).toBe(302);
  const landing = new URL(String(followed.headers.location), PUBLIC_URL);
  expect(`${landing.pathname}${landing.search}`).toBe('/return-from-login?mode=verified');

  // The link signs nobody in: an account's work on a device opens only with its password.
  expect(followed.headers['set-cookie']).toBeUndefined();
  const session = await server.app.inject({
    method: 'GET',
    url: '/api/terms/acceptance',
    headers: { cookie: cookieHeader(followed) },
  });
  expect(session.statusCode).toBe(401);

  expect((await signIn(server.app, email, PASSWORD)).statusCode).toBe(200);
});

it('still leads into the app when the client sent no callback URL', async () => {
  const email = uniqueEmail('nocallback');
  await server.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { email, password: PASSWORD, name: 'N' },
  });
  const link = await waitForLoggedLink(server.logs, 'E-mail verification link', email);
  const followed = await server.app.inject({ method: 'GET', url: pathOf(link) });
  const landing = new URL(String(followed.headers.location), PUBLIC_URL);
  expect(`${landing.pathname}${landing.search}`).toBe('/return-from-login?mode=verified');
});
