import { describe, expect, it } from 'vitest';
import { newPasswordProblem, passwordStrength, strengthHint } from './cloud-password-words.ts';

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
