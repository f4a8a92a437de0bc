import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  AnnotationPage,
  sampleBillId,
  sampleFile,
  samplePassage,
} from './pages/annotation-page.ts';
import { BillTagsPage } from './pages/bill-tags-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { goodPassword, LoginPage, uniqueEmail, signUpAt } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted, isPainted } from './pages/painted.ts';

// Drafts of the forms that would lose typed work: kept on the device as they are typed, offered
// back when the form opens again, gone once saved or discarded. The reconnect of spec §4 (go to
// the root, reload) is the reload a person meets without asking for it.

test.describe.configure({ timeout: 180_000 });

const DATASET = 'Library bills';

async function importSampleBill(page: Page): Promise<void> {
  await signUpAt(page, '/add-dataset');
  await expectScreenPainted(page);
  await new AddDatasetPage(page).add(DATASET, [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus(DATASET, 'Done');
  await expectScreenPainted(page);
}

function offer(page: Page, what: string) {
  return page.getByRole('group', { name: `Restore your unsaved ${what}?` });
}

test('a note typed offline survives the reconnect reload and is offered back', async ({
  page,
  context,
}) => {
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  await expect(offer(page, 'note')).toHaveCount(0);
  await annotation.selectWithMouse(samplePassage);
  await expect(annotation.selectedPassage()).toHaveText(samplePassage);
  await annotation.colour('Green').check();

  await context.setOffline(true);
  await expectPainted(page.getByText('Offline', { exact: true }));
  const note = 'Typed in the basement: ask the clerk about weekend hours.';
  await annotation.note().fill(note);
  // A person pauses a moment before the signal comes back.
  await page.waitForTimeout(600);

  const reloaded = page.waitForEvent('load');
  await context.setOffline(false);
  await reloaded;
  await expect(page).toHaveURL(/\/tabs\/bills$/);
  await expectScreenPainted(page, page.getByRole('tab', { name: 'Bills' }));

  await annotation.open(sampleBillId);
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  const offered = offer(page, 'note');
  await expectPainted(offered);
  await expectPainted(offered.getByText(note));
  await page.screenshot({ path: test.info().outputPath('draft-offer-1280.png') });
  await expect(annotation.note()).toHaveValue('');
  await offered.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(offered).toHaveCount(0);
  await expect(annotation.note()).toHaveValue(note);
  // The passage and colour come back with it, so Save is all that is left to do.
  await expectPainted(annotation.selectedPassage().filter({ hasText: samplePassage }));
  await expect(annotation.colour('Green')).toBeChecked();
  await annotation.save().click();
  await expect(annotation.highlights().getByRole('listitem')).toContainText(note);

  // Saved: the draft is gone, nothing is offered again.
  await page.reload();
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  // Below the text: scrolled to, as a person does.
  await annotation.highlights().getByText(note).scrollIntoViewIfNeeded();
  await expectPainted(annotation.highlights().getByText(note));
  expect(await isPainted(offer(page, 'note'))).toBe(false);
  await expect(offer(page, 'note')).toHaveCount(0);
});

test('a discarded draft is deleted; a draft is only offered to the account that typed it', async ({
  page,
  context,
}) => {
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  await annotation.note().fill('A thought I will not keep');
  await page.waitForTimeout(600);
  await page.reload();
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  const offered = offer(page, 'note');
  await expectPainted(offered);
  await offered.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(offered).toHaveCount(0);
  await expect(annotation.note()).toHaveValue('');
  await page.reload();
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'New highlight' }));
  await expect(annotation.text()).toBeVisible();
  await expect(offer(page, 'note')).toHaveCount(0);

  // Typed again, then another person signs in on this device: not offered to them.
  await annotation.note().fill('Only mine');
  await page.waitForTimeout(600);
  await page.goto('/logout');
  const login = new LoginPage(page);
  await login.waitForForm();
  await expect(page).toHaveURL(/\/login/);
  await expectScreenPainted(page);
  await context.clearCookies();
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page).toHaveURL(/\/tabs\/bills$/, { timeout: 15_000 });
  // The other account's work is in a database of its own: not the bill, not the draft.
  await annotation.open(sampleBillId);
  await expectScreenPainted(page, annotation.heading().filter({ hasText: 'Bill not found' }));
  await expect(offer(page, 'note')).toHaveCount(0);
  await expect(page.getByText('Only mine')).toHaveCount(0);
});

test('the new tag and the dataset forms offer their drafts back after a reload', async ({
  page,
}) => {
  // The dataset form asks before the page unloads with unsaved changes; a person says Leave.
  page.on('dialog', (dialog) => {
    void dialog.accept();
  });
  await signUpAt(page, '/add-dataset');
  await expectScreenPainted(page);
  const dataset = new AddDatasetPage(page);
  await page.getByLabel('Name', { exact: true }).fill('Session of 2026');
  await page.getByLabel('URL', { exact: true }).fill('/samples/bills.csv');
  await page.waitForTimeout(600);
  await page.reload();
  await expectScreenPainted(page);
  const datasetOffer = offer(page, 'dataset');
  await expectPainted(datasetOffer);
  await expectPainted(datasetOffer.getByText('Picked files are not kept: pick them again.'));
  await datasetOffer.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Session of 2026');
  await expect(page.getByLabel('URL', { exact: true })).toHaveValue('/samples/bills.csv');
  // Importing it lets the draft go.
  await dataset.files().setInputFiles(sampleFile('annotation-bill.csv'));
  await page.getByLabel('URL', { exact: true }).fill('');
  await dataset.importButton().click();
  await expect(page).toHaveURL('/jobs', { timeout: 30_000 });
  await expectScreenPainted(page);
  await page.goto('/add-dataset');
  await expectScreenPainted(page);
  await expect(page.getByLabel('Name', { exact: true })).toBeVisible();
  await expect(offer(page, 'dataset')).toHaveCount(0);

  const tags = new BillTagsPage(page);
  await tags.open();
  await expectScreenPainted(page);
  await page.getByRole('button', { name: 'New tag', exact: true }).click();
  await tags.nameField().fill('Rural libraries');
  await page.waitForTimeout(600);
  await page.reload();
  await expectScreenPainted(page);
  const tagOffer = offer(page, 'tag');
  await expectPainted(tagOffer);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectPainted(tagOffer);
  await page.screenshot({ path: test.info().outputPath('draft-offer-tag-390.png') });
  await tagOffer.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(tags.nameField()).toHaveValue('Rural libraries');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectPainted(tags.row('Rural libraries'));
  await page.reload();
  await expectScreenPainted(page);
  await expectPainted(tags.row('Rural libraries'));
  await expect(offer(page, 'tag')).toHaveCount(0);
});
