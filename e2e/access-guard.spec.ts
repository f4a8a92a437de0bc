import { expect, test } from './fixtures.ts';
import { LoginPage } from './pages/login-page.ts';
import { expectPainted, isPainted } from './pages/painted.ts';
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
    await page.goto('/');
    await expect(page.getByText('Authenticating')).toBeVisible();
    // Still authenticating well after the ordinary 500 ms guard delay.
    await page.waitForTimeout(1_500);
    await expect(page.getByText('Authenticating')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?returnToLink=%2F/, { timeout: 10_000 });
    await new LoginPage(page).waitForForm();
  });

  test('/login shows "Authenticating" beside the form while the guard waits', async ({ page }) => {
    await page.goto('/login');
    const authenticating = page.getByRole('status').filter({ hasText: 'Authenticating' });
    // Both at once: the form does not wait for the guard.
    await expectPainted(authenticating);
    expect(await isPainted(page.getByRole('button', { name: 'Sign in' }))).toBe(true);
    // Still authenticating past the ordinary 500 ms guard delay (the spec's 4000 ms on /login).
    await page.waitForTimeout(1_000);
    await expect(authenticating).toBeVisible();
    await expect(authenticating).toHaveCount(0, { timeout: 8_000 });
    await expect(page).toHaveURL('/login');
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
