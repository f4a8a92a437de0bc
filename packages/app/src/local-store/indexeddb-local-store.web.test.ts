import Dexie, { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeLocalStoreAcceptance } from '@docket/core/store';
import { deviceRowKey } from '@docket/core/crypto';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { openIndexedDbLocalStore } from './indexeddb-local-store.ts';

// The acceptance suite on Chromium's own IndexedDB (vitest.web.config.ts). Each test opens its
// own database; the browser profile is thrown away after the run.

// Dexie turns on its debug mode on localhost, where Vitest serves the page, and then Chromium
// logs every failure the suite provokes on purpose. Production runs without it; so do the tests.
Dexie.debug = false;

const run = Date.now();
let opened = 0;
const openStore = () => {
  opened += 1;
  return openIndexedDbLocalStore({ name: `docket-web-test-${run}-${opened}` });
};

/** The same with an account's vault open: the private rows are sealed as they are written. */
const openSealedStore = async () => {
  opened += 1;
  const key = await deviceRowKey(browserCrypto, crypto.getRandomValues(new Uint8Array(32)));
  return openIndexedDbLocalStore({
    name: `docket-web-test-${run}-${opened}`,
    vault: { rowKey: () => Promise.resolve(key), known: () => key },
  });
};

describeLocalStoreAcceptance('IndexedDB local store (Chromium)', openStore, {
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describeLocalStoreAcceptance('IndexedDB local store with a vault (Chromium)', openSealedStore, {
  describe,
  it,
  expect,
  beforeEach,
  afterEach,
});

describe('IndexedDB local store with Dexie live queries (Chromium)', () => {
  it.each([
    ['in clear', openStore],
    ['sealed', openSealedStore],
  ])(
    're-runs a live query over store.read when a write changes what it read (%s)',
    async (_, open) => {
      const store = await open();
      const seen: number[] = [];
      let notify = (): void => undefined;
      const subscription = liveQuery(() => store.read(['tags'], (tx) => tx.all('tags'))).subscribe({
        next: (rows) => {
          seen.push(rows.length);
          notify();
        },
      });
      const nextValue = () =>
        new Promise<void>((resolve) => {
          notify = resolve;
        });
      const tag = (id: string, name: string) => ({
        id,
        name,
        color: '#aabbcc',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      });
      try {
        if (seen.length === 0) await nextValue();
        const changed = nextValue();
        await store.write(['tags'], (tx) => tx.put('tags', tag('tag-1', 'Housing')));
        await changed;
        expect(seen).toEqual([0, 1]);
      } finally {
        subscription.unsubscribe();
        store.close();
      }
    },
  );
});
