import { seriousViolations } from './pages/accessibility.ts';
import { expect, test } from './fixtures.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { fixtureFiles, fixturesRoot, signUpWithDataset } from './pages/dataset-pages.ts';
import { expectPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// A sponsor is a link that lists that person's bills: on a bill's details each sponsor and
// cosponsor leads to the Tracked tab's list of every bill they sponsor or cosponsor, the filter
// said in words ("Sponsored by Tim Kaine") and removable, and the tracked / all switch and the
// triage lists still narrow it. Five BILLSTATUS files of the 116th Congress: Tim Kaine
// (bioguide K000384) sponsors S.J.Res. 63, 68 and 69 and cosponsors S.J.Res. 7; S.J.Res. 2 is
// Charles Schumer's alone.

test.skip(fixturesRoot === null, '../shared/fixtures is absent');

const resolutions = [2, 7, 63, 68, 69];
const kaines = ['S.J.Res. 7', 'S.J.Res. 63', 'S.J.Res. 68', 'S.J.Res. 69'];

test('a sponsor on bill details lists that person’s bills on Tracked', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpWithDataset(
    page,
    'Joint resolutions',
    resolutions.flatMap((number) =>
      fixtureFiles(`billstatus-xml-116/116/bills/sjres/sjres${number}`),
    ),
  );
  const details = new BillDetailsPage(page);
  await details.openBill('us/116/sjres-68', 'S.J.Res. 68');
  await details.decisionButton('Track').click();
  await expect(details.decisionButton('Track')).toHaveAttribute('aria-pressed', 'true');

  const sponsor = details.section('Sponsors').getByRole('link', { name: 'Tim Kaine', exact: true });
  await expectPainted(sponsor);
  // The party and seat stay beside the link, as text.
  await expect(sponsor.locator('..')).toContainText('Tim Kaine (D, VA)');
  expect(await details.seriousAccessibilityViolations()).toEqual([]);
  await sponsor.click();

  // Every bill of the person, tracked or not.
  const tracked = new TrackedPage(page);
  await expect(page).toHaveURL(/\/tabs\/tracked\?all=1&sponsor=id%3AK000384$/);
  const chip = page.getByText('Sponsored by Tim Kaine', { exact: true });
  await expectPainted(chip);
  await tracked.expectCount('4 bills');
  await expect(tracked.allSwitch()).toBeChecked();
  for (const identifier of kaines) await expectPainted(tracked.row(identifier));
  await expect(tracked.row('S.J.Res. 2')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Printed, the report says whose bills these are.
  await page.evaluate(() => {
    window.print = () => undefined;
  });
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await page.emulateMedia({ media: 'print' });
  const report = page.getByRole('region', { name: 'Printed report' });
  await expect(report.getByRole('article')).toHaveCount(4);
  await expect(report.getByText('4 bills · Sponsored by Tim Kaine', { exact: true })).toBeVisible();
  await expect(chip).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // Only tracked ones, then one triage list: the person's filter stays.
  await tracked.allSwitch().click();
  await expect(tracked.allSwitch()).not.toBeChecked();
  await tracked.expectCount('1 bill');
  await expectPainted(tracked.row('S.J.Res. 68'));
  await expectPainted(chip);
  await page.getByRole('combobox', { name: 'Decision', exact: true }).selectOption('undecided');
  await tracked.expectCount('3 bills');
  await expect(tracked.row('S.J.Res. 68')).toHaveCount(0);
  await expectPainted(tracked.row('S.J.Res. 63'));

  // Removed: the list is the triage list's again, and the URL forgets the person.
  await page.getByRole('button', { name: 'Remove the filter: sponsored by Tim Kaine' }).click();
  await expect(chip).toHaveCount(0);
  await tracked.expectCount('4 bills');
  await expectPainted(tracked.row('S.J.Res. 2'));
  await expect(page).not.toHaveURL(/sponsor=/);

  // A cosponsor is a link too, from the folded list of a bill with many.
  await details.openBill('us/116/sjres-7', 'S.J.Res. 7');
  await page.getByText('Show all 19 cosponsors', { exact: true }).click();
  await details.section('Sponsors').getByRole('link', { name: 'Tim Kaine', exact: true }).click();
  await expectPainted(chip);
  await tracked.expectCount('4 bills');
  await expectPainted(tracked.row('S.J.Res. 7'));
});
