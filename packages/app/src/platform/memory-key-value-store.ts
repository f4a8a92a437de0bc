import type { KeyValueStore } from './platform.ts';

/** A KeyValueStore in memory, for tests; `entries` exposes what was stored. */
export function createMemoryKeyValueStore(initial: Record<string, string> = {}) {
  const entries = new Map(Object.entries(initial));
  const store = {
    get: (key) => Promise.resolve(entries.get(key) ?? null),
    set: (key, value) => {
      entries.set(key, value);
      return Promise.resolve();
    },
    remove: (key) => {
      entries.delete(key);
      return Promise.resolve();
    },
  } satisfies KeyValueStore;
  return { store, entries };
}
