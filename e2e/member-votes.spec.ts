import { expect, test } from './fixtures.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { fixtureFiles, fixturesRoot, signUpWithDataset } from './pages/dataset-pages.ts';
import { expectPainted, expectScreenPainted } from './pages/painted.ts';

// Who voted how (issue 41): a real Open States vote event of the House (S.Con.Res. 33 of the
// 119th Congress, 430 members on the roll), opened from the bill's votes, searched by name,
// filtered by vote, and a member's votes on the tracked bills, by keyboard alone, photographed
// on a phone and a laptop.

const sizes = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

test.skip(fixturesRoot === null, '../shared/fixtures is absent');

test('a roll call opens to its members: found by name, filtered by vote, each leading to their votes', async ({
  page,
}) => {
  await signUpWithDataset(
    page,
    'S.Con.Res. 33',
    fixtureFiles('openstates-scrape/sessions/119/bills/SCONRES33'),
  );
  const details = new BillDetailsPage(page);
  await details.openBill('us/119/sconres-33', 'S.Con.Res. 33');
  // Tracked, so the member's record has a bill to list.
  await details.decisionButton('Track').click();

  // By keyboard: the vote's "Members" button, then Enter.
  const open = page.getByRole('button', { name: /^Members \(430\) of the vote On Agreeing/ });
  await expectPainted(open);
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  const members = page.getByRole('region', { name: /^Members: On Agreeing to the Resolution/ });
  await expectPainted(members.getByRole('heading', { level: 3 }));
  await expect(members.getByText('The totals agree with the 430 members listed.')).toBeVisible();
  const rows = members.getByRole('row');
  await expect(rows).toHaveCount(431);
  // Yes first, then by name: the first yes in the alphabet, then the noes after every yes.
  await expect(rows.nth(1)).toContainText('Aderholt');
  await expect(rows.nth(1).getByRole('cell').last()).toHaveText('Yes');
  await expect(rows.nth(216).getByRole('cell').last()).toHaveText('No');
  await expect(rows.nth(216)).toContainText('Adams');

  for (const size of sizes) {
    await page.setViewportSize(size);
    await expectPainted(members.getByLabel('Find a member', { exact: true }));
    await page.screenshot({ path: test.info().outputPath(`members-${String(size.width)}.png`) });
  }

  // "Find a member" narrows the list to one name, by typing alone.
  const find = members.getByLabel('Find a member', { exact: true });
  await find.focus();
  await page.keyboard.type('omar');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText('Omar');
  await expect(members.getByRole('status')).toHaveText('1 of 430 members');

  // The filter by vote: "No" shows only noes, 211 of them.
  await find.fill('');
  await members.getByLabel('Vote', { exact: true }).selectOption({ label: 'No' });
  await expect(rows).toHaveCount(212);
  await expect(members.getByRole('status')).toHaveText('211 of 430 members');
  await expect(members.getByRole('cell', { name: 'Yes', exact: true })).toHaveCount(0);
  await members.getByLabel('Vote', { exact: true }).selectOption({ label: 'Not voting' });
  await expect(rows).toHaveCount(4);

  // A member's name leads to their votes on the tracked bills.
  await members.getByLabel('Vote', { exact: true }).selectOption({ label: 'Every vote' });
  await find.fill('Omar');
  const link = members.getByRole('link', { name: 'Omar', exact: true });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/member\?id=bioguide%3AO000173$/);
  const heading = page.getByRole('heading', { level: 1, name: 'Votes of Omar on 1 tracked bill' });
  await expectScreenPainted(page, heading);
  await expect(heading).toBeFocused();
  await expect(page).toHaveTitle('Votes of Omar · Docket');
  const record = page.getByRole('list', { name: 'Votes of Omar' });
  await expect(record.getByRole('link', { name: /^S\.Con\.Res\. 33: / })).toBeVisible();
  await expect(record.getByRole('listitem').last()).toHaveText(
    'No · On Agreeing to the Resolution · Apr 30, 2026',
  );
  for (const size of sizes) {
    await page.setViewportSize(size);
    await expectPainted(record);
    await page.screenshot({ path: test.info().outputPath(`member-${String(size.width)}.png`) });
  }
});
