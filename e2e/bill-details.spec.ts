import { expect, test } from './fixtures.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { ExportPage } from './pages/export-import-pages.ts';
import { fixtureFiles, fixturesRoot, signUpWithDataset } from './pages/dataset-pages.ts';
import { goodPassword, LoginPage, uniqueEmail } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';

// A bill's details: the record as imported (timeline, sponsors, votes, texts) and the user's
// tags, position and decision on it, changed here and kept across a reload.

const samples = join(dirname(fileURLToPath(import.meta.url)), 'samples');
const hostileSample = join(samples, 'details-hostile.csv');
const hostile = '<img src=x onerror=window.__pwned=1>';
const longWord = 'Supercalifragilistic'.repeat(15);
const rtl = 'قانون حماية المستأجرين';
const tenantBill = 'us-wa/2025-2026-regular-session/hb-4242';

test.describe('with a congress-json fixture', () => {
  test.skip(fixturesRoot === null, '../shared/fixtures is absent');

  test('shows the actions as a timeline in order, the sponsors and the votes', async ({ page }) => {
    await signUpWithDataset(
      page,
      'S.J.Res. 68',
      fixtureFiles('congress-json/116/bills/sjres/sjres68'),
    );
    const details = new BillDetailsPage(page);
    await details.openBill('us/116/sjres-68', 'S.J.Res. 68');

    // Newest first: what happened last is what a person opens a bill for.
    const steps = details.timeline().getByRole('listitem');
    await expect(steps).toHaveCount(30);
    await expect(details.timeline()).toHaveAccessibleName('Actions, newest first');
    await expectPainted(steps.first());
    await expect(steps.first()).toContainText('May 7, 2020');
    await expect(steps.first()).toContainText('Failed of passage in Senate over veto');
    await expect(steps.last()).toContainText('Jan 9, 2020');
    await expect(steps.last()).toContainText('Introduced in Senate');
    const oldestFirst = details.section(/^Actions/).getByRole('button', { name: 'Oldest first' });
    await expect(oldestFirst).toHaveAttribute('aria-pressed', 'false');
    await oldestFirst.click();
    await expect(oldestFirst).toHaveAttribute('aria-pressed', 'true');
    await expect(details.timeline()).toHaveAccessibleName('Actions, oldest first');
    await expect(steps.first()).toContainText('Jan 9, 2020');
    await expect(steps.first()).toContainText('Introduced in Senate');
    await expect(steps.nth(8)).toContainText('Feb 13, 2020');
    await expect(steps.nth(8)).toContainText('Passed Senate with amendments');
    await expect(steps.last()).toContainText('May 7, 2020');

    // The status in words with its date; the source's code only behind a disclosure. The
    // latest action has a label of its own.
    await expect(details.fact('Status')).toHaveText('Vetoed since May 7, 2020');
    await expectPainted(details.fact('Status'));
    await expect(details.fact('Latest action')).toHaveText(
      /^May 7, 2020: Failed of passage in Senate over veto/,
    );
    const code = page.getByText('VETOED:OVERRIDE_FAIL_ORIGINATING:SENATE', { exact: true });
    await expect(code).toBeHidden();
    await page.getByText('Status as the source gives it', { exact: true }).click();
    await expectPainted(code);

    await expect(details.section('Sponsors')).toContainText('Kaine');
    await expect(details.section(/^Cosponsors|Sponsors/).first()).toContainText('Cosponsors');

    const votes = details.votes();
    await expect(votes.getByRole('columnheader', { name: 'Yes' })).toBeVisible();
    const housePassage = votes.getByRole('row').filter({ hasText: '227' });
    await expect(housePassage).toContainText('186');
    await expect(housePassage).toContainText('Passed');
    await expect(votes.getByRole('row').filter({ hasText: '49' })).toContainText('Failed');

    expect(await details.seriousAccessibilityViolations()).toEqual([]);
  });

  test('votes read as a table on a laptop, a word to a line, and as one card per vote on a phone', async ({
    page,
  }) => {
    await signUpWithDataset(
      page,
      'S.J.Res. 68',
      fixtureFiles('congress-json/116/bills/sjres/sjres68'),
    );
    const details = new BillDetailsPage(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await details.openBill('us/116/sjres-68', 'S.J.Res. 68');
    const table = details.votes();
    await expectPainted(table.getByRole('columnheader', { name: 'Chamber' }));
    // No word in a cell is broken over two lines ("Cha/mbe/r" before).
    const brokenWords = await table.evaluate((element) => {
      const broken: string[] = [];
      for (const cell of Array.from(element.querySelectorAll('th, td'))) {
        const text = cell.firstChild;
        if (!(text instanceof Text)) continue;
        for (const match of text.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          const lines = new Set(
            Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)),
          );
          if (lines.size > 1) broken.push(match[0]);
        }
      }
      return broken;
    });
    expect(brokenWords).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(table).toBeHidden();
    const cards = page.getByRole('list', { name: /^Votes/ }).getByRole('listitem');
    await expect(page.getByRole('heading', { name: 'Votes (5)' })).toBeVisible();
    await expect(cards).toHaveCount(5);
    const housePassage = cards.filter({ hasText: '227' });
    await expectPainted(housePassage.getByText('Yes', { exact: true }));
    await expect(housePassage).toContainText('186');
    await expect(housePassage).toContainText('Passed');
    expect(await details.seriousAccessibilityViolations()).toEqual([]);
  });
});

test('an unknown or missing id says so and offers a way back', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open('/bill-details?id=us%2F116%2Fhr-999999');
  await login.createAccount(uniqueEmail(), goodPassword);
  await expect(page.getByText('No bill with this id on this device.')).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole('link', { name: 'Back to your tracked bills' })).toBeVisible();

  await page.goto('/bill-details');
  await expect(page.getByText('No bill was named: this page needs a bill id.')).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('link', { name: 'Back to your tracked bills' }).click();
  await expect(page).toHaveURL('/tabs/tracked');
});

test('tags, position and decision are changed on the details and kept after a reload', async ({
  page,
}) => {
  await signUpWithDataset(page, 'Tenant bills', [hostileSample]);
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');

  // A new tag made in the picker lands on the bill; removing it takes it off.
  await details.addTag('Housing', { create: true });
  await details.removeTagButton('Housing').click();
  await expect(page.getByText('No tags on this bill yet.')).toBeVisible();
  await expectPainted(details.toast('Removed the tag Housing.'));
  // The tag itself stays and is offered again.
  await details.addTag('Housing', { create: false });

  await expect(details.position('None')).toBeChecked();
  // By keyboard, arrowing from None up to Oppose passes Watch: only Oppose is saved and said.
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { toastsSaid: string[] }).toastsSaid = said;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (node instanceof HTMLElement && node.tagName === 'ION-TOAST') {
            said.push(String((node as unknown as { message?: unknown }).message));
          }
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await details.position('None').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(details.position('Oppose')).toBeChecked();
  await expect(details.position('Oppose')).toBeFocused();
  await expectPainted(details.toast('Position set to Oppose.'));
  expect(
    await page.evaluate(() =>
      (window as unknown as { toastsSaid: string[] }).toastsSaid.filter((message) =>
        message.startsWith('Position set to'),
      ),
    ),
  ).toEqual(['Position set to Oppose.']);

  await details.position('Support').check();
  await expectPainted(details.toast('Position set to Support.'));
  await expect(details.position('Support')).toBeChecked();

  await expect(details.section('Decision')).toContainText('Not triaged yet');
  await details.decisionButton('Track').click();
  await expect(details.section('Decision')).toContainText('Tracked');
  await details.decisionButton('Later').click();
  await expect(details.section('Decision')).toContainText('Saved for later');
  await expect(details.decisionButton('Later')).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(details.heading()).toHaveText('HB 4242', { timeout: 15_000 });
  await expect(details.position('Support')).toBeChecked();
  await expect(details.section('Decision')).toContainText('Saved for later');
  await expect(details.tagsOnBill().getByText('Housing', { exact: true })).toBeVisible();

  // The picker, open, passes the same accessibility scan.
  await details.addTagButton().click();
  await expect(details.picker()).toBeVisible();
  expect(await details.seriousAccessibilityViolations()).toEqual([]);
});

test('a position’s reason ("Why") saves as it is typed, stays after a reload and is exported', async ({
  page,
}) => {
  await signUpWithDataset(page, 'Tenant bills', [hostileSample]);
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');

  await details.position('Support').check();
  await expectPainted(details.toast('Position set to Support.'));
  const reason = `Keeps rents fair: ${hostile}\n=HYPERLINK("x") and ${rtl}`;
  await details.why().fill(reason);
  // No Save button: it saves a moment after the typing stops.
  await expectPainted(details.reasonSaved());

  await page.reload();
  await expect(details.heading()).toHaveText('HB 4242', { timeout: 15_000 });
  await expect(details.position('Support')).toBeChecked();
  await expect(details.why()).toHaveValue(reason);
  await expectPainted(details.why());
  // Shown as text: the markup is in the field's text, and nothing of it ran.
  expect(await page.locator('.bill-details img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();

  // Too long to keep: said at once, not saved, and not lost either (kept as a draft).
  const long = 'x'.repeat(2_001);
  await details.why().fill(long);
  await expectPainted(
    page.getByRole('alert').filter({
      hasText: 'A reason is at most 2,000 characters; this one has 2,001.',
    }),
  );
  await expect(details.why()).toHaveAttribute('aria-invalid', 'true');
  expect(await details.seriousAccessibilityViolations()).toEqual([]);
  await page.waitForTimeout(1_000);
  await page.reload();
  await expect(details.heading()).toHaveText('HB 4242', { timeout: 15_000 });
  await expect(details.why()).toHaveValue(reason);
  const offer = page.getByRole('group', { name: 'Restore your unsaved reason?' });
  await expectPainted(offer);
  await offer.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(offer).toBeHidden();

  // The export holds it: Docket JSON and the report CSV.
  const exporter = new ExportPage(page);
  await exporter.open();
  await exporter.scope('All bills').check();
  const json = JSON.parse((await exporter.export('Export JSON')).bytes.toString('utf8')) as {
    positions: { billId: string; position: string; reason?: string }[];
  };
  expect(json.positions).toHaveLength(1);
  expect(json.positions[0]).toMatchObject({ billId: tenantBill, position: 'support', reason });
  const report = (await exporter.export('Export report')).bytes.toString('utf8');
  expect(report).toContain('Reason');
  expect(report).toContain(`Keeps rents fair: ${hostile}`);
});

test('hostile text in a bill is shown as text and keeps the phone layout', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpWithDataset(page, 'Hostile bills', [hostileSample]);
  const details = new BillDetailsPage(page);
  await details.openBill(tenantBill, 'HB 4242');

  await expect(page.getByText(`${hostile} Tenant protection act`, { exact: true })).toBeVisible();
  await expect(details.section('Summary')).toContainText(longWord);
  await expect(details.section('Summary')).toContainText(rtl);
  await expect(details.section('Sponsors')).toContainText(`Rana ${hostile} (D)`);
  await expect(details.timeline()).toContainText(`Public hearing in ${hostile} committee.`);
  // On a phone the votes are cards, not a table.
  await expect(details.votes()).toBeHidden();
  await expect(details.section(/^Votes/).getByRole('listitem')).toContainText(
    `Final passage ${hostile}`,
  );

  // Text versions open on demand and hold the text as text (a region named by the version).
  const texts = details.section(/^Text versions/);
  await texts.getByRole('button', { name: 'Show text' }).click();
  const body = texts.getByRole('list', { name: 'Text versions' }).getByRole('region');
  await expect(body).toContainText(`tenants; ${hostile} and ${longWord}`);
  await expect(body).toContainText(rtl);

  expect(await page.locator('.bill-details img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  // Nothing pushes the page sideways on a phone.
  const overflow = await page.evaluate(() => {
    const article = document.querySelector('.bill-details');
    return article === null ? -1 : article.scrollWidth - article.clientWidth;
  });
  expect(overflow).toBe(0);

  expect(await details.seriousAccessibilityViolations()).toEqual([]);
});
