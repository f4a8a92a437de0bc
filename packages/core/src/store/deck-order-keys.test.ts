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

  it('put a bill in every list it belongs to, each under its own prefix, as its decision allows', () => {
    const bill = { ...onDay(7, '2025-03-04'), datasetIds: ['one', 'two'] };
    const place = recentOrderPlace(bill);
    const keysIn = (withLater: boolean) => [
      `${deckOrderListPrefix({ index: 'all', withLater })}${place}`,
      `${deckOrderListPrefix({ index: 'datasetIds', value: 'one', withLater })}${place}`,
      `${deckOrderListPrefix({ index: 'datasetIds', value: 'two', withLater })}${place}`,
      `${deckOrderListPrefix({ index: 'jurisdiction', value: 'us', withLater })}${place}`,
      `${deckOrderListPrefix({ index: 'status', value: 'introduced', withLater })}${place}`,
      `${deckOrderListPrefix({ index: 'idPrefix', value: 'us/119/', withLater })}${place}`,
    ];
    const keys = billDeckOrderKeys(bill);
    // Undecided: in the lists and in the ones that hold the bills put off for later too.
    expect(keys).toEqual([...keysIn(false), ...keysIn(true)]);
    expect(new Set(keys).size).toBe(12);
    expect(billDeckOrderKeys(bill, 'later')).toEqual(keysIn(true));
    expect(billDeckOrderKeys(bill, 'track')).toEqual([]);
    expect(billDeckOrderKeys(bill, 'dismiss')).toEqual([]);
    // A dataset whose id starts like another's is not in the other's list.
    const other = deckOrderListPrefix({ index: 'datasetIds', value: 'on' });
    expect(keys.some((key) => key.startsWith(other))).toBe(false);
  });
});
