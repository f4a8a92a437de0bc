import { expect, test } from './fixtures.ts';
import {
  AnnotationPage,
  sampleBillId,
  sampleFile,
  samplePassage,
} from './pages/annotation-page.ts';
import { BillDetailsPage } from './pages/bill-details-page.ts';
import { AddDatasetPage, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';
import { cloudPasswordModal, openCloudPassword } from './pages/sync-device.ts';
import { underThumbSize } from './pages/touch.ts';

// A day on a phone (issue 40): at 390×844 with a touch screen, every control tapped daily is at
// least 44×44 CSS px (WCAG 2.5.5), measured where a person meets it: the deck's buttons and Undo,
// a bill's position choices, Add tag and Annotate, a highlight's colours and Save, Tracked's
// search and What changed's Refresh, More's sync buttons and the alerts switch, and the cloud
// password sheet's Go.

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 150_000 });

test('every control tapped daily is at least 44×44 on a phone', async ({ page }) => {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add('Library bills', [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus('Library bills', 'Done');

  const deck = new DeckPage(page);
  await deck.open();
  const card = deck.card().getByRole('heading', { level: 2 });
  await expect(card).toBeVisible({ timeout: 30_000 });
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  expect
    .soft(
      await underThumbSize({
        Track: button('Track'),
        Dismiss: button('Dismiss'),
        Later: button('Later'),
      }),
    )
    .toEqual([]);
  await deck.decide('Later', ((await card.textContent()) ?? '').trim());
  expect
    .soft(await underThumbSize({ Undo: page.getByRole('button', { name: /^Undo/ }) }))
    .toEqual([]);

  await page.screenshot({ path: test.info().outputPath('deck-390.png') });

  const details = new BillDetailsPage(page);
  await details.openBill(sampleBillId, 'HB 4242');
  const positions = Object.fromEntries(
    ['Support', 'Oppose', 'Watch', 'None'].map((name) => [
      name,
      page.locator('label').filter({ has: page.getByRole('radio', { name, exact: true }) }),
    ]),
  );
  expect
    .soft(
      await underThumbSize({
        ...positions,
        'Add tag': details.addTagButton(),
        Annotate: button('Annotate'),
      }),
    )
    .toEqual([]);

  const annotation = new AnnotationPage(page);
  await annotation.open(sampleBillId);
  await annotation.selectWithMouse(samplePassage);
  const colours = page
    .getByRole('group', { name: 'Colour' })
    .locator('label')
    .filter({ has: page.getByRole('radio') });
  await expect(colours.first()).toBeVisible();
  expect
    .soft(
      await underThumbSize({
        ...Object.fromEntries(
          (await colours.all()).map((radio, index) => [`colour ${String(index + 1)}`, radio]),
        ),
        Save: annotation.save(),
      }),
    )
    .toEqual([]);

  await page.goto('/tabs/tracked');
  await expect(page.getByRole('heading', { level: 1, name: 'Tracked' })).toBeVisible();
  const whatChanged = page
    .getByRole('group', { name: 'Show' })
    .getByRole('button', { name: 'What changed' });
  expect.soft(await underThumbSize({ 'What changed': whatChanged })).toEqual([]);
  await whatChanged.click();
  expect.soft(await underThumbSize({ Refresh: button('Refresh') })).toEqual([]);

  await page.goto('/tabs/more');
  await expect(page.getByRole('heading', { level: 1, name: 'More' })).toBeVisible();
  const alerts = page.getByRole('switch', { name: /^Alert me when followed bills change/ });
  expect
    .soft(
      await underThumbSize({
        'Sync now': button('Sync now'),
        'Cloud password': button('Cloud password'),
        'Sign out': button('Sign out'),
        alerts,
      }),
    )
    .toEqual([]);
  await openCloudPassword(page, 'Set a cloud password');
  const go = cloudPasswordModal(page).getByRole('button', { name: 'Go' });
  expect.soft(await underThumbSize({ Go: go })).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('cloud-password-390.png') });
});
