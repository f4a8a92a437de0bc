import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { sampleBillId, sampleFile } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { TracePage } from './pages/export-import-pages.ts';
import { AddDatasetPage, JobsPage, signUpWithDataset } from './pages/dataset-pages.ts';
import { FullBackupPreviewPanel, FullBackupsPage } from './pages/full-backup-pages.ts';
import { goodPassword, LoginPage, signOut, uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, screenshotsAtBothSizes } from './pages/painted.ts';
import { SOON, storedCounts, twoSyncingDevices } from './pages/sync-device.ts';

// A shared computer, one browser profile, two people (issue 38). Each account's work lives in a
// database of its own: the next person signed in sees none of the last one's, and signing out
// asks whether to keep the work on the device (locked) or remove it. The sign-in page tells what
// the device keeps, counts only, and clears it all.

test.describe.configure({ timeout: 180_000 });

/** Docket's device databases in this profile (the unowned `docket` and one per account). */
function docketDatabases(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await indexedDB.databases())
      .map(({ name }) => name ?? '')
      .filter((name) => name === 'docket' || /^docket-[0-9a-f]{32}$/.test(name))
      .sort(),
  );
}

/** The server's answers (/api) the browser's Cache Storage holds: none should outlive an account. */
function cachedApiAnswers(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        if (new URL(request.url).pathname.startsWith('/api')) urls.push(request.url);
      }
    }
    return urls;
  });
}

async function toMore(page: Page): Promise<void> {
  await page.goto('/tabs/more');
  await expectPainted(page.getByRole('button', { name: 'Sign out', exact: true }));
}

test('two people on one profile: each sees only their own work; sign-out keeps or removes it; the sign-in page clears it all', async ({
  page,
}) => {
  const login = new LoginPage(page);
  const tags = new BillTagsPage(page);
  const x = uniqueEmail();
  const y = uniqueEmail();

  await login.open();
  await expectScreenPainted(page);
  // A fresh device holds nothing: no notice.
  await expect(page.getByRole('heading', { name: 'This device holds Docket data' })).toHaveCount(0);

  // X works and signs out, keeping the work on the device.
  await login.open('/bill-tags');
  await login.createAccount(x, goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectScreenPainted(page);
  await tags.create('Whistleblower J.D.');
  await expectPainted(tags.row('Whistleblower J.D.'));
  // X's trace names X (the sign-in).
  const trace = new TracePage(page);
  await trace.open();
  await expect(trace.list().getByText(x)).not.toHaveCount(0);
  await toMore(page);
  await signOut(page, 'Keep on this device, locked');
  await expect(page).toHaveURL(/\/login/);
  const notice = page.getByRole('region', { name: 'This device holds Docket data' });
  await expectPainted(
    notice.getByText(
      'It keeps the work of 1 account, with 1 unsynced change, locked: only signing in to that account opens it.',
    ),
  );
  // Counts only: nothing of what X wrote is on the sign-in page.
  await expect(page.getByText(/Whistleblower/)).toHaveCount(0);
  expect(await docketDatabases(page)).toHaveLength(1);

  // Y signs in on the same profile: none of X's work is there, and Y's own goes into Y's store.
  await login.open('/bill-tags');
  await login.createAccount(y, goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectScreenPainted(page);
  await expectPainted(page.getByText('No tags yet', { exact: false }));
  await expect(page.getByText(/Whistleblower/)).toHaveCount(0);
  // Y's trace is Y's: nothing of X's in it.
  await trace.open();
  await expect(trace.list().getByText(y)).not.toHaveCount(0);
  await expect(trace.list().getByText(x)).toHaveCount(0);
  await tags.open();
  await expectScreenPainted(page);
  await tags.create('Budget');
  await expectPainted(tags.row('Budget'));
  expect(await storedCounts(page, ['tags', 'outbox'])).toEqual({ tags: 1, outbox: 1 });
  expect(await docketDatabases(page)).toHaveLength(2);

  // Y removes their work from the device, by keyboard, after reading what it costs: Y's
  // database is gone, X's stays.
  await toMore(page);
  await page.getByRole('button', { name: 'Sign out', exact: true }).focus();
  await page.keyboard.press('Enter');
  const ask = page.getByRole('alertdialog', { name: 'Sign out' });
  await expectPainted(ask.getByRole('button', { name: 'Keep on this device, locked' }));
  await screenshotsAtBothSizes(page, 'sign-out');
  await ask.getByRole('button', { name: 'Remove from this device' }).focus();
  await page.keyboard.press('Enter');
  const remove = page.getByRole('alertdialog', { name: 'Remove from this device?' });
  await expectPainted(
    remove.getByText(/1 tag, with the trace and drafts\. 1 change was never synced/),
  );
  await expectPainted(remove.getByRole('button', { name: 'Make a full backup first' }));
  await screenshotsAtBothSizes(page, 'sign-out-remove');
  await remove.getByRole('button', { name: 'Remove', exact: true }).focus();
  await page.keyboard.press('Enter');
  await login.waitForForm();
  await expectPainted(
    notice.getByText(
      'It keeps the work of 1 account, with 1 unsynced change, locked: only signing in to that account opens it.',
    ),
  );
  await expect.poll(() => docketDatabases(page)).toHaveLength(1);

  // X signs in again: X's tag, and nothing of Y's.
  await login.open('/bill-tags');
  await login.signIn(x, goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectPainted(tags.row('Whistleblower J.D.'));
  await expect(page.getByText('Budget', { exact: true })).toHaveCount(0);
  expect(await storedCounts(page, ['tags', 'outbox'])).toEqual({ tags: 1, outbox: 1 });

  // Signed out again (by the address, which keeps), the sign-in page clears everything, after
  // saying yes; pressing twice works.
  await page.goto('/logout');
  await login.waitForForm();
  await expectScreenPainted(page);
  await expectPainted(notice);
  await screenshotsAtBothSizes(page, 'login-notice');
  await expectPainted(notice.getByRole('button', { name: 'Clear this device' }));
  await notice.getByRole('button', { name: 'Clear this device' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Clear this device?' });
  await expectPainted(dialog.getByText(/the work of 1 account/));
  await expectPainted(dialog.getByText(/1 change was never synced and will be lost/));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The question leaves before it is asked again: a press during its closing animation would
  // open a second one beside it.
  await expect(dialog).toBeHidden();
  await expectPainted(notice);
  await notice.getByRole('button', { name: 'Clear this device' }).click();
  await dialog.getByRole('button', { name: 'Clear device' }).click();
  await expectPainted(page.getByRole('status').filter({ hasText: 'This device is cleared.' }));
  await expect(notice).toHaveCount(0);
  expect(await docketDatabases(page)).toEqual([]);
  await page.reload();
  await login.waitForForm();
  await expectScreenPainted(page);
  await expect(notice).toHaveCount(0);
});

test('work brought in signed out goes to the next account only if the box says so; the cache keeps no API answer', async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  const tags = new BillTagsPage(page);
  const backups = new FullBackupsPage(page);

  // X's tag leaves with X, in a full backup file; X's work is removed from the device.
  await signUpWithDataset(page, 'Library bills', [sampleFile('annotation-bill.csv')]);
  await new BillDetailsPage(page).openBill(sampleBillId, 'HB 4242');
  await new BillDetailsPage(page).addTag('Handed over', { create: true });
  await backups.open();
  await backups.create('For the next person');
  const download = await backups.download('For the next person');
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  await toMore(page);
  await signOut(page, 'Remove from this device');
  // What the browser's caches hold after a removal: the app's files, no answer of the server.
  expect(await cachedApiAnswers(page)).toEqual([]);

  // Signed out, the file is merged: data no account owns.
  await backups.open();
  await backups.pickFile(file);
  const preview = new FullBackupPreviewPanel(page, backups.fileSection());
  await preview.expectContents();
  await preview.merge();

  // The sign-in page asks whether it goes to the next account; Y says no.
  await login.open();
  const notice = page.getByRole('region', { name: 'This device holds Docket data' });
  await expectPainted(notice.getByText(/It holds data no account owns yet: .*1 tag/));
  const give = notice.getByRole('checkbox', {
    name: 'Give it to the next account that signs in here',
  });
  await expect(give).toBeChecked();
  await give.uncheck();
  await login.open('/bill-tags');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectPainted(page.getByText('No tags yet', { exact: false }));
  await toMore(page);
  await signOut(page, 'Keep on this device, locked');

  // Still nobody's; Z leaves the box ticked and gets it.
  await expect(give).toBeChecked();
  await login.open('/bill-tags');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL('/bill-tags', { timeout: 15_000 });
  await expectPainted(tags.row('Handed over'));
});

test('X’s other device receives nothing of what Y did on the shared laptop, and X’s laptop shows none of Y’s jobs', async ({
  browser,
}) => {
  // Two devices with a cloud password, and three password sign-ins (each makes or opens a vault
  // with Argon2id): longer than one device's tests.
  test.setTimeout(300_000);
  const {
    first: laptop,
    second: phone,
    email: x,
  } = await twoSyncingDevices(browser, 'a cloud password for the team laptop');
  const laptopTags = new BillTagsPage(laptop);
  const phoneTags = new BillTagsPage(phone);
  // X's own tag crosses to X's phone, so the phone is known to be receiving.
  await laptopTags.open();
  await laptopTags.create('Kept by X');
  await phoneTags.open();
  await expect(phoneTags.row('Kept by X')).toBeVisible(SOON);

  // X steps away, keeping the work locked; Y signs in on the laptop, tags and imports.
  await toMore(laptop);
  await signOut(laptop, 'Keep on this device, locked');
  const y = uniqueEmail();
  const login = new LoginPage(laptop);
  await login.open('/add-dataset');
  await login.createAccount(y, goodPassword);
  await expect(laptop).toHaveURL('/add-dataset', { timeout: 15_000 });
  await new AddDatasetPage(laptop).add('Y’s session', [sampleFile('annotation-bill.csv')]);
  await new JobsPage(laptop).expectStatus('Y’s session', 'Done');
  await laptopTags.open();
  await laptopTags.create('Only Y');
  await toMore(laptop);
  await signOut(laptop, 'Keep on this device, locked');

  // X is back on the laptop: X's tag, none of Y's, no job of Y's; X's laptop syncs.
  await login.open('/tabs/more');
  await login.signIn(x, goodPassword);
  await expect(laptop.getByText(/^Up to date\./)).toBeVisible(SOON);
  await laptopTags.open();
  await expectPainted(laptopTags.row('Kept by X'));
  await expect(laptopTags.row('Only Y')).toHaveCount(0);
  expect(await storedCounts(laptop, ['tags', 'jobs', 'datasets'])).toEqual({
    tags: 1,
    jobs: 0,
    datasets: 0,
  });
  await laptop.goto('/jobs');
  await expectScreenPainted(laptop);
  await expect(laptop.getByText(/Y’s session/)).toHaveCount(0);

  // X's phone, brought up to date, holds X's tag and nothing of Y's.
  await toMore(phone);
  await phone.getByRole('button', { name: 'Sync now', exact: true }).click();
  await expect(phone.getByText(/^Up to date\./)).toBeVisible(SOON);
  await phoneTags.open();
  await expectPainted(phoneTags.row('Kept by X'));
  await expect(phoneTags.row('Only Y')).toHaveCount(0);
  expect(await storedCounts(phone, ['tags', 'datasets'])).toEqual({ tags: 1, datasets: 0 });
});
