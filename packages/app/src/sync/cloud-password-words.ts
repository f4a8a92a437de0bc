// The fixed words and numbers of spec §2's cloud password modal, and its result (§3).

/** Spec §9: opens at 0.8, with breakpoints 0.8 and 1. */
export const CLOUD_PASSWORD_BREAKPOINTS = [0.8, 1] as const;
export const CLOUD_PASSWORD_INITIAL_BREAKPOINT = 0.8;

export const RESET_TITLE = 'Reset cloud password';

/** Spec §2: the reset view explains the two ways. */
export const RESET_EXPLANATION = [
  'If you changed the cloud password on another device, enter the new one instead: the data re-syncs from that device, and this device then uses the new password.',
  "If nobody knows the password any more, reset it from this device: the other devices revert to this device's data when they next sync (each saves a full backup of its own data first).",
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
