import { seriousViolations } from './pages/accessibility.ts';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AddDatasetPage,
  fixtureFiles,
  fixturesRoot,
  JobsPage,
  signUpWithDataset,
} from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';

// The Tracked tab with real bills imported through the UI: the 81 BILLSTATUS files of the
// 116th Congress's Senate joint resolutions, plus one hostile bill from a Docket CSV.

test.skip(fixturesRoot === null, '../shared/fixtures is absent');

const hostileCsv = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'tracked-hostile.csv');

async function signUpAndImport(page: Page): Promise<void> {
  await signUpWithDataset(page, 'Joint resolutions', [
    ...fixtureFiles('billstatus-xml-116/116/bills/sjres'),
    hostileCsv,
  ]);
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

test('search, filter, sort, track and bulk-tag bills on the Tracked tab', async ({ page }) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => undefined);
  });
  await signUpAndImport(page);
  const tracked = new TrackedPage(page);
  await tracked.open();

  // Nothing tracked yet: the list says where tracking happens.
  await expect(page.getByRole('heading', { name: 'No tracked bills yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Bills deck' })).toBeVisible();
  await expectNoSeriousViolations(page);

  // All bills, newest action first.
  await tracked.showAll();
  await tracked.expectCount('82 bills');
  await expect(page).toHaveURL(/all=1/);

  // A word only S.J.Res. 2's summary holds.
  await tracked.typeSearch('deripaska');
  await tracked.expectCount('1 bill');
  await expect(tracked.row('S.J.Res. 2')).toBeVisible();
  // An identifier as people type it.
  await tracked.typeSearch('S.J.Res. 7');
  await tracked.expectCount('1 bill');
  await expect(tracked.row('S.J.Res. 7')).toBeVisible();
  await tracked.typeSearch('sjres 54');
  await expect(tracked.row('S.J.Res. 54')).toBeVisible();
  await tracked.expectCount('1 bill');
  await tracked.typeSearch('zzzznothing');
  await expect(page.getByRole('heading', { name: 'Nothing matches' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await tracked.expectCount('82 bills');
  await expect(tracked.search()).toHaveValue('');

  // Filter by status through the UI; the URL follows.
  await tracked.status().selectOption({ label: 'Vetoed' });
  await tracked.expectCount('6 bills');
  await expect(page).toHaveURL(/status=vetoed/);
  await expect(tracked.row('S.J.Res. 7')).toBeVisible();

  // Sort by identifier: numeric order.
  await tracked.sort().selectOption({ label: 'Identifier' });
  await expect(page).toHaveURL(/sort=identifier/);
  await expect
    .poll(() => tracked.identifiers())
    .toEqual([
      'S.J.Res. 7',
      'S.J.Res. 36',
      'S.J.Res. 37',
      'S.J.Res. 38',
      'S.J.Res. 54',
      'S.J.Res. 68',
    ]);
  // Newest action first: S.J.Res. 68 was vetoed last (May 2020).
  await tracked.sort().selectOption({ label: 'Latest action' });
  await expect.poll(async () => (await tracked.identifiers())[0]).toBe('S.J.Res. 68');

  // Filter by status through the URL, as the charts link to it.
  await tracked.open('?all=1&status=enacted&sort=identifier');
  await tracked.expectCount('3 bills');
  await expect(tracked.status()).toHaveValue('enacted');
  await expect
    .poll(() => tracked.identifiers())
    .toEqual(['S.J.Res. 65', 'S.J.Res. 66', 'S.J.Res. 67']);

  // Select all three, track them, and tag them with a new tag.
  await tracked.startSelecting();
  await page.getByRole('button', { name: 'Select all' }).click();
  await expect(page.getByText('3 bills selected')).toBeVisible();
  await expect(tracked.checkbox('S.J.Res. 66')).toBeChecked();
  await page.getByRole('button', { name: 'Track selected' }).click();
  await expect(page.getByText('Tracked 3 bills', { exact: true })).toBeAttached();
  await tracked.checkbox('S.J.Res. 66').uncheck();
  await expect(page.getByText('2 bills selected')).toBeVisible();
  await tracked.tagSelectedWithNewTag('Housing');
  await expect(page.getByText('Tagged 2 bills with Housing', { exact: true })).toBeAttached();
  for (const identifier of ['S.J.Res. 65', 'S.J.Res. 67']) {
    await expect(
      tracked.row(identifier).getByRole('list', { name: `Tags of ${identifier}` }),
    ).toHaveText('Housing');
  }
  await expect(tracked.row('S.J.Res. 66').getByRole('list', { name: /^Tags of/ })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  // The tracked list holds the three; the tag filter narrows it to two.
  await tracked.open();
  await tracked.expectCount('3 bills');
  await tracked.tag().selectOption({ label: 'Housing' });
  await tracked.expectCount('2 bills');
  await expect(page).toHaveURL(/tag=/);

  // A row opens the bill's details.
  await tracked.row('S.J.Res. 65').getByRole('link').click();
  await expect(page).toHaveURL(/\/bill-details\?id=us%2F116%2Fsjres-65/);
  expect(dialogs).toEqual([]);
});

test('hostile text shows as text and a phone-sized list does not overflow', async ({ page }) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => undefined);
  });
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndImport(page);
  const tracked = new TrackedPage(page);
  await tracked.open('?all=1');
  await tracked.expectCount('82 bills');
  await tracked.typeSearch('zzyzxhostile');
  await tracked.expectCount('1 bill');
  const row = tracked.row('AB 13');
  await expect(row).toContainText('<img src=x onerror=alert(1)> Hostile title قانون الإسكان');
  await expect(tracked.list().locator('img')).toHaveCount(0);
  const overflow = await page.evaluate(() => {
    const list = document.querySelector('.tracked-list');
    return list === null ? null : list.scrollWidth - list.clientWidth;
  });
  expect(overflow).toBe(0);
  // The keyboard reaches the row's link.
  await row.getByRole('link').focus();
  await expect(row.getByRole('link')).toBeFocused();
  await expectNoSeriousViolations(page);

  // A row and the details of its bill say the same dates under the same labels: S.J.Res. 36
  // was vetoed on Jul 24, 2019, and its latest action is of Jul 29.
  await tracked.typeSearch('S.J.Res. 36');
  await tracked.expectCount('1 bill');
  const vetoed = tracked.row('S.J.Res. 36');
  const rowDate = vetoed.getByText(/Latest action/);
  await expectPainted(rowDate);
  await expect(rowDate).toHaveText(/^Vetoed · Latest action \w{3} \d{1,2}, \d{4}$/);
  const latest = (await rowDate.innerText()).replace(/^.*Latest action /, '');
  expect(latest).toBe('Jul 29, 2019');
  await vetoed.getByRole('link').click();
  const details = new BillDetailsPage(page);
  await expect(details.heading()).toHaveText('S.J.Res. 36', { timeout: 15_000 });
  await expectPainted(details.fact('Latest action'));
  await expect(details.fact('Latest action')).toHaveText(new RegExp(`^${latest}: `));
  await expect(details.fact('Status')).toHaveText('Vetoed since Jul 24, 2019');
  expect(dialogs).toEqual([]);
});

test('a session filter lists the bills of one session of a jurisdiction', async ({ page }) => {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add(
    'Two Congresses',
    fixtureFiles('billstatus-samples/samples/actions-committees').filter((file) =>
      /BILLSTATUS-(115s2979|116hr5240)\.xml$/.test(file),
    ),
  );
  await new JobsPage(page).expectStatus('Two Congresses', 'Done');
  const tracked = new TrackedPage(page);
  await tracked.open('?all=1');
  await tracked.expectCount('2 bills');

  const session = page.getByLabel('Session', { exact: true });
  await expect(session.getByRole('option')).toHaveText([
    'Any',
    'U.S. Congress · 116th Congress',
    'U.S. Congress · 115th Congress',
  ]);
  await session.selectOption({ label: 'U.S. Congress · 115th Congress' });
  await expect(page).toHaveURL('/tabs/tracked?session=us%3A115&all=1');
  await tracked.expectCount('1 bill');
  await expectPainted(tracked.row('S. 2979'));
  await expect(tracked.list().getByRole('listitem')).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the search, its count and the first result come first; the filters fold behind "Filter"', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signUpAndImport(page);
    const tracked = new TrackedPage(page);
    await tracked.open('?all=1');
    await tracked.expectCount('82 bills');

    // Folded: one "Filter" button beside the search field, the selects behind it.
    const filter = page.getByRole('button', { name: /^Filter/ });
    await expectPainted(filter);
    await expect(filter).toHaveText('Filter');
    await expect(filter).toHaveAttribute('aria-expanded', 'false');
    await expect(tracked.status()).toBeHidden();
    await expect(tracked.sort()).toBeHidden();

    // While typing, the count and the first result sit above where the keyboard would be.
    await tracked.typeSearch('deripaska');
    await tracked.expectCount('1 bill');
    const row = tracked.row('S.J.Res. 2');
    await expectPainted(row);
    await expectPainted(tracked.count());
    const searchBox = await tracked.search().boundingBox();
    const countBox = await tracked.count().boundingBox();
    const rowBox = await row.boundingBox();
    expect(searchBox).not.toBeNull();
    expect(countBox).not.toBeNull();
    expect(rowBox).not.toBeNull();
    expect(countBox?.y ?? 0).toBeGreaterThan(searchBox?.y ?? Infinity);
    expect(rowBox?.y ?? 0).toBeGreaterThan(countBox?.y ?? Infinity);
    expect(rowBox?.y ?? Infinity).toBeLessThan(500);

    // "Filter" opens the filters; a decision chosen there shows as a chip, and its chip removes it.
    await filter.click();
    await expect(filter).toHaveAttribute('aria-expanded', 'true');
    const decision = page.getByRole('combobox', { name: 'Decision', exact: true });
    await expectPainted(decision);
    await decision.selectOption('undecided');
    await expect(page).toHaveURL(/decision=undecided/);
    await expect(filter).toHaveText('Filter (1)');
    const chips = page.getByRole('list', { name: 'Active filters', exact: true });
    await expectPainted(chips.getByText('Undecided', { exact: true }));
    await tracked.expectCount('1 bill · Undecided');
    // Folded again, the chip still says what narrows the list.
    await filter.click();
    await expect(decision).toBeHidden();
    await expectPainted(chips.getByText('Undecided', { exact: true }));
    await page.getByRole('button', { name: 'Remove the filter: decision Undecided' }).click();
    await expect(chips).toHaveCount(0);
    await expect(page).not.toHaveURL(/decision=/);
    await expect(filter).toHaveText('Filter');
    await expect(filter).toBeFocused();
    await expect(tracked.count()).toHaveText('1 bill');
    await expectNoSeriousViolations(page);
  });
});
