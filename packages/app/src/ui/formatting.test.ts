import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize, formatTimeAgo, plural } from './formatting.ts';

describe('plural', () => {
  it('writes one, none and many with their noun, thousands separated', () => {
    expect(plural(1, 'bill')).toBe('1 bill');
    expect(plural(0, 'bill')).toBe('0 bills');
    expect(plural(1234, 'bill')).toBe('1,234 bills');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('formatDuration', () => {
  it('writes seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatDuration(44_600)).toBe('45 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(7_620_000)).toBe('2 h 7 min');
  });
});

describe('formatSize', () => {
  it('writes bytes, kilobytes, megabytes and gigabytes', () => {
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(3.2 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatSize(1024 * 1024 * 1024)).toBe('1.0 GB');
  });
});

describe('formatTimeAgo', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');
  it('says how long ago, in the largest whole unit, up to a week', () => {
    expect(formatTimeAgo('2026-03-10T11:59:30.000Z', now)).toBe('just now');
    // A clock a little ahead of this device's is "just now", not a negative time.
    expect(formatTimeAgo('2026-03-10T12:01:00.000Z', now)).toBe('just now');
    expect(formatTimeAgo('2026-03-10T11:55:00.000Z', now)).toBe('5 min ago');
    expect(formatTimeAgo('2026-03-10T09:30:00.000Z', now)).toBe('2 h ago');
    expect(formatTimeAgo('2026-03-09T12:00:00.000Z', now)).toBe('1 day ago');
    expect(formatTimeAgo('2026-03-07T11:00:00.000Z', now)).toBe('3 days ago');
    expect(formatTimeAgo('2026-02-01T12:00:00.000Z', now)).toMatch(/2026/);
  });
});
