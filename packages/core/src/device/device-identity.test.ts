import { describe, expect, it } from 'vitest';
import { DEVICE_ID_SETTING, ensureDeviceId } from './device-identity.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';

describe('ensureDeviceId', () => {
  it('makes an id on first use and returns the same one afterwards', async () => {
    const store = createMemoryLocalStore();
    let n = 0;
    const newId = () => `device-${++n}`;
    const first = await ensureDeviceId(store, newId);
    expect(first).toBe('device-1');
    expect(await ensureDeviceId(store, newId)).toBe('device-1');
    expect(await store.read(['settings'], (tx) => tx.get('settings', DEVICE_ID_SETTING))).toEqual({
      key: DEVICE_ID_SETTING,
      value: 'device-1',
    });
  });

  it('gives concurrent first calls one id', async () => {
    const store = createMemoryLocalStore();
    let n = 0;
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => ensureDeviceId(store, () => `device-${++n}`)),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it('replaces a stored id the clock could not use', async () => {
    const store = createMemoryLocalStore();
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: DEVICE_ID_SETTING, value: 'not a device id!' }),
    );
    expect(await ensureDeviceId(store, () => 'fresh')).toBe('fresh');
  });

  it('refuses a new id the clock could not use', async () => {
    await expect(ensureDeviceId(createMemoryLocalStore(), () => 'bad id')).rejects.toThrow(
      /device id/,
    );
  });
});
