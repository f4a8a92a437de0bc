import { describe, expect, it } from 'vitest';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import { decodeHlc, encodeHlc } from './hybrid-logical-clock.ts';
import { DEVICE_CLOCK_SETTING, readDeviceClock } from './outbox-changes.ts';
import { setPosition } from '../commands/position-commands.ts';
import { trackBill } from '../commands/triage-commands.ts';
import {
  billIdOf,
  DEVICE,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
  testContext,
} from '../test-support/bill-command-harness.ts';

describe('the outbox clock', () => {
  it('stamps each entry with the next clock value and keeps the clock in settings', async () => {
    const { store, context } = await storeWithBills(3);
    const tag = await createTag(context, { name: 'Water', color: '#000000' });
    await tagBills(context, [billIdOf(1), billIdOf(2)], tag.id);
    const ids = (await outboxOf(store)).map((entry) => entry.id);
    expect(ids).toEqual([
      `001736942400000-0000-${DEVICE}`,
      `001736942400000-0001-${DEVICE}`,
      `001736942400000-0002-${DEVICE}`,
    ]);
    const setting = (await rowsOf(store, 'settings')).find(
      (row) => row.key === DEVICE_CLOCK_SETTING,
    );
    expect(setting?.value).toBe(ids[2]);
    expect(await store.read(['settings'], (tx) => readDeviceClock(tx, DEVICE))).toEqual(
      decodeHlc(ids[2] ?? ''),
    );
  });

  it('keeps entries in order when the wall clock goes backwards', async () => {
    const { store, context } = await storeWithBills(3);
    await trackBill(context, billIdOf(1));
    context.setNow(T0 - 3_600_000);
    await trackBill(context, billIdOf(2));
    context.setNow(T0 + 10);
    await trackBill(context, billIdOf(3));
    const ids = (await outboxOf(store)).map((entry) => entry.id);
    expect(ids.map((id) => decodeHlc(id))).toEqual([
      { millis: T0, counter: 0, deviceId: DEVICE },
      { millis: T0, counter: 1, deviceId: DEVICE },
      { millis: T0 + 10, counter: 0, deviceId: DEVICE },
    ]);
  });

  it('never hands out one timestamp twice to two tabs of the device at the same instant', async () => {
    const { store } = await storeWithBills(40);
    const tabA = testContext(store);
    const tabB = testContext(store);
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        setPosition(index % 2 === 0 ? tabA : tabB, billIdOf(index + 1), 'watch'),
      ),
    );
    const outbox = await outboxOf(store);
    expect(outbox).toHaveLength(40);
    expect(new Set(outbox.map((entry) => entry.rowId)).size).toBe(40);
  });

  it('goes on after a clock another device id left, or an unreadable one', async () => {
    const { store, context } = await storeWithBills(2);
    const ahead = encodeHlc({ millis: T0 + 5_000, counter: 7, deviceId: 'old-id' });
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: DEVICE_CLOCK_SETTING, value: ahead }),
    );
    await trackBill(context, billIdOf(1));
    expect(decodeHlc((await outboxOf(store))[0]?.id ?? '')).toEqual({
      millis: T0 + 5_000,
      counter: 8,
      deviceId: DEVICE,
    });
    await store.write(['settings'], (tx) =>
      tx.put('settings', { key: DEVICE_CLOCK_SETTING, value: { broken: true } }),
    );
    context.setNow(T0 + 9_000);
    await trackBill(context, billIdOf(2));
    expect(decodeHlc((await outboxOf(store))[1]?.id ?? '').millis).toBe(T0 + 9_000);
  });

  it('refuses a context whose device id or clock is unusable, before writing', async () => {
    const { store } = await storeWithBills(1);
    await expect(
      trackBill({ ...testContext(store), deviceId: 'a b' }, billIdOf(1)),
    ).rejects.toThrow(/device's id is not usable/);
    await expect(
      trackBill({ ...testContext(store), now: () => Number.NaN }, billIdOf(1)),
    ).rejects.toThrow(/not a usable time/);
    await expect(
      createTag({ ...testContext(store), newId: () => 'a|b' }, { name: 'x', color: '#000000' }),
    ).rejects.toThrow(/A new id must be/);
    expect(await rowsOf(store, 'outbox')).toEqual([]);
  });
});
