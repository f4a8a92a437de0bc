import { expect, type Browser, type Page } from '@playwright/test';
import { goodPassword, LoginPage } from './login-page.ts';

// One device of a user for the sync tests: a browser context of its own (its own IndexedDB),
// signed in, with the More tab's cloud password button and the modal of spec §2.

export async function signedInDevice(
  browser: Browser,
  email: string,
  create: boolean,
): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.open('/tabs/more');
  if (create) await login.createAccount(email, goodPassword);
  else await login.signIn(email, goodPassword);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 15_000 });
  return page;
}

export function cloudPasswordModal(page: Page) {
  return page.locator('ion-modal');
}

export async function openCloudPassword(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Cloud password', exact: true }).click();
  await expect(cloudPasswordModal(page).getByText(title, { exact: true })).toBeVisible();
}

export async function expectCloudPasswordNotice(page: Page, text: string | RegExp): Promise<void> {
  const notice = page.getByRole('alertdialog', { name: 'Cloud password' });
  // Argon2id (64 MiB, three passes) runs twice for a new key, about a second on an idle machine;
  // on a machine busy with other work it has taken over 30 s.
  await expect(notice).toContainText(text, { timeout: 90_000 });
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(notice).toBeHidden();
}

/** Opens the modal from the More tab, types the password and presses Go. */
export async function submitCloudPassword(
  page: Page,
  title: string,
  password: string,
  notice: string | RegExp,
): Promise<void> {
  await openCloudPassword(page, title);
  await page.getByLabel('Cloud password', { exact: true }).fill(password);
  await cloudPasswordModal(page).getByRole('button', { name: 'Go' }).click();
  await expectCloudPasswordNotice(page, notice);
}
