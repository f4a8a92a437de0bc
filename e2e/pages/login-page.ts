import { expect, type Page } from '@playwright/test';
import { expectPainted } from './painted.ts';

/** The login screen, found the way a person finds it: by its labels and button names. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  readonly email = () => this.page.getByLabel('Email', { exact: true });
  readonly password = () => this.page.getByLabel('Password', { exact: true });

  async open(returnToLink?: string): Promise<void> {
    const query =
      returnToLink === undefined ? '' : `?returnToLink=${encodeURIComponent(returnToLink)}`;
    await this.page.goto(`/login${query}`);
    await this.waitForForm();
  }

  async waitForForm(): Promise<void> {
    // A visit to / waits 4000 ms ("Authenticating") before the guard sends the visitor here.
    await expectPainted(this.page.getByRole('button', { name: 'Sign in' }), 10_000);
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email().fill(email);
    await this.password().fill(password);
  }

  async createAccount(email: string, password: string): Promise<void> {
    await this.fill(email, password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.fill(email, password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}

/**
 * The More tab's "Sign out", answering its question: keep the account's work on this device
 * (locked: only signing in to it opens it) or remove it. Ends on the sign-in form.
 */
export async function signOut(
  page: Page,
  choice: 'Keep on this device, locked' | 'Remove from this device' = 'Keep on this device, locked',
): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  const ask = page.getByRole('alertdialog', { name: 'Sign out' });
  await expectPainted(ask.getByRole('button', { name: choice }));
  await ask.getByRole('button', { name: choice }).click();
  if (choice === 'Remove from this device') {
    const remove = page.getByRole('alertdialog', { name: 'Remove from this device?' });
    await expectPainted(remove.getByRole('button', { name: 'Remove', exact: true }));
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
  }
  await new LoginPage(page).waitForForm();
}

let counter = 0;
/** A fresh address per call, so tests never depend on each other's accounts. */
export function uniqueEmail(): string {
  counter += 1;
  // Always the same width on screen (a screenshot masks the address, but a wider one wraps):
  // digits only, which the app's font sets all equally wide. In base 36 the letters differ in
  // width, and "Signed in as …" wrapped on a phone or not by the time of day.
  return `reader-${String(Date.now())}-${String(counter).padStart(4, '0')}@example.test`;
}

export const goodPassword = 'correct horse battery staple';

/** The stored auth record of spec §3, as Capacitor Preferences keeps it on the web. */
export async function storedAuthRecord(page: Page): Promise<unknown> {
  const raw = await page.evaluate(() => window.localStorage.getItem('CapacitorStorage.auth'));
  return raw === null ? null : (JSON.parse(raw) as unknown);
}

/**
 * Creates a fresh account from the login page and waits until the app has brought the new user
 * on: to `path` when given (as the login page's `returnToLink`), else where a new user lands,
 * the Bills tab. The server hashes the password: allowed time on a busy machine. Returns the
 * account's address.
 */
export async function signUpAt(
  page: Page,
  path?: string,
  email: string = uniqueEmail(),
): Promise<string> {
  const login = new LoginPage(page);
  await login.open(path);
  await login.createAccount(email, goodPassword);
  await expect(page).toHaveURL(path ?? '/tabs/bills', { timeout: 15_000 });
  return email;
}
