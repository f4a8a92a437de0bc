import { type Page } from '@playwright/test';
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
import { expectPainted } from './pages/painted.ts';
import { cloudPasswordModal, openCloudPassword } from './pages/sync-device.ts';
import { underThumbSize } from './pages/touch.ts';

// A day on a phone (issue 40): at 390×844 with a touch screen, every control tapped daily is at
// least 44×44 CSS px (WCAG 2.5.5), measured where a person meets it: the deck's buttons and Undo,
// a bill's position choices, Add tag and Annotate, a highlight's colours and Save, Tracked's
// search and What changed's Refresh, More's sync buttons and the alerts switch, and the cloud
// password sheet's Go. The deck's buttons sit in a bar across the bottom, above the tab bar, where
// the thumb rests; a focused field stays above the on-screen keyboard.

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

/** Signs up and imports the sample with HB 4242, so the deck has a card and the bill a page. */
async function signUpWithSample(page: Page): Promise<void> {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add('Library bills', [sampleFile('annotation-bill.csv')]);
  await new JobsPage(page).expectStatus('Library bills', 'Done');
}

test("the deck's buttons sit across the bottom, above the tab bar, under the card", async ({
  page,
}) => {
  await signUpWithSample(page);
  const deck = new DeckPage(page);
  await deck.open();
  const heading = deck.card().getByRole('heading', { level: 2 });
  await expect(heading).toBeVisible({ timeout: 30_000 });

  const viewportHeight = 844;
  const tabBar = await page.locator('ion-tab-bar').boundingBox();
  expect(tabBar, 'the tab bar is on screen').not.toBeNull();
  const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
  for (const name of ['Dismiss', 'Later', 'Track'] as const) {
    const box = await deck.button(name).boundingBox();
    expect(box, `${name} is on screen`).not.toBeNull();
    if (box === null) continue;
    boxes[name] = box;
    const bottom = box.y + box.height;
    expect
      .soft(bottom, `${name}'s bottom is in the lower 200 px`)
      .toBeGreaterThanOrEqual(viewportHeight - 200);
    expect.soft(bottom, `${name}'s bottom is on screen`).toBeLessThanOrEqual(viewportHeight);
    if (tabBar !== null) {
      expect.soft(bottom, `${name} is above the tab bar`).toBeLessThanOrEqual(tabBar.y + 1);
    }
    expect.soft(box.width, `${name}'s width`).toBeGreaterThan(80);
    expect.soft(box.height, `${name}'s height`).toBeGreaterThanOrEqual(44);
    // Painted: nothing covers the button where it is.
    await expectPainted(deck.button(name));
  }
  // In the order of the DOM, left to right.
  expect(boxes.Dismiss?.x).toBeLessThan(boxes.Later?.x ?? 0);
  expect(boxes.Later?.x).toBeLessThan(boxes.Track?.x ?? 0);

  // The card's heading is seen, above the bar, not under it.
  await expectPainted(heading);
  const headingBox = await heading.boundingBox();
  expect(headingBox).not.toBeNull();
  if (headingBox !== null && boxes.Track !== undefined) {
    expect(headingBox.y + headingBox.height).toBeLessThan(boxes.Track.y);
  }
  await page.screenshot({ path: test.info().outputPath('deck-bar-390.png') });

  // The bar's buttons decide as before, and Undo is in the bar too.
  await deck.decide('Track', ((await heading.textContent()) ?? '').trim());
  const undo = deck.button('Undo');
  await expectPainted(undo);
  const undoBox = await undo.boundingBox();
  expect(undoBox).not.toBeNull();
  if (undoBox !== null) {
    expect.soft(undoBox.y + undoBox.height).toBeGreaterThanOrEqual(viewportHeight - 200);
    expect.soft(undoBox.height).toBeGreaterThanOrEqual(44);
  }
});

test('a focused field stays above the on-screen keyboard', async ({ page }) => {
  await signUpWithSample(page);
  const details = new BillDetailsPage(page);
  await details.openBill(sampleBillId, 'HB 4242');
  await details.position('Support').check();
  const why = details.why();
  await expectPainted(why);

  // A person scrolls the field to the lower part of the screen, where the keyboard comes up, and
  // taps it there.
  await why.evaluate((field) => {
    const scroller = field.closest('ion-content')?.shadowRoot?.querySelector('.inner-scroll');
    if (!(scroller instanceof HTMLElement)) throw new Error('the field is not in ion-content');
    scroller.scrollTop += field.getBoundingClientRect().bottom - (window.innerHeight - 60);
  });
  const before = await why.boundingBox();
  expect(before, 'the field is on screen').not.toBeNull();
  expect(
    (before?.y ?? 0) + (before?.height ?? 0),
    'the field starts where the keyboard will be',
  ).toBeGreaterThan(500);
  await why.tap();
  await expect(why).toBeFocused();

  // The keyboard takes the lower 344 px; with interactive-widget=resizes-content the page is
  // resized to what is left above it.
  await page.setViewportSize({ width: 390, height: 500 });
  const placeOfWhy = async () => {
    const box = await why.boundingBox();
    if (box === null) return 'off screen';
    const [top, bottom] = [box.y, box.y + box.height];
    return top >= 0 && bottom <= 500
      ? 'within 0..500'
      : `at ${top.toFixed(0)}..${bottom.toFixed(0)}`;
  };
  await expect
    .poll(placeOfWhy, { message: 'the focused field lies in the 500 px above the keyboard' })
    .toBe('within 0..500');
  await expect(why).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('why-above-keyboard-390x500.png') });
});
