import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signUpAt } from './pages/login-page.ts';

async function registrations(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
}

/**
 * Chromium 150 loses the emulated offline state of `navigator.onLine` when a new page's first
 * navigation moves it to another renderer process (the network stays off: requests fail with
 * ERR_INTERNET_DISCONNECTED, yet `navigator.onLine` says true and no event fires). A device
 * without a connection says false, so the page is told what the emulation fails to tell it.
 */
async function reportOffline(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
  });
}

test('after one visit the app opens signed-in routes with the network off', async ({
  page,
  context,
}) => {
  // The page's clock is ours, so the 30 s wait before registering the worker can be skipped
  // over instead of slept through; time otherwise flows as usual.
  await page.clock.install();
  await signUpAt(page);
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeVisible();

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
  // Each load below is in a page of its own, the way a person opens the app again later. A page
  // already open is closed first: with DevTools' emulated offline, a navigation started from a
  // page can fire a stray "online" event in the document it leaves, and the app (rightly) answers
  // that by going to the root and reloading, which would race the navigation under test.
  await page.close();
  for (const [path, shows] of [
    ['/tabs/more', (p: Page) => p.getByRole('button', { name: 'Sign out' })],
    ['/tabs/bills', (p: Page) => p.getByRole('tab', { name: 'Bills' })],
    ['/jobs', (p: Page) => p.getByRole('heading', { level: 1, name: 'Jobs' })],
  ] as const) {
    const offlinePage = await context.newPage();
    await reportOffline(offlinePage);
    await offlinePage.goto(path);
    await expect(shows(offlinePage)).toBeVisible();
    // The network really is off: the server cannot be reached, the service worker served all.
    expect(
      await offlinePage.evaluate(() =>
        fetch('/api/health').then(
          () => 'reached',
          () => 'refused',
        ),
      ),
    ).toBe('refused');
    await expect(offlinePage.getByText('Offline', { exact: true }).first()).toBeVisible();
    await expect(offlinePage).toHaveURL(path);
    await offlinePage.close();
  }
  // The network stays off: turning it back on would start the app's reconnect (navigate, reload)
  // while the context is being closed.
});

test('when the connection returns the app goes to the root and reloads', async ({
  page,
  context,
}) => {
  await signUpAt(page);
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeVisible();
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
