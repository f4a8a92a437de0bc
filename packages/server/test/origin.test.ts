import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { TERMS_VERSION } from '@docket/protocol/terms';
import { describe, expect, it } from 'vitest';
import { PASSWORD, PUBLIC_URL, setup, signUp, uniqueEmail } from './test-server.ts';

// Issue 17, item 12: Docket's own state-changing routes refuse other sites, and bearer tokens
// go only to the native shell (a TRUSTED_ORIGINS origin) and to clients that are not browsers.

const NATIVE = 'capacitor://localhost';
const server = setup({ env: { TRUSTED_ORIGINS: NATIVE } });

function accept(cookie: string, extra: Record<string, string>) {
  return server.app.inject({
    method: 'POST',
    url: '/api/terms/acceptance',
    headers: { cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION), ...extra },
    payload: { version: TERMS_VERSION },
  });
}

async function accepted(cookie: string): Promise<unknown> {
  const response = await server.app.inject({
    url: '/api/terms/acceptance',
    headers: { cookie, origin: 'https://evil.example' },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ accepted: unknown }>().accepted;
}

describe('a state-changing API request', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin null', { origin: 'null' }],
    ['a look-alike of the public origin', { origin: `${PUBLIC_URL}.evil.example` }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('with %s is refused with 403 and changes nothing', async (_what, extra) => {
    const { cookie } = await signUp(server.app);
    const response = await accept(cookie, extra);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'forbidden-origin' });
    expect(await accepted(cookie)).toBeNull();
  });

  it.each([
    ['the public origin', { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }],
    ['the native shell (TRUSTED_ORIGINS)', { origin: NATIVE, 'sec-fetch-site': 'cross-site' }],
    ['no Origin (not a browser)', {}],
  ])('from %s is taken', async (_what, extra) => {
    const { cookie } = await signUp(server.app);
    expect((await accept(cookie, extra)).statusCode).toBe(200);
    expect(await accepted(cookie)).not.toBeNull();
  });

  it('refuses a foreign origin on every other API route that changes state too', async () => {
    const { cookie } = await signUp(server.app);
    for (const [method, url] of [
      ['PUT', '/api/sync/settings'],
      ['POST', '/api/sync/push'],
      ['PUT', `/api/sync/blobs/${'0'.repeat(64)}`],
      ['POST', '/api/backups'],
      ['DELETE', '/api/backups/x'],
      ['POST', '/api/links'],
      ['POST', '/api/links/x/revoke'],
    ] as const) {
      const response = await server.app.inject({
        method,
        url,
        headers: { cookie, origin: 'https://evil.example' },
        payload: {},
      });
      expect(`${method} ${url} ${response.statusCode}`).toBe(`${method} ${url} 403`);
    }
  });
});

describe('the bearer token', () => {
  async function signInFrom(origin: string | undefined) {
    const email = uniqueEmail('origin');
    await signUp(server.app, email);
    return server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: origin === undefined ? {} : { origin },
      payload: { email, password: PASSWORD },
    });
  }

  it('is not handed to a web page', async () => {
    const response = await signInFrom(PUBLIC_URL);
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeDefined();
    expect(response.headers['set-auth-token']).toBeUndefined();
  });

  it('is handed to the native shell and to a client that is not a browser', async () => {
    for (const origin of [NATIVE, undefined]) {
      const response = await signInFrom(origin);
      expect(response.statusCode).toBe(200);
      expect(typeof response.headers['set-auth-token']).toBe('string');
    }
  });
});
