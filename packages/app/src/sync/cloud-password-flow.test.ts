import { createCloudKeys, unlockCloudKeys } from '@docket/core/crypto';
import { createMemoryLocalStore } from '@docket/core/store';
import { syncCursorSetting } from '@docket/core/sync';
import { webCrypto } from '@docket/core/test-support/sync-devices';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/api-client.ts';
import type { CloudKeyApi } from '../cloud-key-worker/cloud-key-worker.ts';
import {
  applyEnteredPassword,
  CloudPasswordError,
  type CloudPasswordProgress,
  countUnreceived,
  resetCloudPassword,
} from './cloud-password-flow.ts';
import { noPassword, withPassword } from './sync-runner-harness.ts';

const fastKdf = { algorithm: 'argon2id', memoryKiB: 8, iterations: 1, parallelism: 1 } as const;

/** The worker's work, done here with light Argon2id parameters. */
const keys: CloudKeyApi = {
  create: (password, keyEpoch) => createCloudKeys(webCrypto, password, keyEpoch, fastKdf),
  unlock: (password, material) => unlockCloudKeys(webCrypto, password, material),
  change: () => Promise.reject(new Error('not used here')),
};

/** A server that keeps what is PUT to its settings and answers with it. */
function settingsServer(): { api: ApiClient; settings: () => SyncSettings } {
  let settings = noPassword;
  const api = (async (request: { method: string; body?: unknown }) => {
    if (request.method === 'PUT') {
      const { settings: written } = request.body as {
        settings: Omit<SyncSettings, 'version' | 'epochStartSeqno' | 'updatedAt'>;
      };
      settings = { ...settings, ...written, version: settings.version + 1 };
    }
    return Promise.resolve(settings);
  }) as unknown as ApiClient;
  return { api, settings: () => settings };
}

describe('the work after Go', () => {
  it('says each step as it starts, and how far along it is', async () => {
    const server = settingsServer();
    const steps: CloudPasswordProgress[] = [];
    const said = await applyEnteredPassword(
      {
        api: server.api,
        keys,
        saveKeys: () => Promise.resolve(),
        onStep: (progress) => steps.push(progress),
      },
      noPassword,
      null,
      'tulip lantern 42 river',
    );
    expect(said).toMatch(/^The cloud password is set\./);
    expect(steps).toEqual([
      { step: 'derive', index: 1, count: 3 },
      { step: 'save', index: 2, count: 3 },
      { step: 'keep', index: 3, count: 3 },
    ]);

    // On another device: a wrong password is refused after its one step, nothing kept.
    const entering: CloudPasswordProgress[] = [];
    let kept = 0;
    const other = {
      api: server.api,
      keys,
      saveKeys: () => {
        kept++;
        return Promise.resolve();
      },
      onStep: (progress: CloudPasswordProgress) => entering.push(progress),
    };
    await expect(
      applyEnteredPassword(other, server.settings(), null, 'not the password'),
    ).rejects.toThrow(CloudPasswordError);
    expect(entering).toEqual([{ step: 'derive', index: 1, count: 2 }]);
    expect(kept).toBe(0);
  });

  it('makes a reset device’s data the new truth before it keeps the new keys', async () => {
    // A sync run between the two (the server nudges at once) that found the new keys while the
    // cursor was still in the old epoch took the device for one that must revert, and emptied
    // its data (the race e2e sync.spec's reset test met in CI).
    const server = settingsServer();
    await applyEnteredPassword(
      { api: server.api, keys, saveKeys: () => Promise.resolve() },
      noPassword,
      null,
      'tulip lantern 42 river',
    );
    const order: string[] = [];
    const steps: CloudPasswordProgress[] = [];
    await resetCloudPassword(
      {
        api: server.api,
        keys,
        saveKeys: () => {
          order.push('keys kept');
          return Promise.resolve();
        },
        makeTruth: (written) => {
          order.push(`truth of epoch ${String(written.keyEpoch)}`);
          return Promise.resolve();
        },
        onStep: (progress) => steps.push(progress),
      },
      server.settings(),
      'a fresh start',
    );
    expect(order).toEqual([`truth of epoch ${String(server.settings().keyEpoch)}`, 'keys kept']);
    expect(steps.map((progress) => progress.step)).toEqual(['derive', 'save', 'truth', 'keep']);
  });
});

describe('counting what a reset would take', () => {
  /** A server that answers the count and keeps the paths it was asked. */
  function countingServer(envelopes: number): { api: ApiClient; asked: string[] } {
    const asked: string[] = [];
    const api = (async (request: { method: string; path: string }) => {
      asked.push(`${request.method} ${request.path}`);
      return Promise.resolve({ envelopes });
    }) as unknown as ApiClient;
    return { api, asked };
  }

  it("sends this device's cursor and id, and answers the server's count", async () => {
    const store = createMemoryLocalStore();
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: syncCursorSetting('user-1'), value: { epoch: 2, seqno: 41 } }),
    );
    const server = countingServer(3);
    const device = { store, userId: 'user-1', deviceId: 'device-b' };
    const settings = { ...withPassword, keyEpoch: 2, epochStartSeqno: 30 };
    expect(await countUnreceived(server.api, device, settings)).toBe(3);
    expect(server.asked).toEqual(['GET /api/sync/unreceived?since=41&deviceId=device-b']);
  });

  it("starts from the epoch's start when the cursor is under another epoch, or missing", async () => {
    const store = createMemoryLocalStore();
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: syncCursorSetting('user-1'), value: { epoch: 1, seqno: 12 } }),
    );
    const server = countingServer(0);
    const settings = { ...withPassword, keyEpoch: 2, epochStartSeqno: 30 };
    await countUnreceived(server.api, { store, userId: 'user-1', deviceId: 'd' }, settings);
    // Another user on this device has no cursor of their own.
    await countUnreceived(server.api, { store, userId: 'user-2', deviceId: 'd' }, settings);
    expect(server.asked).toEqual([
      'GET /api/sync/unreceived?since=30&deviceId=d',
      'GET /api/sync/unreceived?since=30&deviceId=d',
    ]);
  });
});
