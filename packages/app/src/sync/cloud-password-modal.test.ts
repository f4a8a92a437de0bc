import { describe, expect, it } from 'vitest';
import { newPasswordProblem } from './cloud-password-words.ts';
import { shownFieldProblems } from './cloud-password-modal.tsx';

describe('shownFieldProblems', () => {
  it('says nothing while the new password is valid', () => {
    const password = 'a long enough password';
    expect(shownFieldProblems(newPasswordProblem(password, password), password, password)).toEqual({
      password: null,
      repeat: null,
    });
  });

  it('says nothing under an empty field, though the password is missing', () => {
    expect(shownFieldProblems(newPasswordProblem('', ''), '', '')).toEqual({
      password: null,
      repeat: null,
    });
  });

  it('says a short password under the first field once something is typed', () => {
    expect(shownFieldProblems(newPasswordProblem('short', ''), 'short', '')).toEqual({
      password: 'Use at least 10 characters (5 so far).',
      repeat: null,
    });
  });

  it('says a different repeat under the second field once something is typed there', () => {
    const password = 'a long enough password';
    expect(shownFieldProblems(newPasswordProblem(password, ''), password, '')).toEqual({
      password: null,
      repeat: null,
    });
    expect(shownFieldProblems(newPasswordProblem(password, 'other'), password, 'other')).toEqual({
      password: null,
      repeat: 'The two cloud passwords are not the same.',
    });
  });

  it('says nothing when no new password is asked for', () => {
    expect(shownFieldProblems(null, 'anything', '')).toEqual({ password: null, repeat: null });
  });
});
