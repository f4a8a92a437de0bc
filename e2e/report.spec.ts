import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { ExportPage } from './pages/export-import-pages.ts';
import { signUpAt } from './pages/login-page.ts';

// The report CSV is for people: it must open in a spreadsheet as it was written. Here it is made
// through the export screen, opened by LibreOffice Calc (headless, as its CSV import dialog reads
// a UTF-8 file with a byte order mark), saved as a workbook, and the workbook saved back as CSV:
// the same rows and the same values come back.

const sample = join(dirname(fileURLToPath(import.meta.url)), 'samples', 'details-hostile.csv');

/** RFC 4180 rows, read here independently of Docket's own CSV reader. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        cell += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

const DATE_COLUMN = 6;
/** Status date, latest action date, latest vote date. */
const DATE_COLUMNS = [DATE_COLUMN, DATE_COLUMN + 1, DATE_COLUMN + 3];

/** A row with its date columns as the day they name (MM/DD/YYYY or MM/DD/YY). */
function sameDay(row: string[]): string[] {
  return row.map((cell, at) => {
    const date = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4})$/.exec(cell);
    if (!DATE_COLUMNS.includes(at) || date === null) return cell;
    const [, month, day, year] = date;
    return `${year?.length === 2 ? `20${year}` : year}-${month}-${day}`;
  });
}

function soffice(args: string[]): void {
  execFileSync('soffice', ['--headless', ...args], { stdio: 'pipe', timeout: 120_000 });
}

test('a report opens in LibreOffice Calc with one plain row per bill, as written', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add('Tenant bills', [sample]);
  await new JobsPage(page).expectStatus('Tenant bills', 'Done');

  const exporter = new ExportPage(page);
  await exporter.open();
  await exporter.scope('All bills').check();
  const file = await exporter.export('Export report');
  expect(file.name).toMatch(/^docket-report-all-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = file.bytes.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const written = csvRows(text.slice(1));
  expect(written[0]).toEqual([
    'Bill',
    'Jurisdiction',
    'Session',
    'Number',
    'Title',
    'Status',
    'Status date',
    'Latest action date',
    'Latest action',
    'Latest vote date',
    'Latest vote',
    'Latest vote result',
    'Latest vote totals',
    'Sponsor',
    'Tags',
    'Position',
    'Reason',
    'Decision',
    'Notes',
  ]);
  expect(written).toHaveLength(3);
  const tenant = written.find((row) => row[3] === 'HB 4242');
  expect(tenant?.slice(0, 3)).toEqual([
    'Washington HB 4242 · 2025-2026 Regular Session',
    'Washington',
    '2025-2026 Regular Session',
  ]);

  // The user profile of the run's own folder: LibreOffice writes one on first start.
  const dir = testInfo.outputPath('libreoffice');
  mkdirSync(join(dir, 'back'), { recursive: true });
  const profile = `-env:UserInstallation=file://${join(dir, 'profile')}`;
  writeFileSync(join(dir, 'report.csv'), file.bytes);
  soffice([
    profile,
    '--infilter=CSV:44,34,76,1',
    '--convert-to',
    'xlsx',
    '--outdir',
    dir,
    join(dir, 'report.csv'),
  ]);
  soffice([
    profile,
    '--convert-to',
    'csv:Text - txt - csv (StarCalc):44,34,76,1',
    '--outdir',
    join(dir, 'back'),
    join(dir, 'report.xlsx'),
  ]);
  const back = csvRows(readFileSync(join(dir, 'back', 'report.csv'), 'utf8'));
  // Calc read the dates as dates (the report writes them as the reader does, here en-US) and
  // writes them back in its own short form (01/11/25): the same day, not the same text.
  expect(back.map(sameDay)).toEqual(written.map(sameDay));
  expect(back[1]?.[DATE_COLUMN]).toMatch(/^\d{2}\/\d{2}\/\d{2}$/);
});
