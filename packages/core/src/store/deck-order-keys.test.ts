import { describe, expect, it } from 'vitest';
import { billDeckOrderKeys, deckOrderListPrefix, recentOrderPlace } from './deck-order-keys.ts';
import { storedBill } from '../test-support/bill-command-harness.ts';

const onDay = (n: number, day: string | null) => ({
  ...storedBill(n),
  actions: day === null ? [] : [{ date: day, text: 'Read', chamber: null }],
  statusDate: null,
  introducedDate: null,
});

describe('the recent order’s keys', () => {
  it('sort later days first, then ids, and undated bills last', () => {
    const days = ['1999-12-31', '2025-01-09', '2025-01-10', '2025-10-01', '2026-11-26', null];
    const places = days.map((day, index) => recentOrderPlace(onDay(index + 1, day)));
    const sorted = [...places].sort();
    expect(sorted).toEqual([places[4], places[3], places[2], places[1], places[0], places[5]]);
    // One day: the id decides.
    const a = recentOrderPlace(onDay(1, '2025-01-01'));
    const b = recentOrderPlace(onDay(2, '2025-01-01'));
    expect(a < b).toBe(true);
  });

  it('put a bill in every list it belongs to, each under its own prefix', () => {
    const bill = { ...onDay(7, '2025-03-04'), datasetIds: ['one', 'two'] };
    const keys = billDeckOrderKeys(bill);
    const place = recentOrderPlace(bill);
    expect(keys).toEqual([
      `${deckOrderListPrefix({ index: 'all' })}${place}`,
      `${deckOrderListPrefix({ index: 'datasetIds', value: 'one' })}${place}`,
      `${deckOrderListPrefix({ index: 'datasetIds', value: 'two' })}${place}`,
      `${deckOrderListPrefix({ index: 'jurisdiction', value: 'us' })}${place}`,
      `${deckOrderListPrefix({ index: 'status', value: 'introduced' })}${place}`,
      `${deckOrderListPrefix({ index: 'idPrefix', value: 'us/119/' })}${place}`,
    ]);
    // A dataset whose id starts like another's is not in the other's list.
    const other = deckOrderListPrefix({ index: 'datasetIds', value: 'on' });
    expect(keys.some((key) => key.startsWith(other))).toBe(false);
  });
});
