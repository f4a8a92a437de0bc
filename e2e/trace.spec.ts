import { expect, test } from './fixtures.ts';
import { ExportPage, ImportPage, TracePage } from './pages/export-import-pages.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { signUpAt } from './pages/login-page.ts';

// The trace screen: what the device did (here an export and a refused import, whose file name
// is hostile text), newest first, filtered by kind and time, and exported as JSON.

const hostileName = '<img src=x onerror=window.__pwned=1>.json';

test('the trace lists what the device did, filters it and exports it', async ({ page }) => {
  await signUpAt(page, '/export');

  const exporter = new ExportPage(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible();
  await exporter.export('Export JSON');
  const importer = new ImportPage(page);
  await importer.open();
  await importer.pick(hostileName, Buffer.from('{"format": "docket-export", "version": 1}'));
  await expect(importer.refusal()).toContainText('cannot be imported');

  const trace = new TracePage(page);
  await trace.open();
  // Newest first: the refused import, then the export before it.
  await expect
    .poll(async () =>
      (await trace.kinds()).filter((kind) => kind === 'import' || kind === 'export'),
    )
    .toEqual(['import', 'export']);
  // Details are text: the hostile file name shows as written and runs nothing.
  await expect(trace.list().getByText(hostileName, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await seriousViolations(page)).toEqual([]);

  await trace.kind().selectOption('export');
  await expect.poll(() => trace.kinds()).toEqual(['export']);
  await expect(trace.entries().first()).toContainText('format');
  await expect(trace.entries().first()).toContainText('json');
  await trace.time().selectOption({ label: 'Last hour' });
  await expect.poll(() => trace.kinds()).toEqual(['export']);

  const file = JSON.parse((await trace.exportTrace()).toString('utf8')) as {
    format: string;
    filter: { kind: string; window: string };
    entries: { kind: string }[];
  };
  expect(file.format).toBe('docket-trace');
  expect(file.filter).toEqual({ kind: 'export', window: 'hour' });
  expect(file.entries.map((entry) => entry.kind)).toEqual(['export']);
  await expect(trace.status()).toHaveText(/^Exported 1 entry to docket-trace-/);

  await trace.kind().selectOption({ label: 'All kinds' });
  await expect.poll(async () => (await trace.kinds()).length).toBeGreaterThanOrEqual(2);

  // On a phone the entries, hostile text included, stay inside the screen; so do the forms.
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = () =>
    page.locator('.page-body').evaluate((element) => element.scrollWidth - element.clientWidth);
  await expect(trace.list().getByText(hostileName, { exact: true })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await exporter.open();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await importer.open();
  expect(await overflow()).toBeLessThanOrEqual(0);
});
