import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hlc } from './hybrid-logical-clock.ts';
import {
  compareHlc,
  decodeHlc,
  encodeHlc,
  HLC_MAX_COUNTER,
  HLC_MAX_MILLIS,
  receive,
  tick,
  zeroHlc,
} from './hybrid-logical-clock.ts';

// The clock's promises under any input: it never runs backwards, whatever the wall clock does
// or whatever it merges; its string form is lossless and sorts exactly as the clocks compare.

const T = Date.UTC(2025, 0, 15, 12, 0, 0);

const deviceIds = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const hlcs: fc.Arbitrary<Hlc> = fc.record({
  millis: fc.oneof(fc.integer({ min: 0, max: HLC_MAX_MILLIS }), fc.integer({ min: T, max: T + 5 })),
  counter: fc.oneof(fc.integer({ min: 0, max: HLC_MAX_COUNTER }), fc.integer({ min: 0, max: 3 })),
  deviceId: fc.oneof(deviceIds, fc.constantFrom('a', 'b', 'a-b', 'ab')),
});
/** Wall clocks that jump around, backwards included, near a real date and at the edges. */
const wallReadings = fc.oneof(
  fc.integer({ min: T - 10_000, max: T + 10_000 }),
  fc.constantFrom(0, T, T + 1),
  fc.double({ min: T - 5, max: T + 5, noNaN: true }),
);

describe('hybrid logical clock: properties', () => {
  it('ticks strictly forward under any sequence of wall readings, backwards jumps included', () => {
    fc.assert(
      fc.property(deviceIds, fc.array(wallReadings, { maxLength: 200 }), (deviceId, readings) => {
        let last = zeroHlc(deviceId);
        for (const now of readings) {
          const stamp = tick(last, now);
          expect(compareHlc(stamp, last)).toBe(1);
          expect(encodeHlc(stamp) > encodeHlc(last)).toBe(true);
          expect(stamp.deviceId).toBe(deviceId);
          // Never behind the wall clock: a fresh device's changes carry real time.
          expect(stamp.millis).toBeGreaterThanOrEqual(Math.floor(now));
          last = stamp;
        }
      }),
    );
  });

  it('stays monotonic when ticks and received remote clocks interleave', () => {
    const event = fc.oneof(
      fc.record({ kind: fc.constant('tick' as const), now: wallReadings }),
      fc.record({
        kind: fc.constant('receive' as const),
        now: fc.integer({ min: T - 10_000, max: T + 10_000 }),
        remote: fc.record({
          millis: fc.integer({ min: T - 20_000, max: T + 20_000 }),
          counter: fc.integer({ min: 0, max: HLC_MAX_COUNTER }),
          deviceId: deviceIds,
        }),
      }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 200 }), (events) => {
        let last = zeroHlc('me');
        for (const step of events) {
          if (step.kind === 'tick') {
            const stamp = tick(last, step.now);
            expect(compareHlc(stamp, last)).toBe(1);
            last = stamp;
          } else {
            // Every generated remote is within the default drift of these readings.
            const stamp = receive(last, step.remote, step.now);
            expect(compareHlc(stamp, last)).toBe(1);
            // After a merge, this device's next change must beat the change it merged.
            // (whatever the device ids say, so not compareHlc).
            const { millis, counter } = step.remote;
            expect(
              stamp.millis > millis || (stamp.millis === millis && stamp.counter > counter),
            ).toBe(true);
            expect(stamp.deviceId).toBe('me');
            last = stamp;
          }
        }
      }),
    );
  });

  it('round-trips through its string form', () => {
    fc.assert(
      fc.property(hlcs, (hlc) => {
        expect(decodeHlc(encodeHlc(hlc))).toEqual(hlc);
      }),
    );
  });

  it('orders the strings exactly as it orders the clocks, ties broken by device id', () => {
    fc.assert(
      fc.property(hlcs, hlcs, (a, b) => {
        const byClock = compareHlc(a, b);
        const ea = encodeHlc(a);
        const eb = encodeHlc(b);
        const byString = ea === eb ? 0 : ea < eb ? -1 : 1;
        expect(byString).toBe(byClock);
        // Equal clocks compare as 0 both ways (not -0, which toBe tells apart).
        expect(compareHlc(b, a)).toBe(byClock === 0 ? 0 : -byClock);
        if (byClock === 0) expect(a).toEqual(b);
      }),
    );
  });

  it('is a total order: sorting by clock and by string agree on any set', () => {
    fc.assert(
      fc.property(fc.array(hlcs, { maxLength: 50 }), (list) => {
        const byClock = [...list].sort(compareHlc).map(encodeHlc);
        const byString = list.map(encodeHlc).sort();
        expect(byClock).toEqual(byString);
      }),
    );
  });
});
