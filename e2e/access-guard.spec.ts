import { expect, test } from './fixtures.ts';
import { LoginPage } from './pages/login-page.ts';
import { authenticatingTimes, recordAuthenticating } from './pages/authenticating.ts';
import { isPainted } from './pages/painted.ts';
import { guardedRoutes, openRoutes } from './routes.ts';

test.describe('signed out', () => {
  for (const path of guardedRoutes) {
    test(`${path} sends the visitor to sign in, remembering where they were going`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page).toHaveURL(`/login?returnToLink=${encodeURIComponent(path)}`);
      await new LoginPage(page).waitForForm();
    });
  }

  test('the empty path shows "Authenticating" for a while, then asks to sign in', async ({
    page,
  }) => {
    await recordAuthenticating(page);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?returnToLink=%2F/, { timeout: 15_000 });
    await new LoginPage(page).waitForForm();
    const { shown, gone } = await authenticatingTimes(page);
    // Still authenticating well after the ordinary 500 ms guard delay (by the page's own clock:
    // on a busy machine the first paint may come late, and timers run late, never early).
    expect(gone - shown).toBeGreaterThan(1_500);
  });

  test('/login shows "Authenticating" beside the form while the guard waits', async ({ page }) => {
    await recordAuthenticating(page);
    await page.goto('/login');
    // The page's own record: the status came and went (a status not yet painted when the test
    // first looks has not gone).
    const { shown, gone, withForm } = await authenticatingTimes(page);
    await expect(page.getByRole('status').filter({ hasText: 'Authenticating' })).toHaveCount(0);
    await expect(page).toHaveURL('/login');
    expect(await isPainted(page.getByRole('button', { name: 'Sign in' }))).toBe(true);
    // Both at once: the form does not wait for the guard.
    expect(withForm).toBe(true);
    // Well past the ordinary 500 ms guard delay: the spec's 4000 ms on /login.
    expect(gone - shown).toBeGreaterThan(3_500);
  });

  for (const { path, heading } of openRoutes) {
    test(`${path} opens without signing in`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForTimeout(700); // past the guard delay: nothing sends us away
      await expect(page).toHaveURL(path);
    });
  }

  test('an unknown terms viewer gets a clear not-found message', async ({ page }) => {
    await page.goto('/terms-of-service/fax-machine');
    await expect(page.getByText(/no terms for this viewer/i)).toBeVisible();
  });

  test('/logout opens signed out and ends on /login', async ({ page }) => {
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login/);
    await new LoginPage(page).waitForForm();
  });

  test('an unknown page says so', async ({ page }) => {
    await page.goto('/no-such-screen');
    await expect(page.getByRole('heading', { level: 1, name: /page not found/i })).toBeVisible();
  });
});
