import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { goodPassword, LoginPage, signOut, signUpAt } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted } from './pages/painted.ts';
import { authenticatingTimes, recordAuthenticating } from './pages/authenticating.ts';

// What a person sees in the first minute, at a phone's size and a laptop's: every way into the
// app ends on a screen that is painted, not one that sits in the DOM at opacity 0.

async function signUp(page: Page): Promise<string> {
  const email = await signUpAt(page);
  await expectBillsTabPainted(page);
  return email;
}

async function expectBillsTabPainted(page: Page): Promise<void> {
  await expectScreenPainted(page);
  await expectPainted(page.getByRole('tab', { name: 'Bills' }));
  await expectPainted(page.getByRole('tab', { name: 'More' }));
}

async function signOutOf(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'More' }).click();
  await expectPainted(page.getByRole('button', { name: 'Sign out' }));
  await signOut(page);
  await expect(page).toHaveURL(/\/login/);
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
      await signOutOf(page);
      await new LoginPage(page).signIn(email, goodPassword);
      // The server checks the password with a deliberately slow hash: on a busy machine, seconds.
      await expect(page).toHaveURL('/tabs/bills', { timeout: 15_000 });
      await expectBillsTabPainted(page);
    });

    test('"Sign in" with a returnToLink ends on that painted screen', async ({ page }) => {
      const email = await signUp(page);
      await signOutOf(page);
      await page.goto('/datasets');
      const login = new LoginPage(page);
      await login.waitForForm();
      await login.signIn(email, goodPassword);
      await expect(page).toHaveURL('/datasets', { timeout: 15_000 });
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
  await recordAuthenticating(page);
  await page.goto('/');
  await expect(page).toHaveURL('/login?returnToLink=%2F', { timeout: 15_000 });
  // The guard sent us here after waiting on /: the form is there, without a second wait.
  await new LoginPage(page).waitForForm();
  await expect(page.getByText('Authenticating')).toHaveCount(0);
  // It was there on / (the page's own record), and is not again on /login.
  await authenticatingTimes(page);
  // A figure, not a bound: the goal is 4,600 ms, the spec's 4,000 plus loading the app.
  console.log(`Sign-in form painted ${Date.now() - started} ms after a fresh visit to /`);
});

test('a fresh visit to /login shows the form at once, and what is typed during the wait stays', async ({
  page,
}) => {
  // The server's Permissions-Policy names only features Chromium knows (an unknown name is a
  // warning on every page).
  const policyWarnings: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Permissions-Policy')) policyWarnings.push(message.text());
  });
  await recordAuthenticating(page);
  const started = Date.now();
  await page.goto('/login');
  const login = new LoginPage(page);
  await login.waitForForm();
  console.log(`Sign-in form painted ${Date.now() - started} ms after a fresh visit to /login`);
  // The guard still waits the spec's 4 s, saying so beside the form that is already usable.
  await login.fill('someone@example.test', 'typed while waiting');
  // It came beside the form and went, by the page's own record (a busy machine may paint it late).
  expect((await authenticatingTimes(page)).withForm).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'Authenticating' })).toHaveCount(0);
  await expect(login.email()).toHaveValue('someone@example.test');
  await expect(login.password()).toHaveValue('typed while waiting');
  await expect(page).toHaveURL('/login');
  expect(policyWarnings).toEqual([]);
});
