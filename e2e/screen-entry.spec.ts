import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectScreenPainted } from './pages/painted.ts';

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
