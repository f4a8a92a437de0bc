import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  defaultDevicePreferences,
  DEVICE_PREFERENCES_SETTING,
  readDevicePreferences,
  saveDevicePreferences,
} from './device-preferences.ts';

describe('device preferences', () => {
  it('start at the defaults (relay on, no automatic refresh, no alerts) and keep what is saved', async () => {
    const store = createMemoryLocalStore();
    expect(await store.read(['settings'], readDevicePreferences)).toEqual(defaultDevicePreferences);
    await saveDevicePreferences(store, { sourceRelay: false });
    await saveDevicePreferences(store, { autoRefreshHours: 6 });
    expect(await store.read(['settings'], readDevicePreferences)).toEqual({
      sourceRelay: false,
      autoRefreshHours: 6,
      changeAlerts: false,
    });
  });

  it('refuses a choice it does not offer and changes nothing; ignores a stored value that does not parse', async () => {
    const store = createMemoryLocalStore();
    await expect(
      saveDevicePreferences(store, { autoRefreshHours: 5 as unknown as 6 }),
    ).rejects.toThrow('not a choice');
    expect(await store.read(['settings'], (tx) => tx.count('settings'))).toBe(0);
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: DEVICE_PREFERENCES_SETTING, value: { sourceRelay: 'yes' } }),
    );
    expect(await store.read(['settings'], readDevicePreferences)).toEqual(defaultDevicePreferences);
  });
});
