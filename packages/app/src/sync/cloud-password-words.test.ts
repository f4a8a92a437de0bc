import { describe, expect, it } from 'vitest';
import {
  newPasswordProblem,
  passwordStrength,
  strengthHint,
  unreceivedWords,
} from './cloud-password-words.ts';

describe('a new cloud password', () => {
  it('needs at least 10 characters and the same password typed twice', () => {
    expect(newPasswordProblem('', '')).toMatchObject({ field: 'password' });
    expect(newPasswordProblem('short one', 'short one')).toEqual({
      field: 'password',
      message: 'Use at least 10 characters (9 so far).',
    });
    expect(newPasswordProblem('tulip lantern', '')).toMatchObject({ field: 'repeat' });
    expect(newPasswordProblem('tulip lantern', 'tulip lanterm')).toEqual({
      field: 'repeat',
      message: 'The two cloud passwords are not the same.',
    });
    expect(newPasswordProblem('tulip lantern', 'tulip lantern')).toBeNull();
  });

  it('gets a strength hint that rewards length and variety, not runs or common words', () => {
    expect(passwordStrength('abc')).toBe('too short');
    expect(passwordStrength('aaaaaaaaaaaa')).toBe('weak');
    expect(passwordStrength('abcdefghijkl')).toBe('weak');
    expect(passwordStrength('password123')).toBe('weak');
    expect(passwordStrength('lanterntulip')).toBe('fair');
    expect(passwordStrength('tulip lantern 42')).toBe('strong');
    expect(passwordStrength('tulip lantern 42 river')).toBe('very strong');
    expect(strengthHint('short')).toMatch(/^Strength: too short\./);
  });
});

describe('what a reset would take out of the account', () => {
  it('says how many batches of changes from other devices have not reached this device', () => {
    expect(unreceivedWords({ kind: 'counted', batches: 3 })).toBe(
      '3 batches of changes synced by your other devices have not reached this device. A reset takes them out of the account; they come back only if those devices bring them back after entering the new password.',
    );
    expect(unreceivedWords({ kind: 'counted', batches: 1 })).toBe(
      '1 batch of changes synced by another of your devices has not reached this device. A reset takes it out of the account; it comes back only if that device brings it back after entering the new password.',
    );
    expect(unreceivedWords({ kind: 'counted', batches: 1200 })).toMatch(/^1,200 batches of /);
  });

  it('says when nothing is waiting', () => {
    expect(unreceivedWords({ kind: 'counted', batches: 0 })).toBe(
      'Nothing synced by your other devices is waiting to reach this device: a reset takes none of their synced changes out of the account.',
    );
  });

  it('says briefly when it is counting, offline or could not count', () => {
    expect(unreceivedWords({ kind: 'counting' })).toMatch(/^Counting the changes .*…$/);
    expect(unreceivedWords({ kind: 'offline' })).toMatch(/^Offline: .* cannot be counted now\.$/);
    expect(unreceivedWords({ kind: 'failed' })).toMatch(/could not be counted\.$/);
  });
});
