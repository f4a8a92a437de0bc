import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashSessionToken } from '../src/auth/hashed-session-tokens.ts';
import {
  pathOf,
  setup,
  signUp,
  uniqueEmail,
  waitForLoggedLink,
  type SignedIn,
} from './test-server.ts';

// A copy of the database must not sign anyone in: sessions and reset links are kept only as
// hashes of their tokens.

const server = setup();

async function rows(query: ReturnType<typeof sql>): Promise<Array<Record<string, unknown>>> {
  const result: unknown = await server.database.db.execute(query);
  return (result as { rows: Array<Record<string, unknown>> }).rows;
}

/** The session token inside a signed bearer value `token.signature`. */
function tokenOf(signedIn: SignedIn): string {
  return decodeURIComponent(signedIn.bearer).split('.', 1)[0] ?? '';
}

function getSession(cookie: string) {
  return server.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
}

describe('session tokens at rest', () => {
  it('are stored as their SHA-256, and the session still works and ends', async () => {
    const signedIn = await signUp(server.app);
    const token = tokenOf(signedIn);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const stored = await rows(sql`select token from session where user_id = ${signedIn.userId}`);
    expect(stored).toEqual([{ token: hashSessionToken(token) }]);
    expect(JSON.stringify(await rows(sql`select * from session`))).not.toContain(token);

    const session = await getSession(signedIn.cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json<{ user: { id: string } } | null>()?.user.id).toBe(signedIn.userId);
    const byBearer = await server.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${signedIn.bearer}` },
    });
    expect(byBearer.json<{ user: { id: string } } | null>()?.user.id).toBe(signedIn.userId);

    const signOut = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: signedIn.cookie, origin: 'http://localhost:8080' },
    });
    expect(signOut.statusCode).toBe(200);
    expect(await rows(sql`select token from session where user_id = ${signedIn.userId}`)).toEqual(
      [],
    );
    expect((await getSession(signedIn.cookie)).json()).toBeNull();
  });

  it('cannot be used by presenting the stored hash', async () => {
    const signedIn = await signUp(server.app);
    const [row] = await rows(sql`select token from session where user_id = ${signedIn.userId}`);
    const hash = String(row?.token);
    const signature = decodeURIComponent(signedIn.bearer).split('.').slice(1).join('.');
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { authorization: `Bearer ${hash}.${signature}` },
    });
    expect(forged.json()).toBeNull();
  });

  it('the upgrade hashes sessions stored before it, and they stay open', async () => {
    const signedIn = await signUp(server.app);
    const token = tokenOf(signedIn);
    // As a database from before the upgrade holds it.
    await server.database.db.execute(
      sql`update session set token = ${token} where user_id = ${signedIn.userId}`,
    );
    const migration = await readFile(
      fileURLToPath(new URL('../drizzle/0006_hash_session_tokens.sql', import.meta.url)),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) {
      await server.database.db.execute(sql.raw(statement));
    }
    expect(await rows(sql`select token from session where user_id = ${signedIn.userId}`)).toEqual([
      { token: hashSessionToken(token) },
    ]);
    const session = await getSession(signedIn.cookie);
    expect(session.json<{ user: { id: string } } | null>()?.user.id).toBe(signedIn.userId);
  });
});

describe('reset tokens at rest', () => {
  it('are stored hashed, and the link still resets the password', async () => {
    const email = uniqueEmail('reset-at-rest');
    await signUp(server.app, email);
    const asked = await server.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email, redirectTo: '/return-from-login?mode=reset' },
    });
    expect(asked.statusCode).toBe(200);
    const link = await waitForLoggedLink(server.logs, 'Password reset link', email);
    const token = new URL(link).pathname.split('/').pop() ?? '';
    expect(token.length).toBeGreaterThan(10);
    const stored = JSON.stringify(await rows(sql`select identifier, value from verification`));
    expect(stored).not.toContain(token);

    const followed = await server.app.inject({ method: 'GET', url: pathOf(link) });
    expect(followed.statusCode).toBe(302);
    const reset = await server.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { newPassword: 'a brand new passphrase', token },
    });
    expect(reset.statusCode).toBe(200);
  });
});
