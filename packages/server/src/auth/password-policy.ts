import { dictionary } from '@zxcvbn-ts/language-common';

/** ASVS 4 (2.1.1, L2): at least 12 characters. */
export const MIN_PASSWORD_LENGTH = 12;

/**
 * About 49,000 of the passwords seen most often in breaches, most common first, as zxcvbn-ts
 * ships them (MIT): checked here, without a network call.
 */
const commonPasswords: ReadonlySet<string> = new Set(dictionary['passwords-common']);

/**
 * Why a new account password is refused, in words fit to show; null when it is acceptable.
 * Besides the list itself, a listed word with digits or symbols stuck on its end
 * ("football2024!") is refused too: that is the first variation a guesser tries.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`;
  }
  const lower = password.toLowerCase();
  const stem = lower.replace(/[^\p{L}]+$/u, '');
  if (commonPasswords.has(lower) || (stem.length >= 4 && commonPasswords.has(stem))) {
    return 'This password is on a list of common or leaked passwords. Choose another: a few unrelated words make a good one.';
  }
  return null;
}
