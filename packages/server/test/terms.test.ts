import { TERMS_VERSION, termsAcceptanceResponseSchema } from '@docket/protocol/terms';
import { describe, expect, it } from 'vitest';
import { setup, signUp } from './test-server.ts';

const server = setup();

function readTerms(cookie: string) {
  return server.app.inject({ method: 'GET', url: '/api/terms/acceptance', headers: { cookie } });
}

function acceptTerms(cookie: string, payload: unknown) {
  return server.app.inject({
    method: 'POST',
    url: '/api/terms/acceptance',
    headers: { cookie },
    payload: payload as Record<string, unknown>,
  });
}

describe('terms of service acceptance', () => {
  it('starts with no acceptance and the current version', async () => {
    const { cookie } = await signUp(server.app);
    const response = await readTerms(cookie);
    expect(response.statusCode).toBe(200);
    expect(termsAcceptanceResponseSchema.parse(response.json())).toEqual({
      currentVersion: TERMS_VERSION,
      accepted: null,
    });
  });

  it('stores an acceptance and reads it back; accepting again keeps the first date', async () => {
    const { cookie } = await signUp(server.app);
    const before = Date.now();
    const first = await acceptTerms(cookie, { version: TERMS_VERSION });
    expect(first.statusCode).toBe(200);
    const accepted = termsAcceptanceResponseSchema.parse(first.json()).accepted;
    expect(accepted?.version).toBe(TERMS_VERSION);
    expect(Date.parse(accepted?.acceptedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);

    const again = await acceptTerms(cookie, { version: TERMS_VERSION });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await readTerms(cookie)).json()).toEqual(first.json());
  });

  it("never shows one user's acceptance to another", async () => {
    const alice = await signUp(server.app);
    const bob = await signUp(server.app);
    await acceptTerms(alice.cookie, { version: TERMS_VERSION });
    const bobsView = termsAcceptanceResponseSchema.parse((await readTerms(bob.cookie)).json());
    expect(bobsView.accepted).toBeNull();
  });

  it('refuses a version other than the current one and stores nothing', async () => {
    const { cookie } = await signUp(server.app);
    const response = await acceptTerms(cookie, { version: '1999-01-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'unknown-terms-version',
      message: expect.stringContaining(TERMS_VERSION) as unknown,
    });
    expect(
      termsAcceptanceResponseSchema.parse((await readTerms(cookie)).json()).accepted,
    ).toBeNull();
  });

  it('refuses unknown fields and a missing version, naming the field, and stores nothing', async () => {
    const { cookie } = await signUp(server.app);
    const extra = await acceptTerms(cookie, { version: TERMS_VERSION, userId: 'someone-else' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({
      error: 'invalid-request',
      message: expect.stringContaining('"userId"') as unknown,
    });

    const missing = await acceptTerms(cookie, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('"version"');

    expect(
      termsAcceptanceResponseSchema.parse((await readTerms(cookie)).json()).accepted,
    ).toBeNull();
  });

  it('needs a signed-in user to accept', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/terms/acceptance',
      payload: { version: TERMS_VERSION },
    });
    expect(response.statusCode).toBe(401);
  });
});
