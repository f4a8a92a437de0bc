import { sql } from 'drizzle-orm';
import { syncSettingsSchema } from '@docket/protocol/sync-settings';
import { beforeAll, describe, expect, it } from 'vitest';
import { passwordSettings, readSettings, writeSettings } from './sync-client.ts';
import { setup, signUp, uniqueEmail, waitForLoggedLink } from './test-server.ts';

// Issue 17, item 10: a malformed cloud password verifier gets a clear 400, and nothing secret
// (the settings, query strings, tokens in paths) reaches the log.

const server = setup();

beforeAll(() => {
  server.app.get('/test/failing-query', async () => {
    // A query that fails in the database with a secret among its parameters.
    await server.database.db.execute(sql`select ${'secret-parameter-\u0000'}::text`);
    return {};
  });
});

function logText(): string {
  return server.logs.map((line) => JSON.stringify(line)).join('\n');
}

describe('a cloud password verifier', () => {
  it.each([
    ['a NUL byte', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFz\u0000aA'],
    ['a lone surrogate', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFz\ud800aA'],
    ['a space', '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFz aA'],
  ])('with %s is refused with 400, stores nothing and logs none of it', async (_what, hash) => {
    const { cookie } = await signUp(server.app);
    const settings = passwordSettings(0);
    const response = await writeSettings(server.app, cookie, 0, {
      ...settings,
      passwordHash: hash,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid-request' });
    const stored = syncSettingsSchema.parse((await readSettings(server.app, cookie)).json());
    expect(stored).toMatchObject({ version: 0, passwordHash: null });
    expect(logText()).not.toContain(settings.wrappedDataKey ?? '-');
    expect(logText()).not.toContain(settings.keyDerivation?.salt ?? '-');
  });

  it('in PHC form is still taken', async () => {
    const { cookie } = await signUp(server.app);
    const response = await writeSettings(server.app, cookie, 0, passwordSettings(0));
    expect(response.statusCode).toBe(200);
  });
});

describe('the log', () => {
  it('never shows a query string or a token in a path', async () => {
    await server.app.inject({ url: '/api/auth/verify-email?token=query-secret-1' });
    await server.app.inject({ url: '/api/auth/reset-password/path-secret-2?callbackURL=/x' });
    await server.app.inject({ url: '/api/sync/pull?since=0&limit=query-secret-3' });
    expect(server.logs.some((line) => line.msg === 'incoming request')).toBe(true);
    expect(logText()).not.toMatch(/secret-[123]/);
  });

  it('shows a failed query without its parameters', async () => {
    const response = await server.app.inject({ url: '/test/failing-query' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: 'internal' });
    const failed = server.logs.filter((line) => line.msg === 'Request failed');
    expect(failed).toHaveLength(1);
    expect(JSON.stringify(failed)).toMatch(/UTF8|0x00|null character/i);
    expect(logText()).not.toContain('secret-parameter');
  });
});

describe('a public link key in a callback address (issue 38)', () => {
  const key = 'k=LINKKEY-Abc123_xyz-0123456789012345678901234';

  it.each([
    ['in clear', `/return-from-login?mode=verified&returnToLink=/public-link/abc#${key}`],
    [
      'encoded',
      `/return-from-login?${new URLSearchParams({ mode: 'verified', returnToLink: `/public-link/abc#${key}` }).toString()}`,
    ],
  ])(
    '%s is refused at sign-up, and neither the log nor a mail holds it',
    async (_how, callback) => {
      const email = uniqueEmail('detour');
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: {
          email,
          password: 'correct horse battery',
          name: 'Detour',
          callbackURL: callback,
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('may not carry a fragment');
      expect(response.body).not.toContain('LINKKEY');
      // Nothing was made: the address can still sign up.
      const again = await server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: {
          email,
          password: 'correct horse battery',
          name: 'Detour',
          callbackURL: '/return-from-login?mode=verified&returnToLink=%2Fpublic-link%2Fabc',
        },
      });
      expect(again.statusCode).toBe(200);
      // The verification mail (logged here, as without SMTP) carries the link's id only.
      const link = await waitForLoggedLink(server.logs, 'E-mail verification link', email);
      expect(decodeURIComponent(decodeURIComponent(link))).toContain('/public-link/abc');
      expect(logText()).not.toContain('LINKKEY');
    },
  );
});
