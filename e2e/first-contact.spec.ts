import { expect, test, type Page } from '@playwright/test';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted } from './pages/painted.ts';

// What a person sees in the first minute, at a phone's size and a laptop's: every way into the
// app ends on a screen that is painted, not one that sits in the DOM at opacity 0.

async function signUp(page: Page, email = uniqueEmail()): Promise<string> {
  const login = new LoginPage(page);
  await login.open();
  await login.createAccount(email, goodPassword);
  // Creating the account hashes the password on the server: allow it time on a busy machine.
  await expect(page).toHaveURL('/tabs/bills', { timeout: 15_000 });
  await expectBillsTabPainted(page);
  return email;
}

async function expectBillsTabPainted(page: Page): Promise<void> {
  await expectScreenPainted(page);
  await expectPainted(page.getByRole('tab', { name: 'Bills' }));
  await expectPainted(page.getByRole('tab', { name: 'More' }));
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'More' }).click();
  await expectPainted(page.getByRole('button', { name: 'Sign out' }));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await new LoginPage(page).waitForForm();
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the first screen after "Create account" is painted', async ({ page }) => {
      await signUp(page);
    });

    test('sign-out, then "Sign in" without a returnToLink, ends on the painted deck', async ({
      page,
    }) => {
      const email = await signUp(page);
      await signOut(page);
      await new LoginPage(page).signIn(email, goodPassword);
      await expect(page).toHaveURL('/tabs/bills');
      await expectBillsTabPainted(page);
    });

    test('"Sign in" with a returnToLink ends on that painted screen', async ({ page }) => {
      const email = await signUp(page);
      await signOut(page);
      await page.goto('/datasets');
      const login = new LoginPage(page);
      await login.waitForForm();
      await login.signIn(email, goodPassword);
      await expect(page).toHaveURL('/datasets');
      await expectScreenPainted(page, page.getByRole('heading', { level: 1, name: 'Datasets' }));
      // And on into the tabs from there: a root navigation after another one.
      await page.goto('/tabs/more');
      await expectPainted(page.getByRole('button', { name: 'Sign out' }));
    });

    test('when the connection returns, the reloaded root is painted', async ({ page, context }) => {
      await signUp(page);
      await page.getByRole('tab', { name: 'More' }).click();
      await expectPainted(page.getByRole('button', { name: 'Sign out' }));
      await context.setOffline(true);
      await expectPainted(page.getByText('Offline', { exact: true }).filter({ visible: true }));
      const reloaded = page.waitForEvent('load');
      await context.setOffline(false);
      await reloaded;
      await expect(page).toHaveURL('/tabs/bills');
      await expectBillsTabPainted(page);
    });
  });
}

test('a fresh visit to / signed out pays the "Authenticating" wait once, not again on /login', async ({
  page,
}) => {
  const started = Date.now();
  await page.goto('/');
  await expectPainted(page.getByText('Authenticating'));
  await new LoginPage(page).waitForForm();
  const elapsed = Date.now() - started;
  test.info().annotations.push({ type: 'form shown after (ms)', description: String(elapsed) });
  console.log(`Sign-in form painted ${elapsed} ms after a fresh visit to / (goal 4,600 ms)`);
  await expect(page).toHaveURL('/login?returnToLink=%2F');
  // The spec's 4 s on / and, before, another 4 s on /login: about 9 s. Once is about 4.2 s; the
  // bound leaves room for a busy machine and still fails on a second wait.
  expect(elapsed).toBeLessThan(7_500);
});

test('a fresh visit to /login shows the form at once, saying it is authenticating', async ({
  page,
}) => {
  const started = Date.now();
  await page.goto('/login');
  await new LoginPage(page).waitForForm();
  const elapsed = Date.now() - started;
  console.log(`Sign-in form painted ${elapsed} ms after a fresh visit to /login (goal 1,000 ms)`);
  // The guard still waits the spec's 4 s, saying so beside the form, then lets it be.
  await expectPainted(page.getByRole('status').filter({ hasText: 'Authenticating' }));
  expect(elapsed).toBeLessThan(3_500);
  await expect(page.getByText('Authenticating')).toBeHidden({ timeout: 6_000 });
  await expect(page).toHaveURL('/login');
});
