import { describe, expect, it } from 'vitest';
import { setPosition } from '../commands/position-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { dismissBill, trackBill } from '../commands/triage-commands.ts';
import type { BillChange } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { billIdOf, T0 } from '../test-support/bill-command-harness.ts';
import { newDataKey, testDevice } from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { CHANGE_FEED_TABLES, readChangeFeed } from './change-feed.ts';
import { markChangesSeen } from '../commands/seen-mark-commands.ts';

function change(
  bill: number,
  minutes: number,
  text: string,
  toHash = `h${bill}-${minutes}`,
): BillChange {
  const at = new Date(T0 + minutes * 60_000).toISOString();
  return {
    id: `${billIdOf(bill)}|${at}`,
    billId: billIdOf(bill),
    datasetId: 'dataset-1',
    at,
    toHash,
    changes: [{ kind: 'action', date: '2025-02-01', text }],
  };
}

async function record(store: LocalStore, rows: BillChange[]): Promise<void> {
  await store.write(['billChanges'], (tx) => tx.putMany('billChanges', rows));
}

const feedOf = (store: LocalStore) => store.read(CHANGE_FEED_TABLES, (tx) => readChangeFeed(tx));

describe('the What changed feed and seen marks', () => {
  it('lists followed bills only (tracked, a position, a tag), newest first, with every unseen change', async () => {
    const log = new TestSyncLog();
    const device = await testDevice('device-a', log, await newDataKey(), 6);
    const { context, store } = device;
    await trackBill(context, billIdOf(1));
    await setPosition(context, billIdOf(2), 'support');
    await setPosition(context, billIdOf(3), 'none');
    const tag = await createTag(context, { name: 'Water', color: '#1a7f37' });
    await tagBills(context, [billIdOf(4)], tag.id);
    await dismissBill(context, billIdOf(5));
    await record(store, [
      change(1, 1, 'Referred'),
      change(1, 5, 'Hearing set'),
      change(2, 3, 'Passed'),
      change(3, 9, 'Not followed: position none'),
      change(4, 2, 'Tagged bill moved'),
      change(5, 9, 'Dismissed, not followed'),
      change(6, 9, 'Never decided'),
    ]);
    const feed = await feedOf(store);
    expect(feed.map((entry) => entry.billId)).toEqual([billIdOf(1), billIdOf(2), billIdOf(4)]);
    expect(feed[0]?.items.map((item) => item.kind === 'action' && item.text)).toEqual([
      'Referred',
      'Hearing set',
    ]);
    expect(feed[0]?.bill?.identifier).toBe('H.R. 1');
    expect(feed[0]?.toHash).toBe('h1-5');
  });

  it('"Mark all as seen" clears the list, syncs, and clears it on a device that records the same change later', async () => {
    const log = new TestSyncLog();
    const key = await newDataKey();
    const a = await testDevice('device-a', log, key);
    const b = await testDevice('device-b', log, key);
    await trackBill(a.context, billIdOf(1));
    await trackBill(a.context, billIdOf(2));
    await a.sync();
    await b.sync();
    await record(a.store, [change(1, 1, 'Referred', 'same-hash'), change(2, 1, 'Heard')]);
    const feed = await feedOf(a.store);
    expect(feed).toHaveLength(2);
    a.context.setNow(T0 + 10 * 60_000);
    b.context.setNow(T0 + 10 * 60_000);
    expect(await markChangesSeen(a.context, feed)).toBe(2);
    expect(await feedOf(a.store)).toEqual([]);

    // A later change to bill 1 shows again.
    await record(a.store, [change(1, 20, 'Passed')]);
    expect((await feedOf(a.store)).map((entry) => entry.billId)).toEqual([billIdOf(1)]);

    // Device B refreshes later and finds the change A already showed: the mark names its hash.
    await a.sync();
    await b.sync();
    expect(await b.store.read(['seenMarks'], (tx) => tx.all('seenMarks'))).toHaveLength(2);
    await record(b.store, [
      change(1, 30, 'Referred', 'same-hash'),
      change(2, 30, 'Heard elsewhere'),
    ]);
    expect((await feedOf(b.store)).map((entry) => entry.billId)).toEqual([billIdOf(2)]);
  });

  it('refuses too many marks at once and writes nothing for none', async () => {
    const log = new TestSyncLog();
    const a = await testDevice('device-a', log, await newDataKey());
    expect(await markChangesSeen(a.context, [])).toBe(0);
    const many = Array.from({ length: 10_001 }, (_, index) => ({
      billId: `b${index}`,
      toHash: 'h',
    }));
    await expect(markChangesSeen(a.context, many)).rejects.toThrow(/At most 10000/);
    expect(await a.store.read(['outbox'], (tx) => tx.count('outbox'))).toBe(0);
  });
});
