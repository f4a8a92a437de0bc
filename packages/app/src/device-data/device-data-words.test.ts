import { describe, expect, it } from 'vitest';
import { deviceDataWords } from './device-data-words.ts';

const none = {
  bills: 0,
  datasets: 0,
  tags: 0,
  positions: 0,
  decisions: 0,
  annotations: 0,
  fullBackups: 0,
  unsynced: 0,
};

describe('what the device holds, in words', () => {
  it('names only the kinds it has, joined as a sentence', () => {
    expect(deviceDataWords({ ...none, bills: 12 })).toBe('12 bills');
    expect(deviceDataWords({ ...none, bills: 1, tags: 2, annotations: 1 })).toBe(
      '1 bill, 2 tags and 1 annotation',
    );
    expect(deviceDataWords({ ...none, unsynced: 3 })).toBe('3 unsynced changes');
  });
});
