import { expect, test } from './fixtures.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted } from './pages/painted.ts';

// A shared computer: after sign-out the device still holds the last account's work. The sign-in
// page says so, with a way to keep it (a full backup) or to clear it.

test.describe.configure({ timeout: 120_000 });

test('after sign-out the sign-in page tells of the last account’s data, and clears it', async ({
  page,
}) => {
  const login = new LoginPage(page);
  await login.open();
  await expectScreenPainted(page);
  // A fresh device holds nothing: no line.
  await expect(page.getByRole('heading', { name: /still holds/ })).toHaveCount(0);

  await login.open('/bill-tags');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectScreenPainted(page);
  const tags = new BillTagsPage(page);
  await tags.create('Housing');
  await expectPainted(tags.row('Housing'));

  await page.goto('/logout');
  await login.waitForForm();
  await expect(page).toHaveURL(/\/login/);
  await expectScreenPainted(page);
  const notice = page.getByRole('region', {
    name: 'This device still holds the last account’s data',
  });
  await expectPainted(notice);
  await expectPainted(notice.getByText(/^It holds 1 tag, with 1 unsynced change\./));
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: test.info().outputPath(`login-notice-${String(size.width)}.png`),
    });
  }

  // Keep it: the full backup page, open without signing in.
  await notice.getByRole('link', { name: 'make a full backup' }).click();
  await expect(page).toHaveURL('/add-full-backup');
  await expectScreenPainted(page);
  await page.goBack();
  await expect(page).toHaveURL(/\/login/);
  await expectScreenPainted(page);

  // Clear it, after saying yes.
  await expectPainted(notice.getByRole('button', { name: 'Clear this device' }));
  await notice.getByRole('button', { name: 'Clear this device' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Clear this device?' });
  await expectPainted(dialog.getByText(/1 change was never synced and will be lost/));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expectPainted(notice);
  await notice.getByRole('button', { name: 'Clear this device' }).click();
  await page
    .getByRole('alertdialog', { name: 'Clear this device?' })
    .getByRole('button', { name: 'Clear device' })
    .click();
  await expectPainted(page.getByRole('status').filter({ hasText: 'This device is cleared.' }));
  await expect(notice).toHaveCount(0);
  await page.reload();
  await login.waitForForm();
  await expectScreenPainted(page);
  await expect(notice).toHaveCount(0);
});
