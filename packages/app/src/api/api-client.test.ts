import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '@docket/protocol/protocol-version';
import { termsAcceptanceResponseSchema } from '@docket/protocol/terms';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryKeyValueStore } from '../platform/memory-key-value-store.ts';
import { createNativePlatform } from '../platform/native-platform.ts';
import { webPlatform } from '../platform/web-platform.ts';
import { ApiRequestError, createApiClient } from './api-client.ts';

const answer = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

const acceptance = { currentVersion: 'v2', accepted: null };

describe('createApiClient', () => {
  it('sends the protocol version and parses the answer', async () => {
    const fetchImpl = vi.fn((_url: string, _init: RequestInit) => answer(200, acceptance));
    const api = createApiClient(webPlatform, fetchImpl as typeof fetch);
    const result = await api({
      method: 'GET',
      path: '/api/terms/acceptance',
      response: termsAcceptanceResponseSchema,
    });
    expect(result).toEqual(acceptance);
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('/api/terms/acceptance');
    expect(new Headers(init?.headers).get(PROTOCOL_HEADER)).toBe(String(PROTOCOL_VERSION));
    expect(new Headers(init?.headers).has('authorization')).toBe(false);
  });

  it('sends the bearer token on a native platform, to the configured server', async () => {
    const { store } = createMemoryKeyValueStore({ 'auth-token': 'abc' });
    const platform = createNativePlatform('android', 'https://docket.example.org', store);
    const fetchImpl = vi.fn((_url: string, _init: RequestInit) => answer(200, acceptance));
    await createApiClient(
      platform,
      fetchImpl as typeof fetch,
    )({
      method: 'GET',
      path: '/api/terms/acceptance',
      response: termsAcceptanceResponseSchema,
    });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('https://docket.example.org/api/terms/acceptance');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer abc');
  });

  it("throws the server's message for an error answer", async () => {
    const api = createApiClient(webPlatform, () =>
      answer(409, { error: 'stale_version', message: 'Those terms are out of date.' }),
    );
    await expect(
      api({
        method: 'GET',
        path: '/api/terms/acceptance',
        response: termsAcceptanceResponseSchema,
      }),
    ).rejects.toEqual(new ApiRequestError('Those terms are out of date.', 409, 'stale_version'));
  });

  it('says the server cannot be reached when the request fails', async () => {
    const api = createApiClient(webPlatform, () =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    await expect(
      api({
        method: 'GET',
        path: '/api/terms/acceptance',
        response: termsAcceptanceResponseSchema,
      }),
    ).rejects.toThrow(/cannot be reached/);
  });

  it('refuses an answer of the wrong shape', async () => {
    const api = createApiClient(webPlatform, () => answer(200, { nope: true }));
    await expect(
      api({
        method: 'GET',
        path: '/api/terms/acceptance',
        response: termsAcceptanceResponseSchema,
      }),
    ).rejects.toThrow(/does not understand/);
  });
});
