import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signUpWithDataset } from './pages/dataset-pages.ts';
import { deckSample } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted, expectScreenPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';

// By keyboard and screen reader (issue 40): each navigation names the screen in the document's
// title and moves focus to its heading, so a screen reader says where the person is, instead of
// focus staying on the body (or on the control of the page just left).

async function expectEntered(page: Page, screen: string): Promise<void> {
  await expect(page).toHaveTitle(`${screen} · Docket`);
  await expect(page.getByRole('heading', { level: 1, name: screen, exact: true })).toBeFocused();
}

test('each screen reached by keyboard is named in the title and its heading has focus', async ({
  page,
}) => {
  await signUpAt(page, '/tabs/bills');
  await expectScreenPainted(page);
  await expectEntered(page, 'Bills');

  // The tab bar, by keyboard: focus the tab, press Enter.
  for (const tab of ['Tracked', 'Datasets', 'More']) {
    await page.getByRole('tab', { name: tab }).focus();
    await page.keyboard.press('Enter');
    await expectScreenPainted(page);
    await expectEntered(page, tab);
  }

  // A link of the More tab, then back.
  await page.getByRole('link', { name: 'Tags', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/bill-tags');
  await expectScreenPainted(page);
  await expectEntered(page, 'Tags');
  await page.goBack();
  await expect(page).toHaveURL('/tabs/more');
  await expectEntered(page, 'More');
});

test('the list and the tab bar are a few keys from the heading: skip links and arrow keys', async ({
  page,
}) => {
  await signUpWithDataset(page, 'Skip sample', [deckSample('deck-small.csv')]);
  const tracked = new TrackedPage(page);
  await tracked.open();
  await tracked.showAll();
  await tracked.expectCount('3 bills');
  const heading = page.getByRole('heading', { level: 1, name: 'Tracked', exact: true });

  // From the heading: one Tab to "Skip to the list", Enter, one Tab to the first bill (past
  // the views, the search, the filters and the toolbar).
  await heading.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Skip to the list' })).toBeFocused();
  await expectPainted(page.getByRole('button', { name: 'Skip to the list' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Bills listed' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(tracked.list().getByRole('link').first()).toBeFocused();

  // Two Tabs to "Skip to the tabs"; then the arrow keys move along the tab bar, Enter opens.
  await heading.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Skip to the tabs' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Tracked' })).toBeFocused();
  // Enter's keyup reached no tab: the list is still the one shown, all bills.
  await expect(page).toHaveURL(/all=1/);
  await tracked.expectCount('3 bills');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Datasets' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'More' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Bills' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Backups' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expectScreenPainted(page);
  await expectEntered(page, 'Backups');
});
