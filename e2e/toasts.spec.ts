import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { sampleBillId, sampleFile } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, isPainted } from './pages/painted.ts';

// What a screen says after an action is a toast: read out as a status, never over a control,
// gone by itself after about 4 s (where a bar used to stay over the Annotate button for minutes).

test.describe.configure({ timeout: 120_000 });

async function signUpAndImport(page: Page): Promise<void> {
  await signUpAt(page, '/add-dataset');
  await expectScreenPainted(page);
  await new AddDatasetPage(page).add('Library bills', [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus('Library bills', 'Done');
  await expectScreenPainted(page);
}

function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

/** The toast is at the bottom: never over the page's title (its level-1 heading). */
async function expectClearOfHeading(page: Page, text: string): Promise<void> {
  const heading = await page
    .getByRole('heading', { level: 1 })
    .filter({ visible: true })
    .first()
    .boundingBox();
  const shown = await toast(page, text).boundingBox();
  expect(heading).not.toBeNull();
  expect(shown).not.toBeNull();
  if (heading === null || shown === null) return;
  expect(shown.y).toBeGreaterThanOrEqual(heading.y + heading.height);
}

/**
 * Shown, then gone without anyone touching it. A toast stays 4 s; the bound here is three times
 * that, because a browser on a busy machine runs its timers and the toast's leaving animation
 * late (a 6 s bound failed with CPU-heavy work beside the run). Staying for good fails either way.
 */
async function expectToastLeaves(page: Page, text: string): Promise<void> {
  await expect.poll(() => isPainted(toast(page, text)), { timeout: 12_000 }).toBe(false);
  await expect(toast(page, text)).toHaveCount(0);
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`bill details: a position's toast is read as status, covers no control and leaves (${String(size.width)}×${String(size.height)})`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await signUpAndImport(page);
    const details = new BillDetailsPage(page);
    await details.openBill(sampleBillId, 'HB 4242');
    await expectScreenPainted(page);

    const annotate = page
      .getByRole('link', { name: 'Annotate' })
      .or(page.getByRole('button', { name: 'Annotate' }));
    await annotate.first().scrollIntoViewIfNeeded();
    await details.position('Watch').check();
    await expectPainted(toast(page, 'Position set to Watch.'));
    await page
      .getByRole('heading', { level: 1 })
      .filter({ visible: true })
      .first()
      .scrollIntoViewIfNeeded();
    await expectClearOfHeading(page, 'Position set to Watch.');
    await annotate.first().scrollIntoViewIfNeeded();
    // The Annotate button and the back button stay visible and on top while it shows.
    await expectPainted(annotate);
    await expectPainted(page.locator('ion-back-button').filter({ visible: true }));
    await expectPainted(details.position('Support'));
    await page.screenshot({
      path: test.info().outputPath(`toast-details-${String(size.width)}.png`),
    });
    await expectToastLeaves(page, 'Position set to Watch.');
    await expect(details.position('Watch')).toBeChecked();

    // A newer message replaces the one showing; they do not stack.
    await details.position('Support').check();
    await expectPainted(toast(page, 'Position set to Support.'));
    await details.position('Oppose').check();
    await expectPainted(toast(page, 'Position set to Oppose.'));
    await expect(toast(page, 'Position set to Support.')).toHaveCount(0);
    await expectToastLeaves(page, 'Position set to Oppose.');
  });
}

test('bill tags: a created tag is said in a toast that leaves', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndImport(page);
  const tags = new BillTagsPage(page);
  await tags.open();
  await expectScreenPainted(page);
  await tags.create('Housing');
  await expectPainted(toast(page, 'Created the tag "Housing".'));
  await expectClearOfHeading(page, 'Created the tag "Housing".');
  await expectPainted(page.getByRole('button', { name: 'New tag', exact: true }));
  await page.screenshot({ path: test.info().outputPath('toast-tags-390.png') });
  await expectToastLeaves(page, 'Created the tag "Housing".');
  await expectPainted(tags.row('Housing'));
});
