// The account password, held for the moment between the sign-in form and the account's database
// being entered (issue 38): the device vault that seals the account's work on this browser is
// opened, or made, with it (local-store/account-vault.ts). It is taken once, and forgotten after
// a minute if nothing takes it (a refused sign-in, a page that went elsewhere).

const HOLD_MS = 60_000;

let held: { readonly password: string; readonly until: number } | null = null;

/** The sign-in form, as it sends the password to the server. */
export function holdPasswordForDevice(password: string): void {
  held = { password, until: Date.now() + HOLD_MS };
}

/** Forgets the held password (the server refused it). */
export function dropHeldPassword(): void {
  held = null;
}

/** The held password, once; null when none is held or it was held too long ago. */
export function takeHeldPassword(): string | null {
  const taken = held;
  held = null;
  return taken !== null && taken.until >= Date.now() ? taken.password : null;
}
