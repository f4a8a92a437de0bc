import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize, plural } from './formatting.ts';

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
