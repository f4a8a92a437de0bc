import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/** ASVS 4 (2.1.1, L2): at least 12 characters. */
export const MIN_PASSWORD_LENGTH = 12;

/** zxcvbn's score a new password must reach: 3 is "safely unguessable" (about 10^8 guesses). */
export const MIN_PASSWORD_SCORE = 3;

/**
 * About 49,000 of the passwords seen most often in breaches, most common first, as zxcvbn-ts
 * ships them (MIT): checked here, without a network call.
 */
const commonPasswords: ReadonlySet<string> = new Set(dictionary['passwords-common']);

/**
 * zxcvbn-ts with its common and English word lists and keyboard layouts: it estimates how many
 * guesses a password takes (repeats, sequences, keyboard walks, dictionary words with l33t
 * changes, dates), where a list alone only catches the exact passwords on it. Built once.
 */
const strength = new ZxcvbnFactory({
  graphs: adjacencyGraphs,
  dictionary: { ...dictionary, ...englishDictionary },
  translations,
});

/** What the person setting a password is known by: never acceptable as part of it. */
export interface PasswordOwner {
  readonly email?: string | undefined;
  readonly name?: string | undefined;
}

function ownerWords(owner: PasswordOwner): string[] {
  const email = owner.email?.trim().toLowerCase() ?? '';
  const local = email.split('@', 1)[0] ?? '';
  const name = owner.name?.trim().toLowerCase() ?? '';
  return [email, local, name].filter((word) => word.length >= 3);
}

/**
 * Why a new account password is refused, in words fit to show; null when it is acceptable.
 * Besides the list itself, a listed word with digits or symbols stuck on its end
 * ("football2024!") is refused too: that is the first variation a guesser tries. Then its
 * strength: zxcvbn's score, with the owner's address and name as words a guesser knows.
 */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters for your password.`;
  }
  const lower = password.toLowerCase();
  const stem = lower.replace(/[^\p{L}]+$/u, '');
  if (commonPasswords.has(lower) || (stem.length >= 4 && commonPasswords.has(stem))) {
    return 'This password is on a list of common or leaked passwords. Choose another: a few unrelated words make a good one.';
  }
  const words = ownerWords(owner);
  if (words.some((word) => lower.includes(word))) {
    return 'Your password may not contain your e-mail address or your name. Choose another: a few unrelated words make a good one.';
  }
  // zxcvbn's time grows with the length; beyond its first 100 characters a password that got
  // here is long enough to be strong whatever it holds.
  const result = strength.check(password.slice(0, 100), words);
  if (result.score < MIN_PASSWORD_SCORE) {
    const warning = result.feedback.warning;
    return `This password is easy to guess${warning === null || warning === '' ? '' : ` (${warning.replace(/\.$/, '')})`}. Choose another: a few unrelated words make a good one.`;
  }
  return null;
}
