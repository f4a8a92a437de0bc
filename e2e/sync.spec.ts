import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { deckSample } from './pages/deck-page.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, isPainted } from './pages/painted.ts';
import { FullBackupsPage } from './pages/full-backup-pages.ts';
import {
  AddDatasetPage,
  DatasetsPage,
  fixtureFiles,
  fixturesRoot,
  JobsPage,
  storedBills,
} from './pages/dataset-pages.ts';
import {
  cloudPasswordModal,
  expectCloudPasswordNotice,
  signedInDevice,
  SOON,
  submitCloudPassword,
  twoSyncingDevices,
  typeCloudPassword,
} from './pages/sync-device.ts';

// Two devices of one user (two browser contexts, each with its own IndexedDB) syncing through
// the real server: what one makes appears on the other within seconds (the server's nudge), an
// edit made offline arrives after the connection returns, and a password changed on one device
// makes the other ask for it while keeping what it has not yet synced.

const cloudPassword = 'tulip lantern 42 river';

function header(page: Page) {
  return page.locator('ion-header').last();
}

/** Every file of the test server's embedded database, as one Latin-1 text, to search. */
function databaseText(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (dir === undefined) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it).');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) =>
    entry.isFile(),
  );
  return files
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

test('a tag made on one device appears on the other; an offline edit arrives on reconnect', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { first, second, email } = await twoSyncingDevices(browser, cloudPassword);
  const firstTags = new BillTagsPage(first);
  const secondTags = new BillTagsPage(second);
  await firstTags.open();
  await secondTags.open();
  await expect(header(first)).toContainText(/Synced \d/, SOON);

  await firstTags.create('Housing');
  await expect(firstTags.row('Housing')).toBeVisible();
  // No reload, no button: the server's nudge brings it.
  await expect(secondTags.row('Housing')).toBeVisible(SOON);

  // The second device goes offline and keeps working.
  await second.context().setOffline(true);
  await expect(header(second).getByText('Offline')).toBeVisible();
  await secondTags.create('Schools');
  await expect(secondTags.row('Schools')).toBeVisible();
  await firstTags.rename('Housing', 'Homes');
  await expect(secondTags.row('Homes')).toHaveCount(0);

  // Back online: the app reloads (spec §4), syncs, and both devices hold both edits.
  await second.context().setOffline(false);
  await expect(firstTags.row('Schools')).toBeVisible(SOON);
  await secondTags.open();
  await expect(secondTags.row('Homes')).toBeVisible(SOON);
  await expect(secondTags.row('Schools')).toBeVisible();

  // The server's database files hold the account's e-mail (so the scan reads what was written)
  // and none of the names the user typed.
  const stored = databaseText();
  expect(stored).toContain(email);
  for (const secret of ['Housing', 'Schools', 'Homes']) expect(stored).not.toContain(secret);
});

test('a password changed on one device: the other asks for it and keeps its unsynced edits', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { first, second } = await twoSyncingDevices(browser, cloudPassword);

  await submitCloudPassword(
    first,
    'Change cloud password',
    'a brand new one',
    'The cloud password is changed.',
  );
  // The second device learns of the change (a nudge) and stops to ask.
  await expect(second.getByText('Enter your cloud password to sync this device.')).toBeVisible(
    SOON,
  );
  await expect(header(second).getByRole('link', { name: 'Password needed' })).toBeVisible();

  const secondTags = new BillTagsPage(second);
  await secondTags.open();
  await secondTags.create('Water');
  await expect(header(second)).toContainText('Password needed');

  await second.goto('/tabs/more');
  await submitCloudPassword(
    second,
    'Enter your cloud password',
    'a brand new one',
    'This device now has the cloud password.',
  );
  await expect(second.getByText(/^Up to date\./)).toBeVisible(SOON);

  const firstTags = new BillTagsPage(first);
  await firstTags.open();
  await expect(firstTags.row('Water')).toBeVisible(SOON);
});

test('a reset on a device without the password: the other saves a full backup, then takes its data', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const { first, second } = await twoSyncingDevices(browser, cloudPassword);
  // The first device changes the password; the second never learns it.
  await submitCloudPassword(
    first,
    'Change cloud password',
    'only the first knows',
    'The cloud password is changed.',
  );
  const firstTags = new BillTagsPage(first);
  await firstTags.open();
  await firstTags.create('Only on the first');
  await expect(header(first)).toContainText(/Synced \d/, SOON);

  const secondTags = new BillTagsPage(second);
  await secondTags.open();
  await secondTags.create('Made on the second');
  await expect(header(second).getByRole('link', { name: 'Password needed' })).toBeVisible(SOON);

  // The second device resets: spec §2's reset view, then Confirm.
  await second.goto('/tabs/more');
  await second.getByRole('button', { name: 'Cloud password', exact: true }).click();
  const modal = cloudPasswordModal(second);
  await modal.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(modal.getByText('Reset cloud password', { exact: true })).toBeVisible();
  // It says what the reset would cost: the first device's tag never reached the second.
  await expect(
    modal.getByText(
      /^[1-9][\d,]* batch(?:es)? of changes synced by (?:your other devices|another of your devices) ha(?:ve|s) not reached this device\. A reset takes/,
    ),
  ).toBeVisible(SOON);
  await typeCloudPassword(second, 'a fresh start');
  await modal.getByRole('button', { name: 'Reset password' }).click();
  await second.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expectCloudPasswordNotice(second, 'The cloud password is reset.');
  await expect(second.getByText(/^Up to date\./)).toBeVisible(SOON);

  // The first device asks for the new password, then reverts and says where its data went.
  await expect(header(first).getByRole('link', { name: 'Password needed' })).toBeVisible(SOON);
  await first.goto('/tabs/more');
  await submitCloudPassword(
    first,
    'Enter your cloud password',
    'a fresh start',
    'This device now has the cloud password.',
  );
  // The revert's notice waits for the cloud password's answer to close and for the run to end,
  // then says where the first device's own data went and what the new data lacks of it.
  const notice = first.getByRole('alertdialog', { name: 'Sync' });
  await expect(notice).toContainText(
    'saved as the full backup "Before the cloud password reset',
    SOON,
  );
  await expect(notice).toContainText('the new data lacks 1 tag.');
  // "Bring back my changes" is the default: the first button.
  const bringBack = notice.getByRole('button', { name: 'Bring back my changes' });
  await expect(notice.getByRole('button').first()).toHaveText(/Bring back my changes/i);
  await bringBack.click();
  const back = first.getByRole('alertdialog', { name: 'Sync' });
  await expect(back).toContainText('Your changes are back: 1 tag.', SOON);
  await back.getByRole('button', { name: 'OK' }).click();

  // Both devices hold both tags: the reset device's, and the work the first brought back.
  await firstTags.open();
  await expect(firstTags.row('Made on the second')).toBeVisible(SOON);
  await expect(firstTags.row('Only on the first')).toBeVisible();
  await secondTags.open();
  await expect(secondTags.row('Only on the first')).toBeVisible(SOON);
  await expect(secondTags.row('Made on the second')).toBeVisible();

  // The backup the revert saved stays; merging it again would change nothing.
  const backups = new FullBackupsPage(first);
  await backups.open();
  const saved = backups
    .list()
    .getByRole('listitem')
    .filter({
      has: first.getByRole('heading', { name: /^Before the cloud password reset/ }),
    });
  await saved.getByRole('button', { name: 'Restore', exact: true }).click();
  const preview = first.getByRole('region', { name: 'What this full backup holds' });
  await expect(preview).toContainText('Merge changes nothing', SOON);
  await expect(preview.getByRole('button', { name: 'Merge', exact: true })).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Replace', exact: true })).toBeVisible();
});

test('a dataset imported on one device is rebuilt on the other from its synced files', async ({
  browser,
}) => {
  test.skip(fixturesRoot === null, '../shared/fixtures is absent');
  test.setTimeout(300_000);
  const { first, second } = await twoSyncingDevices(browser, cloudPassword);
  const files = fixtureFiles('billstatus-xml-116/116/bills/sjres');

  await first.goto('/add-dataset');
  await new AddDatasetPage(first).add('Joint resolutions', files);
  await new JobsPage(first).expectStatus('Joint resolutions', 'Done');

  // The second device gets the definition and the files (a nudge), then imports them itself.
  const datasets = new DatasetsPage(second);
  await datasets.open();
  const arrived = datasets.dataset('Joint resolutions');
  await expect(arrived).toBeVisible(SOON);
  await expect(arrived.getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(arrived.getByText(`${files.length} files`)).toBeVisible();
  expect((await storedBills(second)).sort()).toEqual((await storedBills(first)).sort());

  // On the server the files are ciphertext: no title of the set appears in its database.
  const stored = databaseText();
  expect(stored).not.toContain('Joint resolutions');
  expect(stored).not.toContain('<billStatus>');
});

test('one Why written on two devices at once: the replaced words stay in the bill’s History', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { first, second } = await twoSyncingDevices(browser, cloudPassword);
  await first.goto('/add-dataset');
  await new AddDatasetPage(first).add('California sample', [deckSample('deck-small.csv')]);
  await new JobsPage(first).expectStatus('California sample', 'Done');
  const datasets = new DatasetsPage(second);
  await datasets.open();
  await expect(
    datasets.dataset('California sample').getByText('Ready', { exact: true }),
  ).toBeVisible({ timeout: 60_000 });

  const bill = 'us-ca/2025-2026/ab-1';
  const onFirst = new BillDetailsPage(first);
  const onSecond = new BillDetailsPage(second);
  await onSecond.openBill(bill, 'AB 1');
  // The second device writes offline, a moment after the first: its words are the newer.
  await second.context().setOffline(true);
  await onFirst.openBill(bill, 'AB 1');
  await onFirst.position('Support').check();
  await onFirst.why().fill('Jobs for the district');
  await expectPainted(onFirst.reasonSaved());
  await expect(header(first)).toContainText(/Synced \d/, SOON);
  await onSecond.position('Support').check();
  await onSecond.why().fill('Costs too much');
  await expectPainted(onSecond.reasonSaved());
  await second.context().setOffline(false);

  // The first device takes the newer words and keeps its own in History, and says so.
  await expect(onFirst.why()).toHaveValue('Costs too much', SOON);
  await expect(first.getByText(/^Changed on another device/)).toBeVisible();
  const history = onFirst.section('History');
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem')).toContainText(
    'Why: “Jobs for the district” became “Costs too much”',
  );
  await expectPainted(history.getByRole('listitem'));
  // The entry syncs: the second device shows it too, with no notice (its words won).
  await onSecond.openBill(bill, 'AB 1');
  await expect(onSecond.section('History').getByRole('listitem')).toContainText(
    '“Jobs for the district” became “Costs too much”',
    SOON,
  );
  await expect(second.getByText(/^Changed on another device/)).toHaveCount(0);
  // Once the bill was opened, the first device no longer says it changed.
  await first.goto('/tabs/tracked');
  await onFirst.openBill(bill, 'AB 1');
  await expect(onFirst.section('History').getByRole('listitem')).toHaveCount(1);
  await expect(first.getByText(/^Changed on another device/)).toHaveCount(0);
});

test('after signing out, the sign-in page shows no sync error', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, uniqueEmail(), true);
  await expectScreenPainted(page);
  await expect(page.getByText('Set a cloud password to start syncing.')).toBeVisible(SOON);
  await page.getByRole('button', { name: 'Sign out' }).click();
  const signIn = page.getByRole('button', { name: 'Sign in' });
  await expectScreenPainted(page, signIn);
  // Whatever the sync in flight met when the session ended, it is not news on this page.
  for (let second = 0; second < 5; second++) {
    await page.waitForTimeout(1_000);
    expect(await isPainted(page.getByText('Sync error', { exact: true }))).toBe(false);
  }
  await expect(page.getByText('Sync error', { exact: true })).toHaveCount(0);
});

test('a user the server could not confirm is still signed in, and syncs once it answers', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, uniqueEmail(), true);
  await expectScreenPainted(page);
  // The server cannot be reached to check the session, as after a reload without a connection.
  await page.route('**/api/auth/get-session*', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expectScreenPainted(page);
  await expectPainted(page.getByText(/^Signed in as reader-/));
  await expectPainted(page.getByText(/^Signed in on this device; waiting for the Docket server/));
  await expect(page.getByText(/^Sign in to sync/)).toHaveCount(0);
  const syncNow = page.getByRole('button', { name: 'Sync now' });
  await expect(syncNow).toBeEnabled();

  // The server answers again: the session is checked within seconds, not 45.
  const back = Date.now();
  await page.unroute('**/api/auth/get-session*');
  await expectPainted(page.getByText('Set a cloud password to start syncing.'), 15_000);
  expect(Date.now() - back).toBeLessThan(15_000);
  await expect(page.getByText(/^Signed in on this device; waiting/)).toHaveCount(0);
});
