import { expect, test } from './fixtures.ts';
import { ChartsPage } from './pages/charts-page.ts';
import { fixturesRoot } from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { trackTwoResolutions } from './pages/triaged-resolutions.ts';
import { expectPainted } from './pages/painted.ts';

// The Tracked tab's charts with real bills: three Senate joint resolutions of the 116th Congress
// imported through the add-dataset form, two of them tracked on the deck the way a person does.
// S.J.Res. 1 was referred to committee (actions in the week of Dec 31, 2018), S.J.Res. 7 was
// vetoed (actions from late January to May 2019), S.J.Res. 8 failed on cloture.

test.skip(fixturesRoot === null, '../shared/fixtures is absent');
// Each test signs up (the guard alone holds the login form 4 s), imports and triages.
test.slow();

test('tracked bills by status and per week, each bar leading to its filtered list', async ({
  page,
}) => {
  await signUpAt(page, '/add-dataset');
  await trackTwoResolutions(page);
  const charts = new ChartsPage(page);
  await charts.open();

  // Only the tracked bills count: the dismissed one (failed) has no bar.
  await expect(charts.statusChart().getByRole('link')).toHaveCount(2);
  expect(await charts.barNames(charts.statusChart())).toEqual([
    'In committee: 1 bill',
    'Vetoed: 1 bill',
  ]);
  await expect(charts.region()).toContainText('2 bills tracked');

  // Weeks run without gaps from S.J.Res. 1's first week to S.J.Res. 7's last.
  const weeks = await charts.barNames(charts.weekChart());
  expect(weeks[0]).toBe('Week of Dec 31, 2018: 1 bill');
  expect(weeks.at(-1)).toBe('Week of Apr 29, 2019: 1 bill');
  await expect(charts.weekChart().getByRole('listitem')).toHaveCount(18);

  expect(await charts.seriousViolations()).toEqual([]);

  // A bar leads to its filtered list, brought into view, its count taking the focus.
  await charts.statusChart().getByRole('link', { name: 'Vetoed: 1 bill' }).click();
  await expect(page).toHaveURL('/tabs/tracked?status=vetoed');
  const count = page.getByRole('status').filter({ hasText: /^1 bill · Vetoed$/ });
  await expect(count).toBeFocused();
  await expectPainted(count);
  await expect(count).toBeInViewport();

  // A week bar works from the keyboard too.
  await charts.open();
  await charts.weekChart().getByRole('link', { name: 'Week of Dec 31, 2018: 1 bill' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/tabs/tracked?week=2018-12-31');
});

test('the charts fit a 360 px phone and say so when nothing is tracked', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAt(page, '/tabs/tracked');
  const charts = new ChartsPage(page);
  // Folded at first: on a phone the search field comes before the charts.
  await expectPainted(page.getByLabel('Search', { exact: true }));
  await charts.unfold();
  await expect(charts.region()).toContainText('No tracked bills yet');

  await trackTwoResolutions(page);
  await charts.open();
  const bar = charts.statusChart().getByRole('link', { name: 'In committee: 1 bill' });
  await expect(bar).toBeVisible();
  const box = await bar.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
  // The weekly bars scroll sideways inside the chart, the latest week in view.
  const latest = charts.weekChart().getByRole('link', { name: 'Week of Apr 29, 2019: 1 bill' });
  await expect(latest).toBeInViewport();
  expect(await charts.seriousViolations()).toEqual([]);
  // The bars and their words keep their contrast in the dark theme too.
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await charts.seriousViolations()).toEqual([]);
});
