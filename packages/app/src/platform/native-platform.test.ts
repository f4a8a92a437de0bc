import { describe, expect, it } from 'vitest';
import { createMemoryKeyValueStore } from './memory-key-value-store.ts';
import { createNativePlatform } from './native-platform.ts';

describe('createNativePlatform', () => {
  it('keeps the bearer token in the key-value store', async () => {
    const { store, entries } = createMemoryKeyValueStore();
    const platform = createNativePlatform('ios', 'https://docket.example.org/app', store);
    expect(platform.serverOrigin).toBe('https://docket.example.org');
    expect(platform.auth.kind).toBe('bearer');
    expect(await platform.auth.token()).toBeUndefined();
    await platform.auth.rememberToken('t0ken');
    expect(await platform.auth.token()).toBe('t0ken');
    await platform.auth.forgetToken();
    expect(await platform.auth.token()).toBeUndefined();
    expect(entries.size).toBe(0);
  });

  it('refuses to start without a server URL', () => {
    expect(() => createNativePlatform('android', undefined)).toThrow(/VITE_DOCKET_SERVER_URL/);
  });
});
