import { expect, test } from './fixtures.ts';
import {
  goodPassword,
  LoginPage,
  signOut,
  storedAuthRecord,
  uniqueEmail,
} from './pages/login-page.ts';

test('create an account from a guarded route, land there, sign out, sign back in', async ({
  page,
}) => {
  const email = uniqueEmail();
  const login = new LoginPage(page);

  await page.goto('/datasets');
  await expect(page).toHaveURL('/login?returnToLink=%2Fdatasets');
  await login.waitForForm();
  await login.createAccount(email, goodPassword);

  await expect(page).toHaveURL('/datasets');
  await expect(page.getByRole('heading', { level: 1, name: 'Datasets' })).toBeVisible();
  await expect.poll(() => storedAuthRecord(page)).toEqual({ email });

  // The returnToLink became the new root: going back does not return to the login form.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto('/tabs/more');
  await signOut(page);
  await expect(page).toHaveURL(/\/login/);
  await expect.poll(() => storedAuthRecord(page)).toBeNull();

  // Signed out for real: a guarded route asks to sign in again.
  await page.goto('/jobs');
  await expect(page).toHaveURL('/login?returnToLink=%2Fjobs');
  await login.waitForForm();
  await login.signIn(email, goodPassword);
  await expect(page).toHaveURL('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
});

test('a wrong password is refused with a message and nothing is stored', async ({ page }) => {
  const email = uniqueEmail();
  const login = new LoginPage(page);
  await login.open();
  await login.createAccount(email, goodPassword);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/logout');
  await login.waitForForm();

  // By keyboard: the button is disabled while the sign-in runs, and gets focus back after the
  // refusal instead of leaving it on the page's body.
  await login.fill(email, 'not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText(/invalid|incorrect|wrong/i);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await expect(page).toHaveURL(/\/login/);
  expect(await storedAuthRecord(page)).toBeNull();
});

test('a signed-in visitor opening /login with a returnToLink is sent there', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto(`/login?returnToLink=${encodeURIComponent('/bill-details?id=us-119-hr-7')}`);
  await expect(page).toHaveURL('/bill-details?id=us-119-hr-7');
});

test('a returnToLink that points off-site is not followed', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open('//evil.example/steal');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\//);
  await expect(page).not.toHaveURL(/evil/);
});

test('the signed-in terms page records acceptance', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open('/terms-of-service');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL('/terms-of-service');
  await expect(page.getByText(/not accepted/i)).toBeVisible();
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(/you accepted version/i)).toBeVisible();
  // Said to a screen reader too, as a polite status.
  await expect(page.getByRole('status').filter({ hasText: 'Terms accepted.' })).toBeVisible();
  await page.reload();
  await expect(page.getByText(/you accepted version/i)).toBeVisible();
});
