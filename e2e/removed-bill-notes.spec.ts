import { expect, test } from './fixtures.ts';
import {
  AnnotationPage,
  sampleBillId,
  sampleFile,
  samplePassage,
} from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { DatasetsPage, signUpWithDataset } from './pages/dataset-pages.ts';
import { expectPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// "Notes on removed bills": what the user wrote on a bill stays once its dataset is deleted,
// listed on the Tracked tab, shown on the bill's details, and deleted only when asked.

test.describe.configure({ timeout: 180_000 });

test('notes on a bill whose dataset is deleted are listed, opened and deleted', async ({
  page,
}, testInfo) => {
  await signUpWithDataset(page, 'Library bills', [sampleFile('annotation-bill.csv')]);
  const details = new BillDetailsPage(page);
  await details.openBill(sampleBillId, 'HB 4242');
  await details.addTag('Libraries', { create: true });
  await details.why().fill('Keeps branches open late.');
  await expectPainted(details.reasonSaved());
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await annotation.selectWithMouse(samplePassage);
  await annotation.note().fill('Ask about weekends.');
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const datasets = new DatasetsPage(page);
  await datasets.open();
  await datasets.dataset('Library bills').getByRole('button', { name: 'Delete dataset' }).click();
  const question = page.getByRole('alertdialog', { name: 'Delete dataset?' });
  await question.getByRole('button', { name: 'Delete dataset' }).click();
  await expect(datasets.dataset('Library bills')).toHaveCount(0);

  const tracked = new TrackedPage(page);
  await tracked.open();
  const row = tracked.removedNote('HB 4242');
  await expect(row).toContainText('Libraries');
  await expect(row).toContainText('1 note');
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`tracked-${width}.png`) });
  }
  expect(await details.seriousAccessibilityViolations()).toEqual([]);

  // Opened by keyboard: the bill's details show what is kept.
  await row.getByRole('link', { name: /^HB 4242/ }).focus();
  await page.keyboard.press('Enter');
  await expect(details.heading()).toHaveText('HB 4242', { timeout: 15_000 });
  await expect(details.section('Tags')).toContainText('Libraries');
  await expect(details.section('Position')).toContainText('Keeps branches open late.');
  await expect(details.section('Annotations')).toContainText('Ask about weekends.');
  await expect(details.section('Annotations')).toContainText(samplePassage);
  await page.screenshot({ path: testInfo.outputPath('details-1280.png'), fullPage: true });
  expect(await details.seriousAccessibilityViolations()).toEqual([]);

  await page.getByRole('button', { name: 'Delete notes on HB 4242' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete these notes?' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(/\/tabs\/tracked/);
  await expect(tracked.removedNotes()).toHaveCount(0);
});
