import { describe, expect, it } from 'vitest';
import type { LocalStore } from '../store/local-store.ts';
import { syncCursorSetting } from './sync-cursor.ts';
import { claimDeviceData, handOverDeviceData, SYNC_OWNER_SETTING } from './sync-owner.ts';
import { createTag } from '../commands/tag-commands.ts';
import { rowsOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';

async function ownerOf(store: LocalStore): Promise<unknown> {
  return (await store.read(['settings'], (tx) => tx.get('settings', SYNC_OWNER_SETTING)))?.value;
}

describe('claimDeviceData', () => {
  it('gives the device to the first account and refuses every other', async () => {
    const { store } = await storeWithBills(0);
    expect(await claimDeviceData(store, 'user-1')).toBeNull();
    expect(await claimDeviceData(store, 'user-1')).toBeNull();
    expect(await claimDeviceData(store, 'user-2')).toBe('user-1');
    expect(await ownerOf(store)).toBe('user-1');
  });

  it('knows the owner of a device that synced before the guard existed (its sync cursor)', async () => {
    // A device that synced user-1's work with the version before this one: a cursor, no owner.
    const { store, context } = await storeWithBills(0);
    await createTag(context, { name: 'Work of user-1', color: '#cc0000' });
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: syncCursorSetting('user-1'), value: { epoch: 0, seqno: 7 } }),
    );
    expect(await claimDeviceData(store, 'user-2')).toBe('user-1');
    expect(await ownerOf(store)).toBe('user-1');
    expect(await claimDeviceData(store, 'user-1')).toBeNull();
  });
});

describe('handOverDeviceData', () => {
  it('clears the work and gives the device to the account in one transaction', async () => {
    const { store, context } = await storeWithBills(0);
    await createTag(context, { name: 'Work of user-1', color: '#cc0000' });
    expect(await claimDeviceData(store, 'user-1')).toBeNull();
    // The store fails every write after the first (the tab closes, the quota runs out).
    let writes = 0;
    const failing: LocalStore = {
      read: (tables, body) => store.read(tables, body),
      write: (tables, body) => {
        writes++;
        return writes > 1 ? Promise.reject(new Error('closed')) : store.write(tables, body);
      },
      close: () => {
        store.close();
      },
    };
    const handOver = handOverDeviceData(failing, {
      userId: 'user-2',
      epoch: 0,
      epochStartSeqno: 0,
      nowMs: T0,
      backupId: 'backup-1',
    });
    await handOver.catch(() => undefined);
    // Either nothing happened, or all of it: never user-1's work cleared with user-1 still the
    // owner (the next run would offer the repair again and save an empty backup).
    const cleared = (await rowsOf(store, 'tags')).length === 0;
    expect({ cleared, owner: await ownerOf(store) }).not.toEqual({
      cleared: true,
      owner: 'user-1',
    });
  });
});
