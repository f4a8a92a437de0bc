import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { deckSample } from './pages/deck-page.ts';
import { signOut, uniqueEmail } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, isPainted } from './pages/painted.ts';
import { FullBackupPreviewPanel, FullBackupsPage } from './pages/full-backup-pages.ts';
import {
  AddDatasetPage,
  DatasetsPage,
  fixtureFiles,
  fixturesRoot,
  JobsPage,
  storedBills,
} from './pages/dataset-pages.ts';
import {
  anotherSyncingDevice,
  cloudPasswordModal,
  expectCloudPasswordNotice,
  signedInDevice,
  SOON,
  storedCounts,
  submitCloudPassword,
  syncDump,
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
  // What waits for the connection is counted where the Offline badge is.
  await expect(header(second).getByText('1 change waiting to sync', { exact: true })).toBeVisible();
  await firstTags.rename('Housing', 'Homes');
  await expect(secondTags.row('Homes')).toHaveCount(0);

  // Back online: the app reloads (spec §4), syncs, and both devices hold both edits.
  await second.context().setOffline(false);
  await expect(firstTags.row('Schools')).toBeVisible(SOON);
  await secondTags.open();
  await expect(secondTags.row('Homes')).toBeVisible(SOON);
  await expect(secondTags.row('Schools')).toBeVisible();
  await expect(header(second).getByText(/waiting to sync/)).toHaveCount(0);

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

// The devices of the running test, to dump when it fails (syncDump).
const devicesOfTest: Array<[string, Page]> = [];
// Playwright reads the fixtures a hook uses from its destructured first argument: none here.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const [name, page] of devicesOfTest) {
      console.log(`--- device ${name} ---\n${await syncDump(page)}`);
    }
  }
  devicesOfTest.length = 0;
});

test('three devices, a reset, an offline device, two Whys at once: nothing anyone made is lost', async ({
  browser,
}) => {
  // Issue 37's table, played on three devices of one account (A, B, C): A changes the cloud
  // password, C works offline, B (who never learns it) resets; A and C revert and bring their
  // work back; C merges the full backup the revert saved; A and B write one Why at once. Every
  // device ends with everything that was made, and the replaced Why in the bill's History.
  test.setTimeout(420_000);
  const { first: a, second: b, email } = await twoSyncingDevices(browser, cloudPassword);
  const c = await anotherSyncingDevice(browser, email, cloudPassword);
  devicesOfTest.push(['A', a], ['B', b], ['C', c]);
  await a.goto('/add-dataset');
  await new AddDatasetPage(a).add('California sample', [deckSample('deck-small.csv')]);
  await new JobsPage(a).expectStatus('California sample', 'Done');
  for (const device of [b, c]) {
    const datasets = new DatasetsPage(device);
    await datasets.open();
    await expect(
      datasets.dataset('California sample').getByText('Ready', { exact: true }),
    ).toBeVisible({ timeout: 60_000 });
  }

  // C goes offline and works there.
  const cTags = new BillTagsPage(c);
  await cTags.open();
  await c.context().setOffline(true);
  await cTags.create('Made offline on C');

  // A changes the password and syncs a tag; B never learns the password.
  await a.goto('/tabs/more');
  await submitCloudPassword(
    a,
    'Change cloud password',
    'only A knows',
    'The cloud password is changed.',
  );
  const aTags = new BillTagsPage(a);
  await aTags.open();
  await aTags.create('Only on A');
  await expect(header(a)).toContainText(/Synced \d/, SOON);
  const bTags = new BillTagsPage(b);
  await bTags.open();
  await bTags.create('Made on B');
  await expect(header(b).getByRole('link', { name: 'Password needed' })).toBeVisible(SOON);

  // B resets: spec §2's reset view says first what it costs (A's tag never reached B).
  await b.goto('/tabs/more');
  await b.getByRole('button', { name: 'Cloud password', exact: true }).click();
  const modal = cloudPasswordModal(b);
  await modal.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(modal.getByText('Reset cloud password', { exact: true })).toBeVisible();
  await expect(
    modal.getByText(
      /^[1-9][\d,]* batch(?:es)? of changes synced by (?:your other devices|another of your devices) ha(?:ve|s) not reached this device\. A reset takes/,
    ),
  ).toBeVisible(SOON);
  await typeCloudPassword(b, 'a fresh start');
  await modal.getByRole('button', { name: 'Reset password' }).click();
  await b.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expectCloudPasswordNotice(b, 'The cloud password is reset.');
  await expect(b.getByText(/^Up to date\./)).toBeVisible(SOON);

  // A and C (once back online) ask for the new password, revert, and bring their work back.
  await c.context().setOffline(false);
  for (const [device, made] of [
    [a, 'Only on A'],
    [c, 'Made offline on C'],
  ] as const) {
    await expect(header(device).getByRole('link', { name: 'Password needed' })).toBeVisible(SOON);
    await device.goto('/tabs/more');
    await submitCloudPassword(
      device,
      'Enter your cloud password',
      'a fresh start',
      'This device now has the cloud password.',
    );
    // The revert's notice waits for the run to end, then says where the device's data went.
    const notice = device.getByRole('alertdialog', { name: 'Sync' });
    await expect(notice).toContainText(
      'saved as the full backup "Before the cloud password reset',
      SOON,
    );
    await expect(notice).toContainText('the new data lacks 1 tag.');
    // "Bring back my changes" is the default: the first button.
    await expect(notice.getByRole('button').first()).toHaveText(/Bring back my changes/i);
    await notice.getByRole('button', { name: 'Bring back my changes' }).click();
    const back = device.getByRole('alertdialog', { name: 'Sync' });
    await expect(back).toContainText('Your changes are back: 1 tag.', SOON);
    await back.getByRole('button', { name: 'OK' }).click();
    const tags = new BillTagsPage(device);
    await tags.open();
    await expect(tags.row(made)).toBeVisible();
  }

  // C merges the full backup its revert saved: everything in it is already back, so the merge
  // says it changes nothing, and merging deletes nothing.
  const backups = new FullBackupsPage(c);
  await backups.open();
  await backups
    .list()
    .getByRole('listitem')
    .filter({ has: c.getByRole('heading', { name: /^Before the cloud password reset/ }) })
    .getByRole('button', { name: 'Restore', exact: true })
    .click();
  const preview = c.getByRole('region', { name: 'What this full backup holds' });
  await expect(preview).toContainText('Merge changes nothing', SOON);
  await expect(preview.getByRole('button', { name: 'Replace', exact: true })).toBeVisible();
  await new FullBackupPreviewPanel(c, preview).merge();

  // A and B write a different Why on one bill at once (B offline a moment, so its words are the
  // newer): A takes B's words and keeps its own in History, and says so.
  const bill = 'us-ca/2025-2026/ab-1';
  const onA = new BillDetailsPage(a);
  const onB = new BillDetailsPage(b);
  await onB.openBill(bill, 'AB 1');
  await b.context().setOffline(true);
  await onA.openBill(bill, 'AB 1');
  await onA.position('Support').check();
  // The Why is private words: the browser's form restore must not copy it to the profile.
  await expect(onA.why()).toHaveAttribute('autocomplete', 'off');
  await onA.why().fill('Jobs for the district');
  await expectPainted(onA.reasonSaved());
  await expect(header(a)).toContainText(/Synced \d/, SOON);
  await onB.position('Support').check();
  await onB.why().fill('Costs too much');
  await expectPainted(onB.reasonSaved());
  // The connection back, B goes to the root and reloads (spec §4), then syncs.
  const reloaded = b.waitForEvent('load');
  await b.context().setOffline(false);
  await reloaded;
  await expect(b).toHaveURL(/\/tabs\/bills$/);
  // B, whose words are the newer, opens the bill again and is told that they were kept over
  // A's, written at once.
  await onB.openBill(bill, 'AB 1');
  await expect(b.getByText(/^Written at the same time on another device/)).toBeVisible(SOON);
  await expect(onB.why()).toHaveValue('Costs too much');
  await expect(onA.why()).toHaveValue('Costs too much', SOON);
  await expect(a.getByText(/^Changed on another device/)).toBeVisible();
  const history = onA.section('History');
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem')).toContainText(
    'Why: “Jobs for the district” became “Costs too much”',
  );
  await expectPainted(history.getByRole('listitem'));
  // Once opened, the bill no longer says it changed.
  await a.goto('/tabs/tracked');
  await onA.openBill(bill, 'AB 1');
  await expect(onA.section('History').getByRole('listitem')).toHaveCount(1);
  await expect(a.getByText(/^Changed on another device/)).toHaveCount(0);

  // Every device: all three tags on screen, and in its store as many rows as were made (the
  // History entry synced everywhere; B, whose words won, was told above, not of a change).
  for (const device of [a, b, c]) {
    const onDevice = new BillDetailsPage(device);
    await onDevice.openBill(bill, 'AB 1');
    await expect(onDevice.why()).toHaveValue('Costs too much', SOON);
    await expect(onDevice.section('History').getByRole('listitem')).toContainText(
      '“Jobs for the district” became “Costs too much”',
      SOON,
    );
    const tags = new BillTagsPage(device);
    await tags.open();
    for (const name of ['Only on A', 'Made on B', 'Made offline on C']) {
      await expect(tags.row(name)).toBeVisible(SOON);
    }
    expect(await storedCounts(device, ['tags', 'positions', 'billHistory'])).toEqual({
      tags: 3,
      positions: 1,
      billHistory: 1,
    });
  }
  await expect(b.getByText(/^Changed on another device/)).toHaveCount(0);
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

test('after signing out, the sign-in page shows no sync error', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, uniqueEmail(), true);
  await expectScreenPainted(page);
  await expect(page.getByText('Set a cloud password to start syncing.')).toBeVisible(SOON);
  await signOut(page);
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
