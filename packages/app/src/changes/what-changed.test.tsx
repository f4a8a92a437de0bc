// Dexie's live queries compare keys through the global IndexedDB it found when it loaded, so a
// fake one must be global before Dexie is imported.
import 'fake-indexeddb/auto';
import { CHANGE_FEED_TABLES, readChangeFeed } from '@docket/core/changes';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { describe, expect, it } from 'vitest';
import { liveLocalStore, watchLiveRead } from '../local-store/live-database.ts';

describe('the What changed feed, read live', () => {
  it('hears changes recorded and seen marks written after it started', async () => {
    const store = liveLocalStore();
    const bill = storedBill(1);
    await store.write(['bills', 'decisions'], async (tx) => {
      await tx.put('bills', bill);
      await tx.put('decisions', {
        billId: bill.id,
        decision: 'track',
        decidedAt: '2025-01-01T00:00:00.000Z',
      });
    });
    const seen: number[] = [];
    const stop = watchLiveRead(
      (live) => live.read(CHANGE_FEED_TABLES, (tx) => readChangeFeed(tx)),
      (feed) => seen.push(feed.length),
      (error) => {
        throw error;
      },
    );
    const until = async (length: number) => {
      for (let i = 0; i < 100 && seen.at(-1) !== length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(seen.at(-1)).toBe(length);
    };
    await until(0);
    const at = '2025-02-01T00:00:00.000Z';
    await store.write(['billChanges'], (tx) =>
      tx.put('billChanges', {
        id: `${bill.id}|${at}`,
        billId: bill.id,
        datasetId: 'd1',
        at,
        toHash: 'h',
        changes: [{ kind: 'action', date: null, text: 'Referred' }],
      }),
    );
    await until(1);
    await store.write(['seenMarks'], (tx) =>
      tx.put('seenMarks', { billId: bill.id, changeHash: 'h', seenAt: at }),
    );
    await until(0);
    stop();
  });
});
