import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackupLinkPage, BackupsPage, SLOW } from './pages/backup-pages.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { AnnotationPage } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { signedInDevice, submitCloudPassword } from './pages/sync-device.ts';

// A backup published as a public link: opened in a fresh, signed-out browser it shows the bill,
// its tag and the note on it; a damaged or missing key says so; once revoked, the link says it
// was revoked.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';
const notedPassage = 'AN ACT relating to tenants';
const note = 'Ask the sponsor <b>why</b> = leases only';

test('a public link opens signed out, says when its key is wrong, and says when it is revoked', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = await signedInDevice(browser, uniqueEmail(), true);
  await submitCloudPassword(
    owner,
    'Set a cloud password',
    'link lantern 9',
    'The cloud password is set.',
  );
  await owner.goto('/add-dataset');
  await new AddDatasetPage(owner).add('Tenant bills', [sample]);
  await new JobsPage(owner).expectStatus('Tenant bills', 'Done');
  const details = new BillDetailsPage(owner);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag('Renters', { create: true });
  const annotation = new AnnotationPage(owner);
  await annotation.open(tenantBill);
  await annotation.selectWithMouse(notedPassage);
  await expect(annotation.selectedPassage()).toHaveText(notedPassage);
  await annotation.note().fill(note);
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const backups = new BackupsPage(owner);
  await backups.open();
  await backups.create('Shared set', '');
  await backups.share('Shared set');
  const linkPage = new BackupLinkPage(owner);
  const link = await linkPage.create();
  expect(await seriousViolations(owner)).toEqual([]);

  // Someone else, never signed in, in a browser of their own.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  await expect(viewer.getByRole('heading', { level: 1, name: 'Shared bills' })).toBeVisible(SLOW);
  const bill = viewer
    .getByRole('list', { name: 'Bills' })
    .getByRole('listitem')
    .filter({
      has: viewer.getByRole('heading', { name: /^HB 4242:/ }),
    });
  await expect(bill.getByRole('list', { name: 'Tags of HB 4242' })).toHaveText('Renters');
  const notes = bill.getByRole('list', { name: 'Notes on HB 4242' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes).toContainText(notedPassage);
  await expect(notes.getByText(note, { exact: true })).toBeVisible();
  // The app's own bill view, read-only.
  await bill.getByRole('button', { name: 'Show the bill HB 4242' }).click();
  await expect(bill.getByRole('heading', { name: /^Actions \(\d+\)$/ })).toBeVisible();
  await expect(bill.getByRole('heading', { name: 'Sponsors', exact: true })).toBeVisible();
  await expect(viewer.getByRole('link', { name: 'Sign in to import' })).toBeVisible();
  expect(await viewer.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await seriousViolations(viewer)).toEqual([]);
  // On a phone the hostile, long text wraps instead of pushing the page sideways.
  await viewer.setViewportSize({ width: 360, height: 740 });
  await expect(bill).toBeVisible();
  const sideways = await bill.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
  expect(sideways).toBe(false);
  await viewer.setViewportSize({ width: 1280, height: 720 });

  // Signing in keeps the link, key included, and a signed-in viewer can import the set.
  await viewer.getByRole('link', { name: 'Sign in to import' }).click();
  const login = new LoginPage(viewer);
  await login.waitForForm();
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(viewer).toHaveURL(link, SLOW);
  await viewer.getByRole('button', { name: 'Import into my data' }).click();
  await expect(
    viewer.getByRole('status').filter({ hasText: /^Imported into your data/ }),
  ).toBeVisible(SLOW);
  const viewerTags = new BillTagsPage(viewer);
  await viewerTags.open();
  await expect(viewerTags.row('Renters')).toBeVisible();

  // The key is the fragment: without it, or with another, nothing opens, and the page says why.
  const [base] = link.split('#');
  await viewer.goto(`${base}`);
  await expect(viewer.getByRole('heading', { level: 1, name: 'This link has no key' })).toBeVisible(
    SLOW,
  );
  const otherKey = `k=${'A'.repeat(43)}`;
  await viewer.goto(`${base}#${otherKey}`);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link does not open' }),
  ).toBeVisible(SLOW);

  // The owner sees the views, then revokes.
  await owner.reload();
  await expect(owner.getByText(/^Opened [1-9]\d* times?$/)).toBeVisible(SLOW);
  await linkPage.revoke();
  await viewer.goto(link);
  await expect(
    viewer.getByRole('heading', { level: 1, name: 'This link was revoked' }),
  ).toBeVisible(SLOW);
  expect(await seriousViolations(viewer)).toEqual([]);
  await viewerContext.close();
});
