import { describe, expect, it } from 'vitest';
import { deletionDone, deletionQuestion } from './dataset-words.ts';

describe('the words around deleting a dataset', () => {
  it('say what goes, what stays and what is kept', () => {
    expect(deletionQuestion('Alaska 2025', { billsRemoved: 1200, billsKept: 1 })).toBe(
      '“Alaska 2025” and its 1,200 bills go from this device and your other devices. 1 bill another dataset also provides stays. Your tags, positions, decisions and notes on its bills are kept, and come back if you import the bills again.',
    );
    expect(deletionQuestion('Broken', { billsRemoved: 0, billsKept: 0 })).toMatch(
      /^“Broken” goes from this device and your other devices; no bill goes with it\. Your tags/,
    );
  });

  it('say what was deleted', () => {
    expect(deletionDone({ name: 'Alaska 2025', billsRemoved: 1, billsKept: 3 })).toBe(
      'Deleted “Alaska 2025” and 1 bill.',
    );
    expect(deletionDone({ name: 'Broken', billsRemoved: 0, billsKept: 0 })).toBe(
      'Deleted “Broken”.',
    );
  });
});
