import { describe, expect, it } from 'vitest';
import { needsAcceptance } from './terms-acceptance.ts';

describe('whether the terms must be accepted before syncing', () => {
  it('asks when never accepted, and again when the version changed', () => {
    const acceptedAt = '2026-11-02T10:00:00.000Z';
    expect(needsAcceptance({ currentVersion: '2026-11-01', accepted: null })).toBe(true);
    expect(
      needsAcceptance({
        currentVersion: '2027-01-01',
        accepted: { version: '2026-11-01', acceptedAt },
      }),
    ).toBe(true);
    expect(
      needsAcceptance({
        currentVersion: '2026-11-01',
        accepted: { version: '2026-11-01', acceptedAt },
      }),
    ).toBe(false);
  });
});
