import { expect, test, type Page } from '@playwright/test';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';

async function registrations(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
}

async function signUp(page: Page): Promise<void> {
  const login = new LoginPage(page);
  await login.open();
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeVisible();
}

test('after one visit the app opens signed-in routes with the network off', async ({
  page,
  context,
}) => {
  // The page's clock is ours, so the 30 s wait before registering the worker can be skipped
  // over instead of slept through; time otherwise flows as usual.
  await page.clock.install();
  await signUp(page);

  // Count from a fresh load: the app is stable about a second after it (the guard's 500 ms).
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeVisible();
  await page.clock.fastForward(27_000);
  expect(await registrations(page)).toBe(0);
  await page.clock.fastForward(4_000);
  await expect.poll(() => registrations(page)).toBe(1);
  // Activated means the whole shell is precached; controller means it now serves this page.
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');

  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();
  await page.goto('/tabs/more');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeVisible();
  await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await context.setOffline(false);
});

test('when the connection returns the app goes to the root and reloads', async ({
  page,
  context,
}) => {
  await signUp(page);
  await page.goto('/tabs/more');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  await context.setOffline(true);
  await expect(page.getByText('Offline', { exact: true }).first()).toBeVisible();
  // A mark on this page's window: a reload wipes it.
  await page.evaluate(() => {
    (window as unknown as { beforeReconnect?: boolean }).beforeReconnect = true;
  });

  const reloaded = page.waitForEvent('load');
  await context.setOffline(false);
  await reloaded;
  await expect(page).toHaveURL(/\/tabs\/bills$/);
  expect(
    await page.evaluate(() => (window as unknown as { beforeReconnect?: boolean }).beforeReconnect),
  ).toBeUndefined();
  await expect(page.getByText('Offline', { exact: true })).toHaveCount(0);
});
