import type { TraceInput } from '@docket/core/device';
import { createMemoryLocalStore, type LocalStore } from '@docket/core/store';
import type { SyncTransport } from '@docket/core/sync';
import { newDataKey, webCrypto } from '@docket/core/test-support/sync-devices';
import { TestSyncLog, testTransport } from '@docket/core/test-support/sync-log-server';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { bringBackOn } from './bring-back.ts';
import { SyncRunner } from './sync-runner.ts';
import type { SyncRunnerDeps } from './sync-runner-types.ts';

// For tests: a sync runner on a memory store against core's test sync log, and the account
// settings and device keys it is run with. Light Argon2id parameters; nothing here is a secret.

/** An account without a cloud password. */
export const noPassword: SyncSettings = {
  passwordHash: null,
  keyDerivation: null,
  wrappedDataKey: null,
  keyEpoch: 0,
  version: 0,
  epochStartSeqno: 0,
  updatedAt: null,
};

/** An account with a cloud password, at key epoch 0. */
export const withPassword: SyncSettings = {
  ...noPassword,
  passwordHash: '$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA',
  keyDerivation: {
    algorithm: 'argon2id',
    salt: 'c2FsdHNhbHRzYWx0c2FsdA==',
    memoryKiB: 8,
    iterations: 1,
    parallelism: 1,
  },
  wrappedDataKey: 'd3JhcHBlZA==',
  version: 1,
};

/** The keys a device holds for `withPassword`: a fresh data key, which also stands as the KEK. */
export async function deviceKeys(keyEpoch = 0): Promise<DeviceCloudKeys> {
  const dataKey = await newDataKey();
  return {
    keyEpoch,
    dataKey,
    keyEncryptionKey: dataKey,
    material: {
      kdf: { algorithm: 'argon2id', memoryKiB: 8, iterations: 1, parallelism: 1 },
      kekSalt: 'c2FsdHNhbHRzYWx0c2FsdA==',
      passwordHash: withPassword.passwordHash ?? '',
      wrappedDataKey: withPassword.wrappedDataKey ?? '',
      keyEpoch,
    },
  };
}

/** A transport to the test log whose every pull fails with what `failure` gives. */
export function pullFailing(failure: () => Error): (log: TestSyncLog) => SyncTransport {
  return (log) => ({ ...testTransport(log), pull: () => Promise.reject(failure()) });
}

export interface SyncRunnerHarness {
  readonly runner: SyncRunner;
  readonly store: LocalStore;
  readonly traces: TraceInput[];
  readonly log: TestSyncLog;
  /** Lets the run (and a run it asked for) finish. */
  readonly settled: () => Promise<void>;
}

export function syncRunnerHarness(options: {
  settings: SyncSettings;
  keys: DeviceCloudKeys | null;
  transport?: (log: TestSyncLog) => SyncTransport;
  store?: LocalStore;
  termsAccepted?: () => Promise<boolean>;
  /** The space is a team workspace's (SyncRunnerDeps' `workspace`). */
  workspace?: SyncRunnerDeps['workspace'];
  deviceId?: string;
}): SyncRunnerHarness {
  const store = options.store ?? createMemoryLocalStore();
  const log = new TestSyncLog();
  const traces: TraceInput[] = [];
  let pending: Promise<unknown> = Promise.resolve();
  let ids = 0;
  const deps: SyncRunnerDeps = {
    store: () => Promise.resolve(store),
    deviceId: () => Promise.resolve(options.deviceId ?? 'device-a'),
    fetchSettings: () => Promise.resolve(options.settings),
    loadKeys: () => Promise.resolve(options.keys),
    transport: options.transport?.(log) ?? testTransport(log),
    crypto: webCrypto,
    trace: (entry) => {
      traces.push(entry);
      return Promise.resolve();
    },
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
    ...(options.termsAccepted === undefined ? {} : { termsAccepted: options.termsAccepted }),
    ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    bringBack: bringBackOn({
      store: () => Promise.resolve(store),
      crypto: webCrypto,
      deviceId: () => Promise.resolve('device-a'),
      now: () => Date.now(),
    }),
  };
  return {
    runner: new SyncRunner(deps),
    store,
    traces,
    log,
    settled: async () => {
      for (let n = 0; n < 5; n++) {
        await pending;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  };
}

/** A device of an account with a cloud password, holding the password's keys. */
export async function passwordDevice(
  options: Omit<Parameters<typeof syncRunnerHarness>[0], 'settings' | 'keys'> = {},
): Promise<SyncRunnerHarness> {
  return syncRunnerHarness({ settings: withPassword, keys: await deviceKeys(), ...options });
}
