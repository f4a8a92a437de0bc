import { Preferences } from '@capacitor/preferences';
import type { KeyValueStore } from './platform.ts';

/**
 * Capacitor Preferences: native key-value storage in the shells, localStorage on the web
 * (where keys get the `CapacitorStorage.` prefix).
 */
export const preferencesKeyValueStore = {
  async get(key) {
    const { value } = await Preferences.get({ key });
    return value;
  },
  async set(key, value) {
    await Preferences.set({ key, value });
  },
  async remove(key) {
    await Preferences.remove({ key });
  },
} satisfies KeyValueStore;
