import { expect, it } from 'vitest';
import { PASSWORD, setup, signUp, uniqueEmail } from './test-server.ts';

const NATIVE_SHELL = 'capacitor://localhost';
const server = setup({ env: { TRUSTED_ORIGINS: NATIVE_SHELL } });

it('lets the native shell sign in cross-origin and read its bearer token', async () => {
  const preflight = await server.app.inject({
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
  await signUp(server.app, email);
  const signIn = await server.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: NATIVE_SHELL },
    payload: { email, password: PASSWORD },
  });
  expect(signIn.statusCode).toBe(200);
  expect(signIn.headers['access-control-allow-origin']).toBe(NATIVE_SHELL);
  expect(String(signIn.headers['access-control-expose-headers'])).toContain('set-auth-token');
  const token = String(signIn.headers['set-auth-token']);

  const terms = await server.app.inject({
    method: 'GET',
    url: '/api/terms/acceptance',
    headers: { origin: NATIVE_SHELL, authorization: `Bearer ${token}` },
  });
  expect(terms.statusCode).toBe(200);
});

it('gives other origins no CORS headers and refuses their sign-in', async () => {
  const preflight = await server.app.inject({
    method: 'OPTIONS',
    url: '/api/terms/acceptance',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
  });
  expect(preflight.headers['access-control-allow-origin']).toBeUndefined();

  const email = uniqueEmail();
  await signUp(server.app, email);
  const signIn = await server.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: 'https://evil.example' },
    payload: { email, password: PASSWORD },
  });
  expect(signIn.statusCode).toBe(403);
});
