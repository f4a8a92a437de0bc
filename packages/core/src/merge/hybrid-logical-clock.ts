// Hybrid logical clocks (Kulkarni et al., 2014): timestamps that stay close to wall time but
// never run backwards and always order a change after every change it could have seen, even
// when a device's clock is wrong. Sync merges last-writer-wins per field by these timestamps,
// with the device id as the final tie-breaker, so every device picks the same winner.
//
// The string form sorts in clock order with a plain string comparison (IndexedDB's key order
// and `Array.prototype.sort` alike), so outbox ids and field clocks can be compared as strings:
//
//   001736899200000-002a-phone7
//   └─ wall ms, 15 ─┘└ctr┘└device id
//
// Milliseconds are zero-padded to 15 decimal digits (good until the year 33658), the counter to
// 4 hex digits; both widths are fixed, so the device id, last and of any length, only decides
// between equal clocks.

/** A timestamp: wall-clock milliseconds, a counter for events within one, and who made it. */
export interface Hlc {
  readonly millis: number;
  readonly counter: number;
  readonly deviceId: string;
}

const MILLIS_DIGITS = 15;
const COUNTER_DIGITS = 4;
export const HLC_MAX_MILLIS = 10 ** MILLIS_DIGITS - 1;
export const HLC_MAX_COUNTER = 16 ** COUNTER_DIGITS - 1;

/** Letters, digits, `_` and `-`: safe in a key, a file name and a log line. */
const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ENCODED = /^(\d{15})-([0-9a-f]{4})-([A-Za-z0-9_-]{1,64})$/;

/**
 * How far ahead of this device's wall clock a remote timestamp may be. Beyond it the remote
 * clock is broken (or the message forged): adopting it would drag this device's clock, and
 * every change it makes afterwards, into the future, where it would beat honest edits for as
 * long as the skew lasts.
 */
export const DEFAULT_MAX_DRIFT_MS = 5 * 60 * 1000;

export class HlcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HlcError';
  }
}

export function isDeviceId(value: string): boolean {
  return DEVICE_ID.test(value);
}

function checkDeviceId(deviceId: string): void {
  if (!isDeviceId(deviceId)) {
    throw new HlcError(
      `A device id must be 1 to 64 letters, digits, "_" or "-", not ${JSON.stringify(deviceId.slice(0, 80))}.`,
    );
  }
}

/** Wall time as whole milliseconds; a clock reading outside the encodable range is refused. */
function wallMillis(now: number): number {
  if (!Number.isFinite(now) || now < 0 || now > HLC_MAX_MILLIS) {
    throw new HlcError(`The wall clock reads ${now}, which is not a usable time.`);
  }
  return Math.floor(now);
}

function checkHlc(hlc: Hlc): void {
  if (!Number.isSafeInteger(hlc.millis) || hlc.millis < 0 || hlc.millis > HLC_MAX_MILLIS) {
    throw new HlcError(
      `A clock's milliseconds must be a whole number in range, not ${hlc.millis}.`,
    );
  }
  if (!Number.isSafeInteger(hlc.counter) || hlc.counter < 0 || hlc.counter > HLC_MAX_COUNTER) {
    throw new HlcError(`A clock's counter must be 0 to ${HLC_MAX_COUNTER}, not ${hlc.counter}.`);
  }
  checkDeviceId(hlc.deviceId);
}

/** The clock of a device that has made and seen nothing yet: earlier than any real event. */
export function zeroHlc(deviceId: string): Hlc {
  checkDeviceId(deviceId);
  return { millis: 0, counter: 0, deviceId };
}

/**
 * A counter that would overflow carries into the milliseconds instead of failing: a bulk edit of
 * 50 000 rows may tick that often within one millisecond, and borrowing a millisecond from the
 * future keeps the order at the cost of a drift that wall time soon catches up with.
 */
function next(millis: number, counter: number, deviceId: string): Hlc {
  if (counter <= HLC_MAX_COUNTER) return { millis, counter, deviceId };
  if (millis >= HLC_MAX_MILLIS) throw new HlcError('The clock has run out of time to count in.');
  return { millis: millis + 1, counter: 0, deviceId };
}

/**
 * The timestamp of a local event, after `last` (this device's newest timestamp, made or
 * received). Strictly greater than `last` whatever `now` says, even when the wall clock went
 * backwards; it takes `last`'s device id, which is this device's.
 */
export function tick(last: Hlc, now: number): Hlc {
  checkHlc(last);
  const wall = wallMillis(now);
  if (wall > last.millis) return { millis: wall, counter: 0, deviceId: last.deviceId };
  return next(last.millis, last.counter + 1, last.deviceId);
}

/**
 * This device's clock after seeing `remote`: greater than both `last` and `remote`, so whatever
 * this device does next is ordered after the change it merged. Throws an HlcError, and changes
 * nothing, when `remote` is more than `maxDriftMs` ahead of the wall clock.
 */
export function receive(
  last: Hlc,
  remote: Hlc,
  now: number,
  options: { maxDriftMs?: number } = {},
): Hlc {
  checkHlc(last);
  checkHlc(remote);
  const wall = wallMillis(now);
  const maxDrift = options.maxDriftMs ?? DEFAULT_MAX_DRIFT_MS;
  if (remote.millis - wall > maxDrift) {
    const seconds = Math.round((remote.millis - wall) / 1000);
    throw new HlcError(
      `A change from device ${remote.deviceId} is dated ${seconds} s ahead of this device's clock ` +
        `(at most ${Math.round(maxDrift / 1000)} s is accepted). Check the date and time settings of both devices.`,
    );
  }
  const millis = Math.max(last.millis, remote.millis, wall);
  let counter = 0;
  if (millis === last.millis && millis === remote.millis) {
    counter = Math.max(last.counter, remote.counter) + 1;
  } else if (millis === last.millis) {
    counter = last.counter + 1;
  } else if (millis === remote.millis) {
    counter = remote.counter + 1;
  }
  return next(millis, counter, last.deviceId);
}

/** Total order: time, then counter, then device id by UTF-16 code unit, as the strings sort. */
export function compareHlc(a: Hlc, b: Hlc): number {
  if (a.millis !== b.millis) return a.millis < b.millis ? -1 : 1;
  if (a.counter !== b.counter) return a.counter < b.counter ? -1 : 1;
  if (a.deviceId === b.deviceId) return 0;
  return a.deviceId < b.deviceId ? -1 : 1;
}

export function encodeHlc(hlc: Hlc): string {
  checkHlc(hlc);
  const millis = String(hlc.millis).padStart(MILLIS_DIGITS, '0');
  const counter = hlc.counter.toString(16).padStart(COUNTER_DIGITS, '0');
  return `${millis}-${counter}-${hlc.deviceId}`;
}

/** The inverse of encodeHlc; anything else (from storage or the wire) is refused clearly. */
export function decodeHlc(text: string): Hlc {
  const match = ENCODED.exec(text);
  if (!match) {
    throw new HlcError(`Not a clock timestamp: ${JSON.stringify(text.slice(0, 100))}.`);
  }
  const [, millis = '', counter = '', deviceId = ''] = match;
  return { millis: Number(millis), counter: Number.parseInt(counter, 16), deviceId };
}

export function isEncodedHlc(text: string): boolean {
  return ENCODED.test(text);
}
