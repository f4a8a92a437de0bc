import { describe, expect, it } from 'vitest';
import { AUTH_UNREACHABLE_MESSAGE, authErrorMessage } from './auth-error-message.ts';

describe('authErrorMessage', () => {
  it("uses the server's message: wrong password, e-mail taken, rate limit", () => {
    expect(authErrorMessage({ status: 401, message: 'Invalid email or password' })).toBe(
      'Invalid email or password',
    );
    expect(
      authErrorMessage({ status: 422, message: 'User already exists. Use another email.' }),
    ).toBe('User already exists. Use another email.');
    expect(authErrorMessage({ status: 429, message: 'Too many requests.' })).toBe(
      'Too many requests.',
    );
  });

  it('explains a rate limit without a message', () => {
    expect(authErrorMessage({ status: 429 })).toMatch(/Too many attempts/);
  });

  it('says the server cannot be reached for network and gateway failures', () => {
    expect(authErrorMessage(new TypeError('Failed to fetch'))).toBe(AUTH_UNREACHABLE_MESSAGE);
    expect(authErrorMessage({ status: 502, statusText: 'Bad Gateway' })).toBe(
      AUTH_UNREACHABLE_MESSAGE,
    );
    expect(authErrorMessage(undefined)).toBe(AUTH_UNREACHABLE_MESSAGE);
  });
});
