// The fixed words and numbers of spec §2's cloud password modal, and its result (§3).

import { plural } from '../ui/formatting.ts';

/** Spec §2 and §9: opens at 0.8, with breakpoints 0.8 and 1. */
export const CLOUD_PASSWORD_BREAKPOINTS = [0.8, 1] as const;
export const CLOUD_PASSWORD_INITIAL_BREAKPOINT = 0.8;

export const RESET_TITLE = 'Reset cloud password';

/** Spec §2: the reset view explains the two ways, in the spec's words; the last paragraph says
 *  what Docket adds so that a revert loses nothing. */
export const RESET_EXPLANATION = [
  'After changing the password on another device, the data re-syncs from that device and this device then uses the new password.',
  "Resetting from this device makes other devices revert to this device's data on re-sync.",
  'Before it reverts, each other device saves a full backup of its own data, which you can restore.',
] as const;

/**
 * What a reset here would take out of the account, as far as it is known: the log entries
 * (envelopes) other devices synced in this key epoch that this device has not received. The
 * server counts envelopes, not the changes sealed inside them, so the words say "batches".
 */
export type UnreceivedCount =
  | { readonly kind: 'counting' }
  | { readonly kind: 'counted'; readonly batches: number }
  | { readonly kind: 'offline' }
  | { readonly kind: 'failed' };

/** Said in the reset view before "Reset password"; none of it holds the reset back. */
export function unreceivedWords(count: UnreceivedCount): string {
  switch (count.kind) {
    case 'counting':
      return 'Counting the changes your other devices synced that have not reached this device…';
    case 'offline':
      return 'Offline: the changes your other devices synced that have not reached this device cannot be counted now.';
    case 'failed':
      return 'The changes your other devices synced that have not reached this device could not be counted.';
    case 'counted':
      if (count.batches === 0) {
        return 'Nothing synced by your other devices is waiting to reach this device: a reset takes none of their synced changes out of the account.';
      }
      if (count.batches === 1) {
        return '1 batch of changes synced by another of your devices has not reached this device. A reset takes it out of the account; it comes back only if that device brings it back after entering the new password.';
      }
      return `${plural(count.batches, 'batch', 'batches')} of changes synced by your other devices have not reached this device. A reset takes them out of the account; they come back only if those devices bring them back after entering the new password.`;
  }
}

/** Spec §3: status reset, entered or none, and the password. */
export type PasswordModalResult =
  | { readonly status: 'entered'; readonly password: string }
  | { readonly status: 'reset'; readonly password: string }
  | { readonly status: 'none'; readonly password: null };

/** Spec §5: the cloud password is required. */
export function isCloudPasswordValid(password: string): boolean {
  return password.length > 0;
}

/** A new cloud password (a first one, a change, a reset) has at least this many characters. */
export const MIN_NEW_PASSWORD_LENGTH = 10;

/**
 * What is wrong with a new cloud password and its repetition, or null when the form is valid
 * (spec §5 adds "required"; Docket asks for a length and a matching second entry, since a new
 * password mistyped once could never be entered again). Said under the fields as they are typed.
 */
export function newPasswordProblem(
  password: string,
  repeat: string,
): { readonly field: 'password' | 'repeat'; readonly message: string } | null {
  if (password.length === 0) return { field: 'password', message: 'Enter a cloud password.' };
  if (password.length < MIN_NEW_PASSWORD_LENGTH) {
    return {
      field: 'password',
      message: `Use at least ${MIN_NEW_PASSWORD_LENGTH} characters (${password.length} so far).`,
    };
  }
  if (repeat.length === 0) {
    return { field: 'repeat', message: 'Type the same cloud password again.' };
  }
  if (repeat !== password) {
    return { field: 'repeat', message: 'The two cloud passwords are not the same.' };
  }
  return null;
}

export type PasswordStrength = 'too short' | 'weak' | 'fair' | 'strong' | 'very strong';

const COMMON = /^(?:password|passw0rd|qwerty|letmein|welcome|iloveyou|admin|docket|123456)/i;

/**
 * A rough strength, from an estimate of the guesses a password takes: the size of the alphabet
 * its characters come from to the power of its length, less for runs, repeats and a common
 * start. A hint, not a rule: only the length is enforced.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < MIN_NEW_PASSWORD_LENGTH) return 'too short';
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^a-zA-Z0-9]/.test(password)) pool += 33;
  // Characters that repeat the one before, or continue a run (abc, 123), add almost nothing.
  let effective = 0;
  for (let i = 0; i < password.length; i++) {
    const code = password.charCodeAt(i);
    const before = i === 0 ? NaN : password.charCodeAt(i - 1);
    effective += code === before || code === before + 1 || code === before - 1 ? 0.25 : 1;
  }
  const distinct = new Set(password).size;
  let bits = effective * Math.log2(Math.max(pool, 2));
  if (distinct < 5) bits = Math.min(bits, distinct * 4);
  if (COMMON.test(password)) bits -= 30;
  if (bits < 45) return 'weak';
  if (bits < 65) return 'fair';
  if (bits < 100) return 'strong';
  return 'very strong';
}

/** The hint under a new password's field. */
export function strengthHint(password: string): string {
  const strength = passwordStrength(password);
  switch (strength) {
    case 'too short':
      return `Strength: too short. Use at least ${MIN_NEW_PASSWORD_LENGTH} characters; a few unrelated words work well.`;
    case 'weak':
      return 'Strength: weak. Add more words or characters; avoid runs and common words.';
    case 'fair':
      return 'Strength: fair. A few more characters make it much harder to guess.';
    case 'strong':
      return 'Strength: strong.';
    case 'very strong':
      return 'Strength: very strong.';
  }
}
