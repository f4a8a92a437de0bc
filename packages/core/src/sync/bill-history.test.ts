import { describe, expect, it } from 'vitest';
import { renameTag, createTag } from '../commands/tag-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { billIdOf, rowsOf, T0 } from '../test-support/bill-command-harness.ts';
import { newDataKey, syncedRowsOf, testDevice } from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { HISTORY_PER_BILL } from './bill-history.ts';
import {
  markBillHistorySeen,
  readBillHistory,
  readChangedBillIds,
} from '../lists/bill-history-reads.ts';

const RED = '#cc0000';

async function twoDevices() {
  const log = new TestSyncLog();
  const key = await newDataKey();
  const a = await testDevice('device-a', log, key);
  const b = await testDevice('device-b', log, key);
  return { a, b };
}

describe("a bill's History", () => {
  it('keeps the value another device overwrote at the same time, on both devices, both told', async () => {
    const { a, b } = await twoDevices();
    const bill = billIdOf(1);
    await setPosition(a.context, bill, 'support');
    await a.sync();
    await b.sync();
    // Two people write the Why at about the same moment; B's is the later.
    a.context.setNow(T0 + 1_000);
    await setPositionReason(a.context, bill, 'Jobs for the district');
    b.context.setNow(T0 + 2_000);
    await setPositionReason(b.context, bill, 'Costs too much');
    await a.sync();
    await b.sync();
    const replaced: unknown = expect.objectContaining({
      billId: bill,
      table: 'positions',
      field: 'reason',
      before: 'Jobs for the district',
      after: 'Costs too much',
      at: new Date(T0 + 2_000).toISOString(),
      byDevice: 'device-b',
      ofDevice: 'device-a',
      unseen: true,
    });
    // B's value won on B, where A's arrived after it: B is told its value replaced A's.
    expect(await readBillHistory(b.store, bill)).toEqual([replaced]);
    expect(await readChangedBillIds(b.store)).toEqual(new Set([bill]));
    await a.sync();
    // A is told its value was replaced: the same entry.
    const onA = await readBillHistory(a.store, bill);
    expect(onA).toEqual([replaced]);
    expect((await rowsOf(a.store, 'positions'))[0]?.reason).toBe('Costs too much');
    // The lists say so on the bill until it is opened.
    expect(await readChangedBillIds(a.store)).toEqual(new Set([bill]));
    // The entry syncs: one entry on each device, still news on B until opened there.
    await a.sync();
    await b.sync();
    const onB = await readBillHistory(b.store, bill);
    expect(onB).toHaveLength(1);
    expect(onB[0]?.unseen).toBe(true);
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
    // Opened on A: no longer unseen; a second pull of the same change adds nothing.
    await markBillHistorySeen(
      a.store,
      onA.map((entry) => entry.id),
    );
    expect((await readBillHistory(a.store, bill))[0]?.unseen).toBe(false);
    expect(await readChangedBillIds(a.store)).toEqual(new Set());
  });

  it("shows a tag's overwritten name on the bills that carry it", async () => {
    const { a, b } = await twoDevices();
    const tag = await createTag(a.context, { name: 'Housing', color: RED });
    const { tagBills } = await import('../commands/tag-commands.ts');
    await tagBills(a.context, [billIdOf(2)], tag.id);
    await a.sync();
    await b.sync();
    b.context.setNow(T0 + 5_000);
    await renameTag(b.context, tag.id, 'Homes');
    await b.sync();
    await a.sync();
    // A never renamed it: the name A holds was set by A, so its replacement is kept.
    const history = await readBillHistory(a.store, billIdOf(2));
    expect(history.map((entry) => [entry.before, entry.after])).toEqual([['Housing', 'Homes']]);
    expect(await readBillHistory(a.store, billIdOf(3))).toEqual([]);
  });

  it(`keeps a bill's newest ${HISTORY_PER_BILL} entries`, async () => {
    const { a, b } = await twoDevices();
    const bill = billIdOf(1);
    await setPosition(a.context, bill, 'support');
    await a.sync();
    await b.sync();
    for (let round = 0; round < HISTORY_PER_BILL + 3; round++) {
      a.context.setNow(T0 + 10_000 * (round + 1));
      await setPositionReason(a.context, bill, `A ${round}`);
      await a.sync();
      await b.sync();
      b.context.setNow(T0 + 10_000 * (round + 1) + 5_000);
      await setPositionReason(b.context, bill, `B ${round}`);
      await b.sync();
      await a.sync();
    }
    const history = await readBillHistory(a.store, bill);
    expect(history).toHaveLength(HISTORY_PER_BILL);
    expect(history[0]?.after).toBe(`B ${HISTORY_PER_BILL + 2}`);
  });
});
