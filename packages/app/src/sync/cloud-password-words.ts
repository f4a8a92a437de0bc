// The fixed words and numbers of spec §2's cloud password modal, and its result (§3).

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

/** Spec §3: status reset, entered or none, and the password. */
export type PasswordModalResult =
  | { readonly status: 'entered'; readonly password: string }
  | { readonly status: 'reset'; readonly password: string }
  | { readonly status: 'none'; readonly password: null };

/** Spec §5: the cloud password is required. */
export function isCloudPasswordValid(password: string): boolean {
  return password.length > 0;
}
