import { type Browser, type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AnnotationPage,
  sampleBillId,
  sampleFile,
  samplePassage,
} from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { AddDatasetPage, JobsPage, storedBills } from './pages/dataset-pages.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { ExportPage, ImportPage } from './pages/export-import-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// Export bills with the user's tags, positions and decisions, then import the CSV on an empty
// device of another account, and the JSON on a third: the bill comes back tracked, tagged and
// with its position. A damaged file is refused with a message and changes nothing.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';
const tagName = '=Housing <b>now</b>';

interface ExportedFile {
  name: string;
  bytes: Buffer;
}

/**
 * Signs up a new account on an empty device, imports the file there after checking its preview,
 * and sees the bill tracked, tagged and with its position, and no script of the bill's run.
 */
async function importIntoNewAccount(
  browser: Browser,
  file: ExportedFile,
  expected: {
    format: string;
    holds: string;
    added: string;
    before?: (importer: ImportPage, page: Page) => Promise<void>;
    keepOpen?: boolean;
  },
): Promise<{ context: BrowserContext; importer: ImportPage }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUpAt(page, '/import');
  const importer = new ImportPage(page);
  await expected.before?.(importer, page);
  await importer.pick(file.name, file.bytes, file.name.endsWith('.csv') ? 'text/csv' : undefined);
  await expect(importer.preview()).toContainText(expected.format);
  await expect(importer.preview()).toContainText(expected.holds);
  // The tag's name as it was typed: the quote that kept spreadsheets from running it is gone.
  await expect(importer.preview().getByRole('list', { name: 'Changes' })).toContainText(
    `HB 4242: tagged "${tagName}"`,
  );
  expect(await seriousViolations(page)).toEqual([]);
  expect(await storedBills(page)).toEqual([]);
  await importer.importButton().click();
  await expect(importer.status()).toContainText(`Imported ${file.name}: ${expected.added}`, {
    timeout: 30_000,
  });

  const tracked = new TrackedPage(page);
  await tracked.open();
  await expect(tracked.row('HB 4242')).toBeVisible({ timeout: 30_000 });
  await expect(tracked.row('HB 4242').getByText(tagName, { exact: true })).toBeVisible();
  await expect(tracked.row('HB 4242')).toContainText('Position: Support');
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  if (expected.keepOpen !== true) await context.close();
  return { context, importer };
}

test('bills exported as CSV and JSON come back on an empty device, tags and all', async ({
  page,
  browser,
}) => {
  // Three sign-ups, an import through the UI and two imports of files on a busy machine.
  test.setTimeout(180_000);
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add('Tenant bills', [sample]);
  await new JobsPage(page).expectStatus('Tenant bills', 'Done');

  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');
  await details.addTag(tagName, { create: true });
  await details.position('Support').check();
  await expect(details.position('Support')).toBeChecked();
  await details.decisionButton('Track').click();
  await expect(details.section('Decision')).toContainText('Tracked');

  const exporter = new ExportPage(page);
  await exporter.open();
  await exporter.scope('Tracked bills').check();
  await expect(page.getByText('1 bill and 0 annotations chosen.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const csv = await exporter.export('Export CSV');
  expect(csv.name).toMatch(/^docket-bills-tracked-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csvText = csv.bytes.toString('utf8').slice(1);
  expect(csvText.split('\r\n')[0]).toBe(
    'tags,position,position_updated_at,position_reason,decision,decided_at,jurisdiction,session,identifier,title,alternative_titles,summary,status,status_date,raw_status,introduced_date,sponsors,cosponsors,subjects,actions,texts,votes,url,source,source_id,id',
  );
  // The tag starts with "=": neutralised for spreadsheets.
  expect(csvText).toContain(`'${tagName}; #`);
  expect(csvText).toContain(',support,');
  expect(csvText).toContain(',track,');

  // Opened from the Tracked tab with its query: that list is what is offered first.
  await exporter.open('?all=1&q=4242');
  await expect(exporter.scope('Bills in the Tracked list as filtered')).toBeChecked();
  const listed = JSON.parse((await exporter.export('Export JSON')).bytes.toString('utf8')) as {
    selection: string;
    bills: { id: string }[];
  };
  expect(listed.selection).toBe('filtered');
  expect(listed.bills.map((bill) => bill.id)).toEqual([tenantBill]);

  await exporter.scope('All bills').check();
  const json = await exporter.export('Export JSON');
  const file = JSON.parse(json.bytes.toString('utf8')) as {
    format: string;
    version: number;
    bills: { id: string }[];
    tags: { name: string }[];
  };
  expect(file.format).toBe('docket-export');
  expect(file.version).toBe(1);
  expect(file.bills.map((bill) => bill.id)).toContain(tenantBill);
  expect(file.tags.map((tag) => tag.name)).toEqual([tagName]);

  // Another account on an empty device takes the CSV; a damaged file first is refused there
  // and changes nothing.
  await importIntoNewAccount(browser, csv, {
    format: 'Docket CSV',
    holds: '1 bill, 1 tag, 1 tag on a bill, 1 position and 1 decision',
    added: 'added 1 bill',
    before: async (importer, page) => {
      await importer.pick('damaged.json', json.bytes.subarray(0, 400));
      await expect(importer.refusal()).toContainText('damaged.json cannot be imported');
      await expect(importer.refusal()).toContainText('Nothing was changed.');
      expect(await storedBills(page)).toEqual([]);
    },
  });

  // A third account on an empty device takes the JSON, which holds all bills.
  const { context, importer } = await importIntoNewAccount(browser, json, {
    format: 'Docket JSON',
    holds: '2 bills, 1 tag, 1 tag on a bill, 1 position and 1 decision',
    added: 'added 2 bills',
    keepOpen: true,
  });

  // The CSV says the same, so importing it now changes nothing.
  await importer.open();
  await importer.pick(csv.name, csv.bytes, 'text/csv');
  await expect(importer.preview()).toContainText('Docket CSV');
  await expect(importer.preview()).toContainText('This device already has everything in the file.');
  await context.close();
});

test('annotations exported as Web Annotation JSON-LD come back on their passage', async ({
  page,
  browser,
}) => {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add('Library bills', [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus('Library bills', 'Done');
  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await annotation.selectWithMouse(samplePassage);
  await annotation.note().fill('Ask about "weekends", =1+1 <img src=x onerror=window.__pwned=1>');
  await annotation.save().click();
  await expect(annotation.status('Highlight saved.')).toBeVisible();

  const exporter = new ExportPage(page);
  await exporter.open();
  const bills = await exporter.export('Export JSON');
  const notes = await exporter.export('Export annotations');
  expect(notes.name).toMatch(/\.jsonld$/);
  const document = JSON.parse(notes.bytes.toString('utf8')) as {
    '@context': string;
    first: { items: { target: { selector: { type: string; exact?: string }[] } }[] };
  };
  expect(document['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
  expect(document.first.items[0]?.target.selector[0]).toMatchObject({
    type: 'TextQuoteSelector',
    exact: samplePassage,
  });

  const context = await browser.newContext();
  const other = await context.newPage();
  await signUpAt(other, '/import');
  const importer = new ImportPage(other);
  await importer.pick(bills.name, bills.bytes);
  await importer.importButton().click();
  await expect(importer.status()).toContainText(`Imported ${bills.name}`, { timeout: 30_000 });
  await importer.pick(notes.name, notes.bytes, 'application/ld+json');
  await expect(importer.preview()).toContainText('Web Annotation JSON-LD');
  await expect(importer.preview()).toContainText('1 annotation');
  await importer.importButton().click();
  await expect(importer.status()).toContainText('added 1 annotation', { timeout: 30_000 });

  const restored = new AnnotationPage(other);
  await restored.open(sampleBillId);
  await expect(restored.mark(samplePassage)).toBeVisible({ timeout: 15_000 });
  await expect(
    other.getByText('Ask about "weekends", =1+1 <img src=x onerror=window.__pwned=1>'),
  ).toBeVisible();
  expect(await other.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await context.close();
});
