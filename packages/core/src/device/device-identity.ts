import { isDeviceId } from '../merge/hybrid-logical-clock.ts';
import type { LocalStore } from '../store/local-store.ts';

// This device's id: the tie-breaker of its hybrid logical clock and the author of its outbox
// entries. Made once, on first use, and kept in the settings table under a `device:` key, which
// never syncs: a device id copied to another device would make two devices one.

export const DEVICE_ID_SETTING = 'device:id';

/** The device's id, made and stored on first use; concurrent first calls agree on one id. */
export async function ensureDeviceId(store: LocalStore, newId: () => string): Promise<string> {
  // Made before the transaction opens: a transaction body may await only the store.
  const candidate = newId();
  if (!isDeviceId(candidate)) {
    throw new Error(
      `A new device id must be usable by the clock, not ${JSON.stringify(candidate)}.`,
    );
  }
  return store.write(['settings'], async (tx) => {
    const stored = await tx.get('settings', DEVICE_ID_SETTING);
    if (stored !== undefined && typeof stored.value === 'string' && isDeviceId(stored.value)) {
      return stored.value;
    }
    await tx.put('settings', { key: DEVICE_ID_SETTING, value: candidate });
    return candidate;
  });
}
