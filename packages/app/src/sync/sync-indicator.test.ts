import { describe, expect, it } from 'vitest';
import { repairWords } from './sync-indicator.tsx';

const error = { kind: 'error', message: 'Sync failed.', retryAt: null } as const;

describe('what the sync error alert says of its repair', () => {
  it('says that a skipped unreadable change is lost to this device', () => {
    expect(repairWords({ ...error, skippable: 7 })).toBe(
      ' "Skip this change" lets the changes after it sync; what it held is lost to this device.',
    );
  });

  it('says that a skipped unsendable change never reaches the other devices', () => {
    expect(repairWords({ ...error, unsendable: 'entry-1' })).toBe(
      ' "Skip this change" lets the changes after it sync; this device keeps the row as it is, but your other devices never get this change.',
    );
  });

  it('says nothing more without a change to skip', () => {
    expect(repairWords(error)).toBe('');
    expect(repairWords({ ...error, handOver: true })).toBe('');
  });
});
