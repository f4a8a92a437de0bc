import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import {
  AddDatasetPage,
  fixtureFiles,
  fixturesRoot,
  JobsPage,
  signUpWithDataset,
} from './pages/dataset-pages.ts';
import { FullBackupPreviewPanel, FullBackupsPage } from './pages/full-backup-pages.ts';
import { goodPassword, LoginPage, signOut, uniqueEmail } from './pages/login-page.ts';

// Full backups: one file of the whole device, made, downloaded, previewed and restored, with a
// passphrase; the same screens open to a visitor who is not signed in; and a device rescued
// signed out: its file downloaded, the site's storage cleared, the file restored.

const bill = 'us/116/sjres-68';
const identifier = 'S.J.Res. 68';
const passphrase = 'a long passphrase for the trip';
const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';

/** Deletes every IndexedDB database of the site, as clearing its storage does, then reloads. */
async function clearSiteStorage(page: Page): Promise<void> {
  await page.evaluate(async () => {
    window.localStorage.clear();
    const databases = await indexedDB.databases();
    await Promise.all(
      databases.map(
        ({ name }) =>
          new Promise<void>((resolve, reject) => {
            if (name === undefined) {
              resolve();
              return;
            }
            // The app's connections close when asked (Dexie does on versionchange); "blocked"
            // only means they have not yet, and success follows once they have.
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = () => {
              resolve();
            };
            request.onerror = () => {
              reject(request.error ?? new Error(`Could not delete ${name}`));
            };
          }),
      ),
    );
  });
  await page.reload();
}

async function signUpAndImport(page: Page): Promise<void> {
  await signUpWithDataset(
    page,
    'S.J.Res. 68',
    fixtureFiles('congress-json/116/bills/sjres/sjres68'),
  );
}

test.describe('with a congress-json fixture', () => {
  test.skip(fixturesRoot === null, '../shared/fixtures is absent');

  test('an encrypted full backup is downloaded and restored from the file', async ({
    page,
  }, testInfo) => {
    test.setTimeout(300_000);
    await signUpAndImport(page);
    const details = new BillDetailsPage(page);
    await details.openBill(bill, identifier);
    await details.addTag('Rescue me', { create: true });

    const backups = new FullBackupsPage(page);
    await backups.open();
    await backups.create('Before the trip', passphrase);
    await expect(backups.backup('Before the trip')).toContainText('Yes, encrypted');
    const download = await backups.download('Before the trip');
    expect(download.suggestedFilename()).toMatch(
      /^docket-full-backup-\d{4}-\d{2}-\d{2}\.docket-backup$/,
    );
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    expect(statSync(file).size).toBeGreaterThan(1000);

    // The tag goes; the file brings it back.
    const tags = new BillTagsPage(page);
    await tags.open();
    await tags.row('Rescue me').getByRole('button', { name: 'Delete', exact: true }).click();
    await tags.row('Rescue me').getByRole('button', { name: 'Delete tag', exact: true }).click();
    await expect(page.getByText('No tags yet.')).toBeVisible();

    await backups.open();
    await backups.pickFile(file);
    const preview = new FullBackupPreviewPanel(page, backups.fileSection());
    await expect(preview.passphrase()).toBeVisible({ timeout: 30_000 });
    await preview.open('not the passphrase');
    await expect(preview.alert()).toHaveText(
      'That passphrase does not open this full backup. Check it and try again.',
      { timeout: 90_000 },
    );
    await preview.open(passphrase);
    await preview.expectContents();
    await expect(preview.contents()).toContainText('1 tag');
    await expect(preview.contents()).toContainText('1 dataset file');
    await expect(backups.fileSection()).toContainText('S.J.Res. 68');
    expect(await preview.seriousAccessibilityViolations()).toEqual([]);
    await preview.restore();
    // What was there before the restore is kept as a backup of its own.
    await expect(backups.list().getByRole('heading', { name: /^Before restoring/ })).toBeVisible();

    await details.openBill(bill, identifier);
    await expect(details.tagsOnBill().getByText('Rescue me', { exact: true })).toBeVisible();

    // Both jobs are on the jobs screen, with their kind and what they worked on.
    await page.goto('/jobs');
    const job = (name: string | RegExp) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(job('Full backup: Before the trip')).toContainText('Done', { timeout: 15_000 });
    await expect(job(/^Restore of a full backup: docket-full-backup-/)).toContainText('Done');
  });
});

test('signed out, a full backup is made, previewed and its file refused when it is not one', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const backups = new FullBackupsPage(page);
  await backups.open();
  await backups.create('<img src=x onerror=window.__pwned=1> نسخة');
  const item = backups.backup('<img src=x onerror=window.__pwned=1> نسخة');
  await expect(item).toContainText('None, not encrypted');

  await item.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page).toHaveURL(/\/full-backup-preview\//);
  await expect(page.getByRole('heading', { name: 'What this full backup holds' })).toBeVisible({
    timeout: 60_000,
  });
  const preview = new FullBackupPreviewPanel(
    page,
    page.getByRole('region', { name: 'What this full backup holds' }),
  );
  await expect(page.getByText('This device', { exact: true })).toBeVisible();
  expect(await preview.seriousAccessibilityViolations()).toEqual([]);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await preview.restore();

  await backups.open();
  const notABackup = testInfo.outputPath('notes.docket-backup');
  writeFileSync(notABackup, 'just some notes');
  await backups.pickFile(notABackup);
  await expect(backups.fileSection().getByRole('alert')).toHaveText(
    'This file is not a Docket full backup. Nothing was changed.',
    { timeout: 30_000 },
  );

  // The restore saved the device first: that backup is listed beside the one restored.
  await expect(backups.list().getByRole('heading', { name: /^Before restoring/ })).toBeVisible();
  const hostileItem = backups.backup('<img src=x onerror=window.__pwned=1> نسخة');
  await hostileItem.getByRole('button', { name: 'Delete', exact: true }).click();
  await hostileItem.getByRole('button', { name: 'Delete full backup', exact: true }).click();
  await expect(hostileItem).toHaveCount(0);
  await expect(backups.list().getByRole('listitem')).toHaveCount(1);
});

test('a device is rescued: its full backup downloaded, storage cleared, the file restored signed out and taken by the next sign-in', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const email = uniqueEmail();
  const login = new LoginPage(page);
  await login.open('/add-dataset');
  await login.createAccount(email, goodPassword);
  await expect(page).toHaveURL('/add-dataset', { timeout: 15_000 });
  await new AddDatasetPage(page).add('Tenant bills', [sample]);
  await new JobsPage(page).expectStatus('Tenant bills', 'Done');
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag('Rescue me', { create: true });
  await details.position('Oppose').check();
  await expect(details.position('Oppose')).toBeChecked();
  // The radio shows the choice at once; the toast says it is stored. Leaving by a page load
  // before that can abort the write (a clean-clone run's backup once held no position).
  await expect(details.toast('Position set to Oppose.')).toBeVisible({ timeout: 15_000 });

  // A full backup of it is made, and the account signs out keeping its work on the device.
  const backups = new FullBackupsPage(page);
  await backups.open();
  await backups.create('Rescue');
  const download = await backups.download('Rescue');
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  await page.goto('/tabs/more');
  await signOut(page);

  // The site's storage cleared: nothing is left on the device, not even the backup.
  await clearSiteStorage(page);
  await backups.open();
  await expect(page.getByText('No full backups on this device yet.')).toBeVisible();

  await backups.pickFile(file);
  const preview = new FullBackupPreviewPanel(page, backups.fileSection());
  await preview.expectContents();
  await expect(preview.contents()).toContainText('2 bills');
  await expect(preview.contents()).toContainText('1 tag');
  await expect(preview.contents()).toContainText('1 tag on a bill');
  await expect(preview.contents()).toContainText('1 position');
  await expect(preview.contents()).toContainText('1 dataset');
  await preview.restore();

  // Back in, the bill is there with its tag and position, as the backup held them. (No cloud
  // password was set, so nothing came from the server.)
  await login.open('/tabs/more');
  await login.signIn(email, goodPassword);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 15_000 });
  await details.openBill(tenantBill, 'HB 4242');
  await expect(details.tagsOnBill().getByText('Rescue me', { exact: true })).toBeVisible();
  await expect(details.position('Oppose')).toBeChecked();
});
