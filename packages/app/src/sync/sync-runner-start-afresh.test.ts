import type { LocalStore } from '@docket/core/store';
import { createTag } from '@docket/core/commands';
import { testContext } from '@docket/core/test-support/bill-command-harness';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import { deviceKeys, syncRunnerHarness, withPassword } from './sync-runner-harness.ts';

// The device owner guard as the runner uses it: "Start afresh" races.

function harness(keys: DeviceCloudKeys) {
  return syncRunnerHarness({ settings: withPassword, keys });
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
