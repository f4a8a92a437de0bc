import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { TERMS_VERSION, termsAcceptanceResponseSchema } from '@docket/protocol/terms';
import { apiErrorSchema } from '@docket/protocol/api-error';
import { beforeAll, describe, expect, it } from 'vitest';
import { setup, signUp, uniqueEmail } from './test-server.ts';

const server = setup();
let cookie: string;

beforeAll(async () => {
  ({ cookie } = await signUp(server.app));
});

async function acceptedTerms() {
  const response = await server.app.inject({
    method: 'GET',
    url: '/api/terms/acceptance',
    headers: { cookie },
  });
  return termsAcceptanceResponseSchema.parse(response.json()).accepted;
}

function postTerms(body: string, contentType = 'application/json') {
  return server.app.inject({
    method: 'POST',
    url: '/api/terms/acceptance',
    headers: { cookie, 'content-type': contentType },
    body,
  });
}

describe('bad requests get our JSON error body and change nothing', () => {
  it('malformed JSON → 400 invalid-json', async () => {
    const response = await postTerms('{"version": "2026-');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid-json',
      message: 'The request body is not valid JSON.',
    });
    expect(await acceptedTerms()).toBeNull();
  });

  it('a body over 1 MiB → 413 too-large, on our routes and on auth routes', async () => {
    const huge = JSON.stringify({ version: TERMS_VERSION, padding: 'x'.repeat(1024 * 1024) });
    const response = await postTerms(huge);
    expect(response.statusCode).toBe(413);
    expect(apiErrorSchema.parse(response.json()).error).toBe('too-large');
    expect(await acceptedTerms()).toBeNull();

    const email = uniqueEmail();
    const signUpResponse = await server.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: 'long enough phrase',
        name: 'x'.repeat(1024 * 1024),
      }),
    });
    expect(signUpResponse.statusCode).toBe(413);
    expect(apiErrorSchema.parse(signUpResponse.json()).error).toBe('too-large');
  });

  it('unknown fields → 400 invalid-request naming the field', async () => {
    const response = await postTerms(JSON.stringify({ version: TERMS_VERSION, admin: true }));
    expect(response.statusCode).toBe(400);
    const body = apiErrorSchema.parse(response.json());
    expect(body.error).toBe('invalid-request');
    expect(body.message).toContain('"admin"');
    expect(await acceptedTerms()).toBeNull();
  });

  it('a body that is not an object → 400 invalid-request', async () => {
    const response = await postTerms('["2026-11-01"]');
    expect(response.statusCode).toBe(400);
    expect(apiErrorSchema.parse(response.json()).error).toBe('invalid-request');
  });

  it('an unsupported content type → 415', async () => {
    const response = await postTerms(
      `version=${TERMS_VERSION}`,
      'application/x-www-form-urlencoded',
    );
    expect(response.statusCode).toBe(415);
    expect(apiErrorSchema.parse(response.json()).error).toBe('unsupported-media-type');
    const text = await postTerms(TERMS_VERSION, 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(await acceptedTerms()).toBeNull();
  });

  it('an unknown API route → 404 JSON, for any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await server.app.inject({ method, url: '/api/no-such-thing?x=1' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: 'not-found',
        message: `Nothing at ${method} /api/no-such-thing.`,
      });
    }
  });
});

describe('protocol version check', () => {
  it('answers 426 to an app on another protocol version', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/terms/acceptance',
      headers: { cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION + 1) },
    });
    expect(response.statusCode).toBe(426);
    const body = apiErrorSchema.parse(response.json());
    expect(body.error).toBe('protocol-mismatch');
    expect(body.message).toContain(`protocol ${PROTOCOL_VERSION + 1}`);
    expect(body.message).toContain(`speaks ${PROTOCOL_VERSION}`);
  });

  it('refuses a write from a mismatched app before touching anything', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/terms/acceptance',
      headers: { cookie, [PROTOCOL_HEADER]: '0' },
      payload: { version: TERMS_VERSION },
    });
    expect(response.statusCode).toBe(426);
    expect(await acceptedTerms()).toBeNull();
  });

  it('lets the matching version, health and auth through', async () => {
    const matching = await server.app.inject({
      method: 'GET',
      url: '/api/terms/acceptance',
      headers: { cookie, [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
    });
    expect(matching.statusCode).toBe(200);
    const health = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { [PROTOCOL_HEADER]: '999' },
    });
    expect(health.statusCode).toBe(200);
    const session = await server.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie, [PROTOCOL_HEADER]: '999' },
    });
    expect(session.statusCode).toBe(200);
  });
});
