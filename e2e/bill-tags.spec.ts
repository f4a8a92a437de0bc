import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { signUpWithDataset } from './pages/dataset-pages.ts';
import { expectPainted } from './pages/painted.ts';

// The bill-tags screen: create, rename, recolour, merge and delete, each saying what it does
// to the bills before and after, and the assignments following the tags.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';
const companionBill = 'us-wa/2025-2026-regular-session/hb-4243';
const hostile = '<img src=x onerror=window.__pwned=1>';

async function signUpAndImport(page: Page): Promise<void> {
  await signUpWithDataset(page, 'Tenant bills', [sample]);
}

test('tags are created, renamed, recoloured, merged and deleted with their bills', async ({
  page,
}) => {
  // A sign-up, an import and four accessibility scans: past a minute on a busy machine.
  test.setTimeout(120_000);
  await signUpAndImport(page);
  const tags = new BillTagsPage(page);
  const details = new BillDetailsPage(page);

  await tags.open();
  await expect(page.getByText('No tags yet.')).toBeVisible();
  // By keyboard: "New tag" gives way to its form, whose name field takes the focus; Enter in it
  // saves.
  await page.getByRole('button', { name: 'New tag', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(tags.nameField()).toBeFocused();
  // Filled at once, not typed key by key: one clean-clone run saved "Hou" for a typed "Housing"
  // (not reproduced since, under load either; see the session's note).
  await tags.nameField().fill('Housing');
  await page.keyboard.press('Enter');
  await expect(tags.row('Housing')).toBeVisible({ timeout: 15_000 });
  await expectPainted(tags.toast('Created the tag "Housing".'));
  // The form is gone: focus goes to the new tag's row, not to the page's body.
  await expect(
    tags.row('Housing').getByRole('heading', { level: 2, name: 'Housing', exact: true }),
  ).toBeFocused();
  await tags.create('Rent');
  await expect(tags.row('Rent')).toBeVisible();
  // A name differing only in case is refused beside the field, with core's words.
  await tags.attemptCreate('housing');
  await expect(page.getByRole('alert')).toContainText('There is already a tag named "Housing"');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag('Housing', { create: false });
  await details.addTag('Rent', { create: false });
  await details.openBill(companionBill, 'HB 4243');
  await details.addTag('Rent', { create: false });

  await tags.open();
  await expect(tags.row('Housing')).toContainText('1 bill');
  await expect(tags.row('Rent').getByRole('link', { name: '2 bills tagged Rent' })).toHaveAttribute(
    'href',
    /\/tabs\/tracked\?tag=/,
  );

  await tags.rename('Rent', 'Renters');
  await expectPainted(tags.toast('Renamed "Rent" to "Renters".'));
  await expect(tags.row('Renters')).toContainText('2 bills');

  const housing = tags.row('Housing');
  await housing.getByRole('button', { name: 'Colour', exact: true }).click();
  await housing.getByRole('radio', { name: 'Purple' }).check();
  await housing.getByRole('button', { name: 'Save', exact: true }).click();
  await expectPainted(tags.toast('"Housing" is now Purple.'));
  await expect(tags.colourWord('Housing')).toHaveText('Colour: Purple');
  const renters = tags.row('Renters');
  await renters.getByRole('button', { name: 'Colour', exact: true }).click();
  await renters.getByLabel('Hex colour').fill('#123ABC');
  await renters.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(tags.colourWord('Renters')).toHaveText('Colour: #123abc');

  // Merge asks first, naming both tags and the bills that move.
  await housing.getByRole('button', { name: 'Merge into…', exact: true }).click();
  await housing.getByLabel('Merge "Housing" into').selectOption({ label: 'Renters' });
  await expect(housing).toContainText(
    'Merge "Housing" into "Renters"? 1 bill tagged "Housing" will be tagged "Renters", and "Housing" will be deleted.',
  );
  expect(await tags.axeSeriousViolations()).toEqual([]);
  await housing.getByRole('button', { name: 'Merge tags', exact: true }).click();
  await expectPainted(
    tags.toast(
      'Merged "Housing" into "Renters": 1 bill now tagged "Renters" (1 bill already had it).',
    ),
  );
  await expect(tags.row('Housing')).toHaveCount(0);
  await expect(tags.row('Renters')).toContainText('2 bills');

  await details.openBill(tenantBill, 'HB 4242');
  await expect(details.tagsOnBill().getByRole('listitem')).toHaveCount(1);
  await expect(details.tagsOnBill().getByText('Renters', { exact: true })).toBeVisible();

  // Delete says how many bills it touches before it is confirmed.
  await tags.open();
  await tags.row('Renters').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(tags.row('Renters')).toContainText(
    'Delete the tag "Renters"? It is on 2 bills; it will be taken off all of them.',
  );
  await tags.row('Renters').getByRole('button', { name: 'Delete tag', exact: true }).click();
  await expectPainted(tags.toast('Deleted the tag "Renters" and took it off 2 bills.'));
  await expect(page.getByText('No tags yet.')).toBeVisible();

  await details.openBill(companionBill, 'HB 4243');
  await expect(page.getByText('No tags on this bill yet.')).toBeVisible();
});

test('a delete is refused and asked again when the tag reached more bills meanwhile', async ({
  page,
  context,
}) => {
  await signUpAndImport(page);
  const tags = new BillTagsPage(page);
  await tags.open();
  await tags.create('Watchlist');
  await tags.row('Watchlist').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(tags.row('Watchlist')).toContainText('It is on no bills.');

  // Another tab of the same user tags a bill while the question is open.
  const other = await context.newPage();
  const details = new BillDetailsPage(other);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag('Watchlist', { create: false });
  await other.close();

  await tags.row('Watchlist').getByRole('button', { name: 'Delete tag', exact: true }).click();
  await expect(tags.row('Watchlist').getByRole('alert')).toHaveText(
    '"Watchlist" is now on 1 bill, not 0. Check before deleting it.',
  );
  await expect(tags.row('Watchlist')).toContainText('It is on 1 bill; it will be taken off it.');
  await tags.row('Watchlist').getByRole('button', { name: 'Delete tag', exact: true }).click();
  await expectPainted(tags.toast('Deleted the tag "Watchlist" and took it off 1 bill.'));
});

test('hostile tag names are shown as text on a phone and the screen passes axe', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndImport(page);
  const tags = new BillTagsPage(page);
  await tags.open();
  const longWord = 'W'.repeat(100);
  const rtl = 'مستأجرون';
  for (const name of [hostile, longWord, rtl]) {
    await tags.create(name);
    await expect(tags.row(name)).toBeVisible();
  }
  // A 300-character word does not fit: the field keeps the 100 characters core allows.
  await page.getByRole('button', { name: 'New tag', exact: true }).click();
  await tags.nameField().fill('X'.repeat(300));
  await expect(tags.nameField()).toHaveValue('X'.repeat(100));
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  expect(await page.locator('.tag-rows img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  const overflow = await page.evaluate(() => {
    const list = document.querySelector('.tag-rows');
    return list === null ? -1 : list.scrollWidth - list.clientWidth;
  });
  expect(overflow).toBe(0);

  await tags.row(hostile).getByRole('button', { name: 'Rename', exact: true }).click();
  expect(await tags.axeSeriousViolations()).toEqual([]);

  // The picker on a bill shows them as text too.
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag(hostile, { create: false });
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
});
