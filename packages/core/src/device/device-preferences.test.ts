import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  AUTO_REFRESH_AT_SETTING,
  autoRefreshDelay,
  defaultDevicePreferences,
  markAutoRefresh,
  DEVICE_PREFERENCES_SETTING,
  openingRefreshDelay,
  readDevicePreferences,
  saveDevicePreferences,
  staleBefore,
} from './device-preferences.ts';

describe('device preferences', () => {
  it('start at the defaults (relay on, a refresh every 6 hours, no alerts) and keep what is saved', async () => {
    const store = createMemoryLocalStore();
    expect(await store.read(['settings'], readDevicePreferences)).toEqual({
      sourceRelay: true,
      autoRefreshHours: 6,
      changeAlerts: false,
    });
    await saveDevicePreferences(store, { sourceRelay: false });
    await saveDevicePreferences(store, { autoRefreshHours: 0 });
    expect(await store.read(['settings'], readDevicePreferences)).toEqual({
      sourceRelay: false,
      autoRefreshHours: 0,
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

describe('the automatic refresh schedule', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  const hoursAgo = (hours: number) => new Date(now - hours * 3_600_000).toISOString();

  it('is off at 0 hours, due at once when never run, and due again `hours` after the last', () => {
    expect(autoRefreshDelay(0, null, now)).toBeNull();
    expect(autoRefreshDelay(6, null, now)).toBe(0);
    expect(autoRefreshDelay(6, hoursAgo(1), now)).toBe(5 * 3_600_000);
    expect(autoRefreshDelay(6, hoursAgo(6), now)).toBe(0);
    expect(autoRefreshDelay(1, hoursAgo(30), now)).toBe(0);
  });

  it('on opening the app, is due once the last is an hour old, whatever the interval', () => {
    expect(openingRefreshDelay(6, null, now)).toBe(0);
    expect(openingRefreshDelay(6, hoursAgo(0.5), now)).toBe(0.5 * 3_600_000);
    expect(openingRefreshDelay(6, hoursAgo(1), now)).toBe(0);
    expect(openingRefreshDelay(24, hoursAgo(2), now)).toBe(0);
    expect(openingRefreshDelay(0, hoursAgo(30), now)).toBeNull();
    // A dataset looked at within that hour is not stale.
    expect(staleBefore(now)).toBe(hoursAgo(1));
  });

  it('counts a last time it cannot read, or one in the future, as due', () => {
    expect(autoRefreshDelay(24, 'yesterday', now)).toBe(0);
    expect(autoRefreshDelay(24, hoursAgo(-3), now)).toBe(0);
  });

  it('keeps when the last one started on this device', async () => {
    const store = createMemoryLocalStore();
    await markAutoRefresh(store, hoursAgo(2));
    const row = await store.read(['settings'], (tx) => tx.get('settings', AUTO_REFRESH_AT_SETTING));
    expect(autoRefreshDelay(6, row?.value as string, now)).toBe(4 * 3_600_000);
  });
});
