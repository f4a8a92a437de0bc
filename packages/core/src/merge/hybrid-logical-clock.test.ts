import { describe, expect, it } from 'vitest';
import {
  decodeHlc,
  DEFAULT_MAX_DRIFT_MS,
  encodeHlc,
  HLC_MAX_COUNTER,
  HlcError,
  receive,
  tick,
  zeroHlc,
} from './hybrid-logical-clock.ts';

const T = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('hybrid logical clock: examples', () => {
  it('encodes with fixed widths', () => {
    expect(encodeHlc({ millis: T, counter: 42, deviceId: 'phone-7' })).toBe(
      '001736942400000-002a-phone-7',
    );
    expect(encodeHlc(zeroHlc('x'))).toBe('000000000000000-0000-x');
  });

  it('follows the wall clock when it moves forward and counts when it does not', () => {
    const a = tick(zeroHlc('d'), T);
    expect(a).toEqual({ millis: T, counter: 0, deviceId: 'd' });
    expect(tick(a, T)).toEqual({ millis: T, counter: 1, deviceId: 'd' });
    expect(tick(a, T - 60_000)).toEqual({ millis: T, counter: 1, deviceId: 'd' });
    expect(tick(a, T + 1)).toEqual({ millis: T + 1, counter: 0, deviceId: 'd' });
  });

  it('carries a full counter into the milliseconds instead of failing', () => {
    const full = { millis: T, counter: HLC_MAX_COUNTER, deviceId: 'd' };
    expect(tick(full, T)).toEqual({ millis: T + 1, counter: 0, deviceId: 'd' });
  });

  it('moves past a remote clock that is ahead, keeping its own device id', () => {
    const last = { millis: T, counter: 3, deviceId: 'me' };
    expect(receive(last, { millis: T + 500, counter: 7, deviceId: 'you' }, T)).toEqual({
      millis: T + 500,
      counter: 8,
      deviceId: 'me',
    });
    expect(receive(last, { millis: T, counter: 9, deviceId: 'you' }, T)).toEqual({
      millis: T,
      counter: 10,
      deviceId: 'me',
    });
    expect(receive(last, { millis: T - 5, counter: 9, deviceId: 'you' }, T + 10)).toEqual({
      millis: T + 10,
      counter: 0,
      deviceId: 'me',
    });
  });

  it('refuses a remote clock too far in the future, with a message that says what to check', () => {
    const last = tick(zeroHlc('me'), T);
    const remote = { millis: T + DEFAULT_MAX_DRIFT_MS + 60_000, counter: 0, deviceId: 'laptop' };
    expect(() => receive(last, remote, T)).toThrow(HlcError);
    expect(() => receive(last, remote, T)).toThrow(
      /device laptop is dated 360 s ahead of this device's clock .*date and time settings/,
    );
    expect(receive(last, remote, T, { maxDriftMs: 10 * 60 * 1000 }).millis).toBe(remote.millis);
    // Right at the limit is still fine.
    const edge = { millis: T + DEFAULT_MAX_DRIFT_MS, counter: 0, deviceId: 'laptop' };
    expect(receive(last, edge, T).millis).toBe(edge.millis);
  });

  it('refuses malformed strings, device ids and wall readings clearly', () => {
    for (const bad of [
      '',
      '1736942400000-0000-x',
      '001736942400000-002A-x',
      '001736942400000-002a-',
      '001736942400000-002a-a b',
      '001736942400000-002a-x\n',
    ]) {
      expect(() => decodeHlc(bad), bad).toThrow(/Not a clock timestamp/);
    }
    expect(() => zeroHlc('')).toThrow(/device id must be/);
    expect(() => zeroHlc('<img src=x onerror=alert(1)>')).toThrow(/device id must be/);
    expect(() => zeroHlc('x'.repeat(65))).toThrow(/device id must be/);
    expect(() => tick(zeroHlc('d'), Number.NaN)).toThrow(/not a usable time/);
    expect(() => tick(zeroHlc('d'), -1)).toThrow(/not a usable time/);
    expect(() => tick({ millis: 1.5, counter: 0, deviceId: 'd' }, T)).toThrow(/whole number/);
  });
});
