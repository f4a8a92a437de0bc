import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { signUpWithDataset } from './pages/dataset-pages.ts';
import { expectPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// "Print" on the Tracked tab and on a bill's details: what reaches paper is a document. The
// browser's print is stubbed (a dialog would stop the test); the page is then shown as it prints
// (print media) and printed to a PDF by Chromium, whose page count proves every bill is in it.

const hostileSample = join(
  dirname(fileURLToPath(import.meta.url)),
  'samples',
  'details-hostile.csv',
);
const BILLS = 30;

/** A Docket CSV of thirty California bills, AB 1 to AB 30; AB 1 with a roll call. */
function thirtyBills(path: string): string {
  const header =
    'jurisdiction,session,identifier,title,summary,status,status_date,raw_status,introduced_date,sponsors,cosponsors,subjects,actions,texts,votes,url,source,source_id,id';
  const rows = Array.from(
    { length: BILLS },
    (_, index) =>
      `us-ca,2025-2026,AB ${index + 1},Printed bill number ${index + 1},Summary of bill ${index + 1}.,introduced,2025-01-06,,2025-01-06,Maria Lopez; D; primary,,Water,2025-01-06; lower; Introduced and read first time,,${index === 0 ? '2025-01-20; lower; Third reading; 60; 15; 5; passed' : ''},,,,`,
  );
  writeFileSync(path, `${header}\n${rows.join('\n')}\n`);
  return path;
}

/** Replaces the browser's print dialog with a count of the times it was asked for. */
async function stubPrint(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const counted = window as unknown as { printed: number };
    counted.printed = 0;
    window.print = () => {
      counted.printed += 1;
    };
  });
  return () => page.evaluate(() => (window as unknown as { printed: number }).printed);
}

/** The pages of a PDF Chromium wrote: its page objects, which it does not compress. */
function pdfPages(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
}

test('Tracked prints every listed bill, a bill to a page, without the tab bar or buttons', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signUpWithDataset(page, 'Printed bills', [thirtyBills(testInfo.outputPath('thirty.csv'))]);
  const tracked = new TrackedPage(page);
  await tracked.open('?all=1&sort=identifier');
  await tracked.expectCount(`${BILLS} bills`);
  await tracked.startSelecting();
  await page.getByRole('button', { name: 'Select all' }).click();
  await page.getByRole('button', { name: 'Track selected' }).click();
  await expect(page.getByText(`Tracked ${BILLS} bills`, { exact: true })).toBeAttached({
    timeout: 30_000,
  });
  await tracked.open('?sort=identifier');
  await tracked.expectCount(`${BILLS} bills`);
  // On screen the list is virtualised: far from every row is in the page.
  expect((await tracked.identifiers()).length).toBeLessThan(BILLS);

  const printed = await stubPrint(page);
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(printed).toBe(1);
  expect(await seriousViolations(page)).toEqual([]);

  await page.emulateMedia({ media: 'print' });
  const report = page.getByRole('region', { name: 'Printed report' });
  await expect(report.getByRole('article')).toHaveCount(BILLS);
  for (let number = 1; number <= BILLS; number += 1) {
    await expect(
      report.getByRole('heading', {
        name: `California AB ${number} · 2025–2026 session`,
        exact: true,
      }),
    ).toBeVisible();
  }
  await expect(report.getByText('Printed bill number 30', { exact: true })).toBeVisible();
  // Each date with its label, as on the screen.
  const first = report.getByRole('article').first();
  await expect(
    first.getByRole('definition').filter({ hasText: /^Introduced since Jan 6, 2025$/ }),
  ).toBeVisible();
  await expect(
    first
      .getByRole('definition')
      .filter({ hasText: /^Jan 6, 2025: Introduced and read first time$/ }),
  ).toBeVisible();
  // The latest vote, with its result and totals.
  await expect(
    first
      .getByRole('definition')
      .filter({ hasText: /^Jan 20, 2025 · Third reading · Passed · 60 yes, 15 no, 5 other$/ }),
  ).toBeVisible();
  await expect(report.getByText(`${BILLS} bills`, { exact: true })).toBeVisible();
  await expect(page.locator('ion-tab-bar')).toBeHidden();
  await expect(page.locator('ion-header').first()).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Select', exact: true })).toBeHidden();
  await expect(page.getByLabel('Search', { exact: true })).toBeHidden();
  await expect(tracked.list()).toBeHidden();

  // A bill to a page: the PDF has at least one page per bill.
  const pdf = await page.pdf({ format: 'A4', printBackground: false });
  writeFileSync(testInfo.outputPath('tracked.pdf'), pdf);
  expect(pdfPages(pdf)).toBeGreaterThanOrEqual(BILLS);
  await page.emulateMedia({ media: 'screen' });
});

test('a bill’s details print as a document: the record, the position and why, no controls', async ({
  page,
}, testInfo) => {
  await signUpWithDataset(page, 'Tenant bills', [hostileSample]);
  const details = new BillDetailsPage(page);
  await details.openBill('us-wa/2025-2026-regular-session/hb-4242', 'HB 4242');
  await details.position('Oppose').check();
  await details.why().fill('Raises costs for small landlords.');
  await expectPainted(details.reasonSaved());

  const printed = await stubPrint(page);
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect.poll(printed).toBe(1);
  expect(await details.seriousAccessibilityViolations()).toEqual([]);

  await page.emulateMedia({ media: 'print' });
  await expect(details.heading()).toBeVisible();
  const position = details.section('Your position');
  await expect(position.getByRole('definition').filter({ hasText: /^Oppose$/ })).toBeVisible();
  await expect(
    position.getByRole('definition').filter({ hasText: /^Raises costs for small landlords\.$/ }),
  ).toBeVisible();
  await expect(details.position('Oppose')).toBeHidden();
  await expect(details.why()).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeHidden();
  await expect(details.addTagButton()).toBeHidden();
  await expect(page.locator('ion-header').first()).toBeHidden();
  await expect(details.timeline()).toBeVisible();
  const pdf = await page.pdf({ format: 'A4' });
  writeFileSync(testInfo.outputPath('details.pdf'), pdf);
  expect(pdfPages(pdf)).toBeGreaterThanOrEqual(1);
  await page.emulateMedia({ media: 'screen' });
});
