import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { session } from '../src/db/schema.ts';
import {
  PASSWORD,
  PUBLIC_URL,
  setup,
  signedInFrom,
  signIn,
  signUp,
  uniqueEmail,
} from './test-server.ts';

const server = setup();

function getSession(headers: Record<string, string>) {
  return server.app.inject({ method: 'GET', url: '/api/auth/get-session', headers });
}

function readTerms(headers: Record<string, string>) {
  return server.app.inject({ method: 'GET', url: '/api/terms/acceptance', headers });
}

describe('e-mail and password accounts', () => {
  it('signs up, reads the session, signs out, signs in again', async () => {
    const email = uniqueEmail();
    const { cookie } = await signUp(server.app, email);

    const current = await getSession({ cookie });
    expect(current.statusCode).toBe(200);
    expect(current.json<{ user: { email: string } }>().user.email).toBe(email);

    const signOut = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: PUBLIC_URL },
    });
    expect(signOut.statusCode).toBe(200);
    expect((await getSession({ cookie })).json()).toBeNull();
    expect((await readTerms({ cookie })).statusCode).toBe(401);

    const again = await signIn(server.app, email, PASSWORD);
    expect(again.statusCode).toBe(200);
    const { cookie: newCookie } = signedInFrom(again);
    expect((await readTerms({ cookie: newCookie })).statusCode).toBe(200);
  });

  it('makes no second account with the same e-mail, in any letter case, and does not say so', async () => {
    const email = uniqueEmail();
    await signUp(server.app, email);
    const signUpWith = (address: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: address, password: 'amber falcon quietly 77', name: 'Other' },
      });
    const duplicate = await signUpWith(email.toUpperCase());
    const fresh = await signUpWith(uniqueEmail());
    // The same status, the same body shape, no session either way: a taken address is not
    // told apart from a free one.
    expect(duplicate.statusCode).toBe(fresh.statusCode);
    expect(duplicate.statusCode).toBe(200);
    const shape = (body: { token: unknown; user: Record<string, unknown> }) => ({
      token: body.token,
      userKeys: Object.keys(body.user).sort(),
    });
    type SignUpBody = { token: unknown; user: Record<string, unknown> };
    expect(shape(duplicate.json<SignUpBody>())).toEqual(shape(fresh.json<SignUpBody>()));
    expect(duplicate.headers['set-cookie']).toBeUndefined();
    expect(duplicate.headers['set-auth-token']).toBeUndefined();
    expect(fresh.headers['set-auth-token']).toBeUndefined();
    // And the account keeps its own password.
    expect((await signIn(server.app, email, PASSWORD)).statusCode).toBe(200);
    expect((await signIn(server.app, email, 'amber falcon quietly 77')).statusCode).toBe(401);
  });

  it('refuses a wrong password and an unknown account alike', async () => {
    const email = uniqueEmail();
    await signUp(server.app, email);
    const wrong = await signIn(server.app, email, 'not the password');
    const unknown = await signIn(server.app, uniqueEmail('nobody'), PASSWORD);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a cookie-carrying sign-out from a foreign origin', async () => {
    const { cookie } = await signUp(server.app);
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect((await readTerms({ cookie })).statusCode).toBe(200);
  });
});

describe('sessions on Docket routes', () => {
  it('accepts the bearer token a sign-in hands out', async () => {
    const email = uniqueEmail();
    await signUp(server.app, email);
    const { bearer } = signedInFrom(await signIn(server.app, email, PASSWORD));
    const response = await readTerms({ authorization: `Bearer ${bearer}` });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 with our error body to no session at all', async () => {
    const response = await readTerms({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'unauthorized', message: 'Sign in to continue.' });
  });

  it('answers 401 to a forged session cookie', async () => {
    const { cookie } = await signUp(server.app);
    const [name, value = ''] = cookie.split('=', 2);
    const [token = ''] = decodeURIComponent(value).split('.', 1);
    const forgedSignature = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`;
    const madeUp = `${name}=${encodeURIComponent('madeUpToken.madeUpSignature')}`;
    expect((await readTerms({ cookie: forgedSignature })).statusCode).toBe(401);
    expect((await readTerms({ cookie: madeUp })).statusCode).toBe(401);
  });

  it('answers 401 to a forged or unsigned bearer token', async () => {
    const { bearer } = await signUp(server.app);
    const [token = ''] = bearer.split('.', 1);
    for (const forged of [`${token}.${'B'.repeat(43)}=`, token, 'nonsense']) {
      const response = await readTerms({ authorization: `Bearer ${forged}` });
      expect(response.statusCode, forged).toBe(401);
    }
  });

  it('answers 401 to the cookie of an expired session', async () => {
    const { cookie, userId } = await signUp(server.app);
    expect((await readTerms({ cookie })).statusCode).toBe(200);
    await server.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(session.userId, userId));
    const response = await readTerms({ cookie });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'unauthorized', message: 'Sign in to continue.' });
  });
});
