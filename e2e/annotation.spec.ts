import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  AnnotationPage,
  annotationUrl,
  sampleBillId,
  sampleFile,
  samplePassage,
  summaryOnlyBillId,
} from './pages/annotation-page.ts';
import { AddDatasetPage, DatasetsPage, JobsPage } from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';

// Highlights with notes on a bill's text, driven by mouse and keyboard, kept across a reload and
// across re-imports that move the passage or take it away. The bill is a hand-made Docket CSV
// (e2e/samples/annotation-bill*.csv) holding hostile strings in its title and text, beside a
// bill without any text, annotated on its summary.

const DATASET = 'Library bills';

// Sign-up, an import and up to two re-imports through the UI take longer than the default.
test.describe.configure({ timeout: 180_000 });

async function importSampleBill(page: Page): Promise<void> {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add(DATASET, [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus(DATASET, 'Done');
}

/** Imports the dataset again from another version of its file, as a person edits a dataset. */
async function reimport(page: Page, file: string): Promise<void> {
  const datasets = new DatasetsPage(page);
  await datasets.open();
  await datasets.dataset(DATASET).getByRole('link', { name: DATASET }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit dataset' })).toBeVisible();
  const form = new AddDatasetPage(page);
  await form.files().setInputFiles(sampleFile(file));
  await form.importButton().click();
  await expect(page).toHaveURL('/jobs', { timeout: 30_000 });
  await expect(new JobsPage(page).job(DATASET)).toContainText(
    '0 added, 1 updated, 1 unchanged, 0 removed',
    { timeout: 60_000 },
  );
}

test('a highlight made with the mouse stays, follows its passage on re-import, then is an orphan', async ({
  page,
}) => {
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await expect(annotation.heading()).toHaveText('New highlight');
  await expect(annotation.text()).toContainText('Sec. 1. Every public library shall');
  await annotation.expectNoSeriousAccessibilityViolations();

  await annotation.selectWithMouse(samplePassage);
  await expect(annotation.selectedPassage()).toHaveText(samplePassage);
  await annotation.colour('Green').check();
  await annotation.note().fill('Ask about weekends: https://example.org/library-hours.');
  await annotation.save().click();

  await expect(annotation.status('Highlight saved.')).toBeVisible();
  await expect(annotation.mark(samplePassage)).toBeVisible();
  await expect(annotation.mark(samplePassage)).toHaveCSS('background-color', 'rgb(185, 246, 202)');
  const card = annotation.highlights().getByRole('listitem');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(samplePassage);
  await expect(
    card.getByRole('link', { name: 'https://example.org/library-hours' }),
  ).toHaveAttribute('href', 'https://example.org/library-hours');

  await page.reload();
  await expect(annotation.mark(samplePassage)).toBeVisible({ timeout: 15_000 });
  await expect(annotation.highlights()).toContainText('Ask about weekends');

  // Text inserted before the passage: the highlight moves with it.
  await reimport(page, 'annotation-bill-moved.csv');
  await annotation.open(sampleBillId);
  await expect(annotation.text()).toContainText('Sec. 0. The words used in this act');
  await expect(annotation.mark(samplePassage)).toBeVisible();
  const markStart = await annotation.text().evaluate((region) => {
    const mark = region.querySelector('mark');
    const range = document.createRange();
    range.setStart(region, 0);
    if (mark) range.setEndBefore(mark);
    return range.toString().length;
  });
  const movedText = (await annotation.text().textContent()) ?? '';
  expect(markStart).toBe(movedText.indexOf(samplePassage));
  await expect(annotation.orphans()).toHaveCount(0);

  // The passage taken out: the highlight is kept, with its quote, as an orphan.
  await reimport(page, 'annotation-bill-gone.csv');
  await annotation.open(sampleBillId);
  await expect(annotation.text()).toContainText('board sets its own opening times');
  await expect(annotation.text().locator('mark')).toHaveCount(0);
  const orphan = annotation.orphans().getByRole('listitem');
  await expect(orphan).toHaveCount(1);
  await expect(orphan).toContainText(samplePassage);
  await expect(orphan).toContainText('Ask about weekends');
  await annotation.expectNoSeriousAccessibilityViolations();

  // Still editable and deletable.
  await orphan.getByRole('link', { name: samplePassage }).click();
  await expect(annotation.heading()).toHaveText('Highlight');
  await expect(page.getByRole('heading', { name: 'Orphaned highlight' })).toBeVisible();
  await expect(page.locator('blockquote')).toHaveText(samplePassage);
  await expect(annotation.note()).toHaveValue(
    'Ask about weekends: https://example.org/library-hours.',
  );
  await annotation.note().fill('Gone from the new text; ask the sponsor why.');
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();
  await page.reload();
  await expect(annotation.orphans()).toContainText('ask the sponsor why', { timeout: 15_000 });

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Delete highlight' }).click();
  await expect(annotation.status('Highlight deleted.')).toBeVisible();
  await expect(annotation.heading()).toHaveText('Highlight deleted');
  await page.getByRole('link', { name: 'New highlight on HB 4242' }).click();
  await expect(annotation.heading()).toHaveText('New highlight');
  await expect(page.getByText('None yet.')).toBeVisible();
  await expect(annotation.orphans()).toHaveCount(0);
});

test('hostile notes and bill text show as text, selected with the keyboard alone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);

  // The bill's own markup is characters on the screen, not elements.
  await expect(annotation.text()).toContainText('<img src=x onerror=window.__pwned=1>');
  await expect(page.getByText('Library hours <script>window.__pwned=1</script>')).toBeVisible();
  await expect(annotation.text().locator('img')).toHaveCount(0);

  // The text itself takes the keyboard: Tab to it, the arrows move a caret, and what the caret
  // is before, then what is selected, is read out.
  await annotation.moveCaretBefore('Sec. 2.');
  await expect(annotation.said()).toHaveText('Before: “Sec. 2. The board may close a…”');
  // A word at a time with Ctrl+Shift+Right (Chromium stops at each "." too): Sec . 2 . The board
  // may close a branch.
  for (let word = 0; word < 10; word++) await page.keyboard.press('Control+Shift+ArrowRight');
  await expect(annotation.said()).toHaveText('Selected: “Sec. 2. The board may close a branch”');
  await expect(annotation.selectedPassage()).toHaveText('Sec. 2. The board may close a branch');
  // Enter goes on to the highlight, at its first field.
  await page.keyboard.press('Enter');
  await expect(annotation.colour('Yellow')).toBeFocused();
  const hostile =
    '<img src=x onerror=window.__pwned=1> javascript:alert(1) and https://example.org/ok';
  await annotation.note().fill(hostile);
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const card = annotation.highlights().getByRole('listitem');
  await expect(card).toContainText(hostile);
  await expect(card.locator('img')).toHaveCount(0);
  const links = card.locator('a[href^="http"]');
  await expect(links).toHaveCount(1);
  await expect(links).toHaveAttribute('href', 'https://example.org/ok');
  await expect(links).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(links).toHaveAttribute('target', '_blank');
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);

  // The long word and the right-to-left words wrap inside the text at phone width.
  const overflow = await annotation
    .text()
    .evaluate((region) => region.scrollWidth - region.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Its own page: the quote, the note as text with its one link, editable.
  await card.getByRole('link', { name: 'Sec. 2. The board may close a branch' }).click();
  await expect(annotation.heading()).toHaveText('Highlight');
  await expect(annotation.note()).toHaveValue(hostile);
  await expect(page.locator('.saved-note')).toContainText(hostile);
  await annotation.colour('Pink').check();
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();
  await expect(annotation.mark('Sec. 2. The board may close a branch')).toHaveCSS(
    'background-color',
    'rgb(248, 187, 208)',
  );
  await annotation.expectNoSeriousAccessibilityViolations();
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('an unknown bill or annotation says so and leads back', async ({ page }) => {
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);

  await page.goto(annotationUrl('us/999/hr-0'));
  await expect(annotation.heading()).toHaveText('Bill not found', { timeout: 15_000 });
  await expect(page.getByText('There is no bill "us/999/hr-0" on this device')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your tracked bills' })).toBeVisible();

  await page.goto(annotationUrl(sampleBillId, 'no-such-annotation'));
  await expect(annotation.heading()).toHaveText('Annotation not found', { timeout: 15_000 });
  await expect(page.getByRole('link', { name: 'Back to HB 4242' })).toHaveAttribute(
    'href',
    `/bill-details?id=${encodeURIComponent(sampleBillId)}`,
  );
  await annotation.expectNoSeriousAccessibilityViolations();

  // Saving without a passage, or with an over-long note, is refused with a message.
  await page.getByRole('link', { name: 'New highlight on HB 4242' }).click();
  await expect(annotation.heading()).toHaveText('New highlight');
  await annotation.save().click();
  await expect(page.getByRole('alert')).toHaveText('Select a passage of the text to annotate.');
  await annotation.selectWithMouse('Sec. 4. This act takes effect');
  await annotation.note().fill('x'.repeat(100_001));
  await annotation.save().click();
  await expect(page.getByRole('alert')).toContainText('A note is at most 100,000 characters');
  await expect(annotation.text().locator('mark')).toHaveCount(0);
});

test('a bill without text is annotated on its summary', async ({ page }) => {
  await importSampleBill(page);
  const annotation = new AnnotationPage(page);
  await annotation.open(summaryOnlyBillId);
  await expect(annotation.heading()).toHaveText('New highlight');
  const chooser = page.getByLabel('Text shown', { exact: true });
  await expect(chooser).toHaveValue('title');
  await expect(annotation.text()).toHaveText('Reading rooms in rural branches');
  await chooser.selectOption({ label: 'Summary' });
  await expect(annotation.text()).toContainText('Funds reading rooms');

  await annotation.selectWithMouse('sets their hours by county');
  await expect(annotation.selectedPassage()).toHaveText('sets their hours by county');
  await annotation.colour('Blue').check();
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();
  await expect(annotation.mark('sets their hours by county')).toBeVisible();
  await expect(chooser.locator('option:checked')).toHaveText('Summary (1 highlight)');

  await page.reload();
  await expect(annotation.heading()).toHaveText('New highlight', { timeout: 15_000 });
  await page.getByLabel('Text shown', { exact: true }).selectOption('summary');
  await expect(annotation.mark('sets their hours by county')).toBeVisible();
  await annotation.expectNoSeriousAccessibilityViolations();
});
