import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import { createTag } from '@docket/core/commands';
import { testContext } from '@docket/core/test-support/bill-command-harness';
import { newDataKey, webCrypto } from '@docket/core/test-support/sync-devices';
import { TestSyncLog, testTransport } from '@docket/core/test-support/sync-log-server';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { SyncRunner, type SyncRunnerDeps } from './sync-runner.ts';

// The device owner guard as the runner uses it: "Start afresh" races.

const settings: SyncSettings = {
  passwordHash: '$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA',
  keyDerivation: {
    algorithm: 'argon2id',
    salt: 'c2FsdHNhbHRzYWx0c2FsdA==',
    memoryKiB: 8,
    iterations: 1,
    parallelism: 1,
  },
  wrappedDataKey: 'd3JhcHBlZA==',
  keyEpoch: 0,
  version: 1,
  epochStartSeqno: 0,
  updatedAt: null,
};

async function deviceKeys(): Promise<DeviceCloudKeys> {
  const dataKey = await newDataKey();
  return {
    keyEpoch: 0,
    dataKey,
    keyEncryptionKey: dataKey,
    material: {
      kdf: { algorithm: 'argon2id', memoryKiB: 8, iterations: 1, parallelism: 1 },
      kekSalt: 'c2FsdHNhbHRzYWx0c2FsdA==',
      passwordHash: settings.passwordHash ?? '',
      wrappedDataKey: settings.wrappedDataKey ?? '',
      keyEpoch: 0,
    },
  };
}

function harness(keys: DeviceCloudKeys): {
  runner: SyncRunner;
  store: LocalStore;
  settled: () => Promise<void>;
} {
  const store = createMemoryLocalStore();
  const log = new TestSyncLog();
  let pending: Promise<unknown> = Promise.resolve();
  let ids = 0;
  const deps: SyncRunnerDeps = {
    store: () => Promise.resolve(store),
    deviceId: () => Promise.resolve('device-a'),
    fetchSettings: () => Promise.resolve(settings),
    loadKeys: () => Promise.resolve(keys),
    transport: testTransport(log),
    crypto: webCrypto,
    trace: () => Promise.resolve(),
    exclusive: (body) => {
      const run = body();
      pending = run.catch(() => undefined);
      return run;
    },
    now: () => Date.now(),
    random: () => 0.5,
    newId: () => `backup-${++ids}`,
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (handle) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };
  return {
    runner: new SyncRunner(deps),
    store,
    settled: async () => {
      for (let n = 0; n < 5; n++) {
        await pending;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  };
}

const count = (store: LocalStore, table: 'tags' | 'fullBackups') =>
  store.read([table], (tx) => tx.count(table));

describe('"Start afresh"', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a second "Start afresh" (another tab’s alert, a double tap) does not clear the account’s own work', async () => {
    const h = harness(await deviceKeys());
    const context = testContext(h.store, 'device-a');
    await createTag(context, { name: 'Work of user-1', color: '#cc0000' });
    h.runner.setUser('user-1');
    await h.settled();
    h.runner.setUser(null);
    h.runner.setUser('user-2');
    await h.settled();
    expect(h.runner.get().view).toMatchObject({ kind: 'error', handOver: true });

    await h.runner.handOverDevice();
    await h.settled();
    expect(await count(h.store, 'fullBackups')).toBe(1);
    // user-2 works on the device it now owns.
    await createTag(context, { name: 'Work of user-2', color: '#00cc00' });
    await h.settled();

    // The same repair again, from an alert still open in another tab.
    await h.runner.handOverDevice();
    await h.settled();
    expect(await count(h.store, 'tags')).toBe(1);
    expect(await count(h.store, 'fullBackups')).toBe(1);
  });
});
