import { expect, test } from './fixtures.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackupsPage, RestorePage, SLOW } from './pages/backup-pages.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { uniqueEmail } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';
import { signedInDevice, submitCloudPassword } from './pages/sync-device.ts';

// Server-stored backups end to end: a signed-in device with a cloud password leaves a half-typed
// backup form after its warning, imports bills, tags one, makes a backup, previews it, deletes
// the tag, and gets it back with Merge.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';
const hostileTag = '<img src=x onerror=window.__pwned=1> Renters';

/** Every file of the test server's embedded database, as one Latin-1 text, to search. */
function databaseText(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (dir === undefined) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it).');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

test('a backup is made, previewed, restored with Merge after a tag was deleted, then with Replace', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const email = uniqueEmail();
  const page = await signedInDevice(browser, email, true);

  // Without a cloud password the screen says so and where to set it.
  const backups = new BackupsPage(page);
  await backups.open();
  await expect(page.getByText(/this device does not have it yet/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Cloud password' })).toBeVisible();

  await page.goto('/tabs/more');
  // The account's room on the server, each kind against its quota (the server's defaults).
  const space = page.getByRole('region', { name: 'Space on the server' });
  await expectPainted(
    space.getByRole('meter', { name: 'Backups and links: 0 bytes of 1.0 GB used' }),
  );
  await expect(space.getByRole('meter')).toHaveCount(3);
  await submitCloudPassword(
    page,
    'Set a cloud password',
    'backup lantern 7',
    'The cloud password is set.',
  );

  // The form warns before its changes are left, in its own words; Stay keeps them, Leave
  // goes and saves nothing.
  await backups.open();
  await backups.newBackupButton().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New backup' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Half typed');
  await page.getByLabel('Description', { exact: true }).fill('Not saved yet');
  await page.getByRole('button', { name: /back/i }).click();
  const warning = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(warning).toBeVisible();
  await expect(warning).toHaveAccessibleDescription(
    'The changes you made to this backup will be lost.',
  );
  await warning.getByRole('button', { name: 'Stay' }).click();
  await expect(warning).toBeHidden();
  await expect(page).toHaveURL('/add-backup');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Half typed');
  await page.getByRole('button', { name: /back/i }).click();
  await warning.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL('/tabs/backups');
  await expect(page.getByText('No backups yet.', { exact: false })).toBeVisible();

  await page.goto('/add-dataset');
  await new AddDatasetPage(page).add('Tenant bills', [sample]);
  await new JobsPage(page).expectStatus('Tenant bills', 'Done');
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag(hostileTag, { create: true });

  await backups.open();
  await backups.fillAndSave('Before the hearing', 'Tags as of Monday — ملاحظات');
  // Saved, and said so to a screen reader: a polite status, as the form goes back to the list.
  await expect(backups.savedStatus('Before the hearing')).toBeVisible(SLOW);
  await expect(backups.backup('Before the hearing')).toBeVisible(SLOW);
  const card = backups.backup('Before the hearing');
  await expect(card).toContainText('1 tag');
  await expect(card).toContainText('Tags as of Monday — ملاحظات');
  expect(await seriousViolations(page)).toEqual([]);
  // The server's files hold the account (so the scan reads what was written) and none of what
  // the user typed: the backup's name, description and the tag are all sealed on the device.
  const stored = databaseText();
  expect(stored).toContain(email);
  for (const secret of ['Before the hearing', 'Tags as of Monday', 'Renters']) {
    expect(stored).not.toContain(secret);
  }

  // The backup takes room on the server, and More says so.
  await page.goto('/tabs/more');
  await expectPainted(
    space.getByRole('meter', {
      name: /^Backups and links: (?!0 bytes)[\d.]+ (bytes|KB|MB) of 1\.0 GB used$/,
    }),
  );
  await backups.open();

  await backups.preview('Before the hearing');
  const bill = page
    .getByRole('list', { name: 'Bills' })
    .getByRole('listitem')
    .filter({
      has: page.getByRole('heading', { name: /^HB 4242:/ }),
    });
  await expect(bill.getByRole('list', { name: 'Tags of HB 4242' })).toHaveText(hostileTag);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await seriousViolations(page)).toEqual([]);

  // The tag is deleted on the device …
  const tags = new BillTagsPage(page);
  await tags.open();
  await tags.row(hostileTag).getByRole('button', { name: 'Delete', exact: true }).click();
  await tags.row(hostileTag).getByRole('button', { name: 'Delete tag', exact: true }).click();
  await expect(tags.row(hostileTag)).toHaveCount(0);

  // … and Merge shows it coming back, then brings it back.
  await backups.open();
  await backups.restore('Before the hearing');
  const restore = new RestorePage(page);
  await expect(restore.row('Merge', 'Tags')).toHaveText(/Tags\s*1\s*0\s*0/, SLOW);
  await expect(restore.row('Merge', 'Tagged bills')).toHaveText(/Tagged bills\s*1\s*0\s*0/);
  expect(await seriousViolations(page)).toEqual([]);
  await restore.run('Merge');
  await expect(page.getByText(/kept as the full backup “Before restoring/)).toBeVisible();

  await details.openBill(tenantBill, 'HB 4242');
  await expect(details.tagsOnBill().getByText(hostileTag, { exact: true })).toBeVisible();

  // A tag added since is taken away by Replace, which says so first.
  await details.addTag('Added later', { create: true });
  await backups.open();
  await backups.restore('Before the hearing');
  await expect(restore.row('Replace', 'Tags')).toHaveText(/Tags\s*0\s*0\s*1/, SLOW);
  await expect(restore.row('Replace', 'Tagged bills')).toHaveText(/Tagged bills\s*0\s*0\s*1/);
  await restore.run('Replace');
  await details.openBill(tenantBill, 'HB 4242');
  await expect(details.tagsOnBill().getByText(hostileTag, { exact: true })).toBeVisible();
  await expect(details.tagsOnBill().getByText('Added later', { exact: true })).toHaveCount(0);

  // The restores ran as jobs, with the backup's name.
  await page.goto('/jobs');
  await expect(
    page.getByRole('heading', { name: 'Restore of a backup: Before the hearing' }),
  ).toHaveCount(2);
  await expect(
    page.getByRole('heading', { name: 'Backup: Before the hearing', exact: true }),
  ).toBeVisible();

  // Deleting asks first.
  await backups.open();
  await backups.backup('Before the hearing').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(backups.backup('Before the hearing')).toHaveCount(0, SLOW);
  await expect(page.getByText('No backups yet.', { exact: false })).toBeVisible();
});
