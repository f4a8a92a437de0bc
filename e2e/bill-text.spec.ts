import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { tinyPdf } from '@docket/core/test-support/tiny-pdf';
import { expect, test } from './fixtures.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { AnnotationPage, sampleFile } from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { BillTextPage } from './pages/bill-text-page.ts';
import { AddDatasetPage, DatasetsPage, JobsPage } from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';
import { workerSourcePort } from './source-port.ts';
import { SourceSimulatorServer, type SimulatedRequest } from './source-simulator.ts';

// The bills' own text, end to end: a source simulator on 127.0.0.1 serves a hand-made Docket CSV
// (e2e/samples/bill-text.csv) whose bill links three text versions on the simulator: two HTML
// versions laid out as GovInfo's (a <pre>; sent with CORS headers, so the browser downloads
// them itself) that differ in one sentence, and a PDF (sent without CORS headers, so it comes
// through the Docket server's relay, which SOURCE_HOSTS lets reach the simulator). "Get text"
// shows each with its sections, "Compare versions" marks the changed sentence, and a highlight
// made on the first version is found on the second.

const BILL_ID = 'us-wa/2023-2024-regular-session/hb-5151';
const PASSAGE = 'Every public library shall stay open';

function govInfoHtml(hour: string): string {
  return `<html><body><pre>
                                 H. B. 5151

AN ACT Relating to public library hours.

Section 1. SHORT TITLE.

    This Act may be cited as the Library Hours Act.

Sec. 2. HOURS.

    Every public library shall stay open until ${hour} in the evening on
weekdays.

Sec. 3. EFFECTIVE DATE.

    This act takes effect on July 1.
</pre></body></html>`;
}

const enrolledPdf = tinyPdf([
  ['HOUSE BILL 5151', 'AN ACT Relating to public library hours.', 'Sec. 4. REPORTS.'],
  ['The state librarian shall report on evening hours each year.'],
]);

interface Served {
  path: string;
  relayed: boolean;
}

/** The source: the dataset and its text versions, at paths of their own. */
class TextSourceSimulator extends SourceSimulatorServer<Served> {
  /** Which of the bill's versions the dataset lists: all three unless a test says fewer. */
  versions = 3;
  /** Until when the engrossed version keeps libraries open (a source may correct a text). */
  engrossedHour = 'ten';

  /** Listens on `port` (0: any free one) and returns the simulator's address. */
  override async start(port = 0): Promise<string> {
    this.base = await super.start(port);
    return this.base;
  }

  private base = '';

  /** The dataset: the sample with the bill's first `versions` text versions. */
  private dataset(): string {
    const csv = readFileSync(sampleFile('bill-text.csv'), 'utf8').replaceAll(
      '{{source}}',
      this.base,
    );
    const [head = '', row = ''] = csv.split('\n');
    const cells = row.split(',');
    const textsAt = head.split(',').indexOf('texts');
    cells[textsAt] = (cells[textsAt] ?? '').split(' | ').slice(0, this.versions).join(' | ');
    return `${head}\n${cells.join(',')}\n`;
  }

  protected answer(request: SimulatedRequest, response: ServerResponse): Served {
    const files: Record<string, { type: string; body: string | Uint8Array; cors: boolean }> = {
      '/bill-text.csv': { type: 'text/csv', body: this.dataset(), cors: true },
      '/hb5151-introduced.htm': { type: 'text/html', body: govInfoHtml('nine'), cors: true },
      '/hb5151-engrossed.htm': {
        type: 'text/html',
        body: govInfoHtml(this.engrossedHour),
        cors: true,
      },
      '/hb5151-enrolled.pdf': { type: 'application/pdf', body: enrolledPdf, cors: false },
    };
    const path = `${request.url.pathname}${request.url.search}`;
    const file = files[path];
    if (file === undefined) {
      response.statusCode = 404;
      response.end();
    } else {
      if (file.cors) response.setHeader('access-control-allow-origin', '*');
      response.setHeader('content-type', file.type);
      response.end(typeof file.body === 'string' ? file.body : Buffer.from(file.body));
    }
    return { path, relayed: request.relayed };
  }
}

test('Get text shows a version with its sections, Compare versions marks the changed sentence, a PDF becomes text, and a highlight on version 1 is placed on version 2', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const simulator = new TextSourceSimulator();
  // The server allows this host and port (SOURCE_HOSTS, set in playwright.config.ts).
  const base = await simulator.start(workerSourcePort());
  try {
    await signUpAt(page, '/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('Library texts');
    await form.url().fill(`${base}/bill-text.csv`);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('Library texts', 'Done');

    const details = new BillDetailsPage(page);
    await details.openBill(BILL_ID, 'HB 5151');
    const texts = new BillTextPage(page);
    await expect(texts.version('Introduced')).toContainText(
      'The dataset has no text for this version.',
    );

    // An HTML version: its sections as headings, its words as text.
    const introduced = await texts.getAndShow('Introduced');
    const hours = introduced.getByRole('heading', { level: 4, name: 'Sec. 2. HOURS.' });
    await expectPainted(hours);
    await expect(introduced.getByRole('heading', { level: 4 })).toHaveText([
      'Section 1. SHORT TITLE.',
      'Sec. 2. HOURS.',
      'Sec. 3. EFFECTIVE DATE.',
    ]);
    await expectPainted(introduced.getByText(/until nine in the evening/));
    await expect(texts.version('Introduced')).toContainText('Text fetched from the source on');

    // The second version, then the two compared word by word.
    await expectPainted(
      (await texts.getAndShow('Engrossed')).getByRole('heading', { name: 'Sec. 2. HOURS.' }),
    );
    await texts.compareButton().click();
    const comparison = texts.comparison();
    await expectPainted(comparison);
    await expect(comparison.locator('del')).toHaveText(['[removed: nine]']);
    await expect(comparison.locator('ins')).toHaveText(['[added: ten]']);
    await expectPainted(comparison.locator('del'));
    await expectPainted(comparison.locator('ins'));
    await expect(page.getByText('1 word added, 1 word removed.')).toBeVisible();
    // The diff ran in the diff worker, not on the page.
    expect(page.workers().some((worker) => worker.url().includes('version-diff-worker'))).toBe(
      true,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // A PDF version (through the relay: no CORS headers), read by pdf.js in its worker.
    const enrolled = await texts.getAndShow('Enrolled');
    await expectPainted(enrolled.getByRole('heading', { level: 4, name: 'Sec. 4. REPORTS.' }));
    await expectPainted(enrolled.getByText('The state librarian shall report on evening hours'));
    await expect(texts.version('Enrolled')).toContainText('read from its PDF');
    // The browser's own request reached the simulator, which sent no CORS headers, so the page
    // could not read it; the relay's could.
    expect(
      simulator.requests.filter((r) => r.path === '/hb5151-enrolled.pdf').map((r) => r.relayed),
    ).toEqual([false, true]);

    // A highlight made on the introduced text is found on the engrossed one.
    await texts
      .version('Introduced')
      .getByRole('link', { name: /^Highlight a passage/ })
      .click();
    const annotation = new AnnotationPage(page);
    // Named: while the page slides in, bill details' own heading is still in the page.
    await expect(page.getByRole('heading', { level: 1, name: 'New highlight' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(annotation.text()).toContainText('until nine in the evening');
    await annotation.selectWithMouse(PASSAGE);
    await expect(annotation.selectedPassage()).toHaveText(PASSAGE);
    await annotation.save().click();
    await expect(annotation.status('Highlight saved.')).toBeVisible();

    await page.goto(
      `/annotation?bill=${encodeURIComponent(BILL_ID)}&target=${encodeURIComponent('text:1')}`,
    );
    await expect(annotation.text()).toContainText('until ten in the evening', { timeout: 15_000 });
    await expectPainted(annotation.mark(PASSAGE));
    const carried = page.getByRole('list', { name: 'Highlights from other versions' });
    await expect(carried.getByRole('listitem')).toHaveCount(1);
    await expect(carried).toContainText(PASSAGE);
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await simulator.stop();
  }
});

test('a refresh that brings version 2 of a tracked bill fetches its text, a highlight made on version 1 is drawn in it on bill details, and Get text again replaces it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const simulator = new TextSourceSimulator();
  // Only the introduced version at first; both HTML versions are sent with CORS headers.
  simulator.versions = 1;
  const base = await simulator.start(0);
  try {
    await signUpAt(page, '/add-dataset');
    const form = new AddDatasetPage(page);
    await form.waitForForm();
    await form.name().fill('Library texts');
    await form.url().fill(`${base}/bill-text.csv`);
    await form.importAndOpenJobs();
    await new JobsPage(page).expectStatus('Library texts', 'Done');

    // Tracked, its introduced text fetched and a passage of it highlighted.
    const details = new BillDetailsPage(page);
    await details.openBill(BILL_ID, 'HB 5151');
    await details.decisionButton('Track').click();
    await expect(details.decisionButton('Track')).toHaveAttribute('aria-pressed', 'true');
    const texts = new BillTextPage(page);
    await texts.getAndShow('Introduced');
    await texts
      .version('Introduced')
      .getByRole('link', { name: /^Highlight a passage/ })
      .click();
    const annotation = new AnnotationPage(page);
    await expect(annotation.text()).toContainText('until nine in the evening', {
      timeout: 15_000,
    });
    await annotation.selectWithMouse(PASSAGE);
    await annotation.save().click();
    await expect(annotation.status('Highlight saved.')).toBeVisible();

    // The highlight is drawn in bill details' own view of the text, with words, not colour alone.
    await details.openBill(BILL_ID, 'HB 5151');
    await texts.version('Introduced').getByRole('button', { name: 'Show text' }).click();
    const own = texts.text('Introduced').locator('mark');
    await expect(own).toHaveText(`[highlight: ${PASSAGE}]`);
    await expectPainted(own);

    // The refresh brings the engrossed version: its text is fetched without asking.
    simulator.versions = 2;
    await page.goto('/tabs/datasets');
    const row = new DatasetsPage(page).dataset('Library texts');
    await row.getByRole('button', { name: 'Refresh Library texts' }).click();
    await expect(row).toContainText('1 bill with news', { timeout: 60_000 });

    await details.openBill(BILL_ID, 'HB 5151');
    const engrossed = texts.version('Engrossed');
    await expect(engrossed).toContainText('Text fetched from the source on', { timeout: 30_000 });
    await expect(engrossed.getByRole('button', { name: /^Get text: / })).toHaveCount(0);
    await engrossed.getByRole('button', { name: 'Show text' }).click();
    const carried = texts.text('Engrossed').locator('mark');
    await expect(texts.text('Engrossed')).toContainText('until ten in the evening');
    await expect(carried).toHaveText(`[highlight from another version: ${PASSAGE}]`);
    await expectPainted(carried);
    await expect(engrossed).toContainText(
      '1 highlight in this text, underlined; dashed where made on another version.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(simulator.requests.filter((r) => r.path === '/hb5151-engrossed.htm')).toHaveLength(1);

    // "Get text again": the source corrected its text; the copy on this device is replaced, and
    // the highlight is found in the new words.
    simulator.engrossedHour = 'eleven';
    await engrossed.getByRole('button', { name: 'Get text again: Engrossed' }).click();
    await expect(engrossed.getByRole('status').filter({ hasText: 'Text fetched.' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(texts.text('Engrossed')).toContainText('until eleven in the evening');
    await expectPainted(carried);
    expect(simulator.requests.filter((r) => r.path === '/hb5151-engrossed.htm')).toHaveLength(2);
  } finally {
    await simulator.stop();
  }
});
