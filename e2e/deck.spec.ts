import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AddDatasetPage, fixtureFiles, fixturesRoot, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage, deckSample } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';

// The swipeable deck, driven like a person drives it: dragging the card with the mouse, the
// arrow keys, the buttons, the filter. Data enters through the add-dataset screen.

// Each test signs up and imports before it starts on the deck; on a busy two-core machine that
// alone can take most of the default minute.
test.describe.configure({ timeout: 120_000 });

/** Signs up, imports the files as one dataset and opens the deck. */
async function deckWith(page: Page, name: string, files: readonly string[]): Promise<DeckPage> {
  await signUpAt(page, '/add-dataset');
  await new AddDatasetPage(page).add(name, files);
  await new JobsPage(page).expectStatus(name, 'Done');
  const deck = new DeckPage(page);
  await deck.open();
  return deck;
}

test('with no datasets the deck says so and leads to adding one', async ({ page }) => {
  await signUpAt(page, '/tabs/bills');
  const deck = new DeckPage(page);
  await expect(deck.emptyHeading('No datasets yet')).toBeVisible({ timeout: 15_000 });
  await expect(deck.button('Track')).toBeDisabled();
  expect(await deck.seriousViolations()).toEqual([]);
  await deck.deck().getByRole('link', { name: 'Add a dataset' }).click();
  await expect(page).toHaveURL('/add-dataset');
});

test('dragging the card right tracks it; a short drag snaps back and decides nothing', async ({
  page,
}) => {
  const deck = await deckWith(page, 'California sample', [deckSample('deck-small.csv')]);
  // The most recent activity first: SB 3 passed the Senate on Mar 20, after AB 2's referral
  // (Feb 10) and AB 1's introduction (Jan 6).
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('3 bills left in the deck');
  await expect(deck.card()).toContainText('School Lunch Nutrition Act');
  await expect(deck.card()).toContainText('Passed one chamber since Mar 20, 2025');
  await expect(deck.card()).toContainText('Aisha Khan (D)');
  await expect(deck.card()).toContainText('Education');
  await expect(deck.card()).toContainText('Passed Senate 30-8');
  expect(await deck.seriousViolations()).toEqual([]);

  await deck.drag(30, 5);
  await deck.expectCard('SB 3');
  await expect(deck.card()).toHaveCSS('transform', 'none');
  expect(await deck.storedDecisions()).toEqual({});

  await deck.drag(260, 10);
  // Said once the decision is stored: what was done, the card now on top, how many are left.
  await expect(deck.announcement()).toHaveText(
    'Tracked SB 3. Next: AB 2, Rail Crossing Safety Act. 2 bills left.',
  );
  await deck.expectCard('AB 2');
  await expect(deck.count()).toHaveText('2 bills left in the deck');
  expect(await deck.storedDecisions()).toEqual({ 'us-ca/2025-2026/sb-3': 'track' });

  // Up is for later.
  await deck.drag(0, -220);
  await expect(deck.announcement()).toHaveText(
    'Saved for later: AB 2. Next: AB 1, Water Meter Accuracy Act. 1 bill left.',
  );
  await deck.expectCard('AB 1');
});

test('the arrow keys decide when the deck has focus, not while typing in the search', async ({
  page,
}) => {
  const deck = await deckWith(page, 'Keyboard sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');

  await deck.openFilter();
  await deck.search().fill('a');
  await deck.search().press('ArrowRight');
  await deck.search().press('ArrowLeft');
  await deck.search().fill('');
  await deck.expectCard('SB 3');
  expect(await deck.storedDecisions()).toEqual({});

  await deck.deck().focus();
  await page.keyboard.press('ArrowRight');
  await expect(deck.announcement()).toHaveText(
    'Tracked SB 3. Next: AB 2, Rail Crossing Safety Act. 2 bills left.',
  );
  await deck.expectCard('AB 2');
  await page.keyboard.press('ArrowLeft');
  await expect(deck.announcement()).toHaveText(
    'Dismissed AB 2. Next: AB 1, Water Meter Accuracy Act. 1 bill left.',
  );
  await deck.expectCard('AB 1');
  await page.keyboard.press('ArrowUp');
  // The last card: nothing is next.
  await expect(deck.announcement()).toHaveText('Saved for later: AB 1. No bills left.');
  // Z undoes, as Ctrl+Z does; the cards come back and are decided again by the arrows.
  await page.keyboard.press('z');
  // The bill brought back is the card on top: it is not named twice.
  await expect(deck.announcement()).toHaveText('Brought back AB 1. 1 bill left.');
  await deck.expectCard('AB 1');
  await page.keyboard.press('Control+z');
  await expect(deck.announcement()).toHaveText('Brought back AB 2. 2 bills left.');
  await deck.expectCard('AB 2');
  await page.keyboard.press('ArrowLeft');
  await expect(deck.announcement()).toHaveText(
    'Dismissed AB 2. Next: AB 1, Water Meter Accuracy Act. 1 bill left.',
  );
  await deck.expectCard('AB 1');
  await page.keyboard.press('ArrowUp');
  await expect(deck.announcement()).toHaveText('Saved for later: AB 1. No bills left.');

  // Everything is decided: the deck says so and can bring the later bill back.
  await expect(deck.emptyHeading('Everything triaged')).toBeVisible();
  await expect(deck.count()).toHaveText('0 bills left in the deck');
  expect(await deck.storedDecisions()).toEqual({
    'us-ca/2025-2026/ab-1': 'later',
    'us-ca/2025-2026/ab-2': 'dismiss',
    'us-ca/2025-2026/sb-3': 'track',
  });
  expect(await deck.seriousViolations()).toEqual([]);
  await deck.deck().getByRole('button', { name: 'Include bills saved for later' }).click();
  await deck.expectCard('AB 1');
  await expect(deck.count()).toHaveText('1 bill left in the deck');
});

test('Undo brings the last card back, and the buttons decide', async ({ page }) => {
  const deck = await deckWith(page, 'Undo sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');
  await expect(deck.button('Undo')).toBeDisabled();
  await deck.button('Track').click();
  await expect(deck.announcement()).toHaveText(
    'Tracked SB 3. Next: AB 2, Rail Crossing Safety Act. 2 bills left.',
  );
  await deck.expectCard('AB 2');
  await deck.button('Dismiss').click();
  await expect(deck.announcement()).toHaveText(
    'Dismissed AB 2. Next: AB 1, Water Meter Accuracy Act. 1 bill left.',
  );
  await deck.expectCard('AB 1');

  await deck.button('Undo').click();
  await expect(deck.announcement()).toHaveText('Brought back AB 2. 2 bills left.');
  await deck.expectCard('AB 2');
  // The last Undo, by keyboard: its button is disabled once it is done, and focus goes back to
  // the deck rather than falling to the page's body.
  await deck.button('Undo').focus();
  await page.keyboard.press('Enter');
  await expect(deck.announcement()).toHaveText('Brought back SB 3. 3 bills left.');
  await deck.expectCard('SB 3');
  await expect(deck.button('Undo')).toBeDisabled();
  await expect(deck.deck()).toBeFocused();
  expect(await deck.storedDecisions()).toEqual({});

  await deck.button('Later').click();
  await expect(deck.announcement()).toHaveText(
    'Saved for later: SB 3. Next: AB 2, Rail Crossing Safety Act. 2 bills left.',
  );
  await deck.expectCard('AB 2');
});

test('the filter narrows the deck, says when nothing matches, survives a reload and clears', async ({
  page,
}) => {
  const deck = await deckWith(page, 'Filter sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');
  await deck.openFilter();
  await page.getByLabel('Chamber', { exact: true }).selectOption({ label: 'Senate (upper)' });
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('1 bill left in the deck (filtered)');

  await page.getByLabel('Chamber', { exact: true }).selectOption({ label: 'Any chamber' });
  // A dataset and a status together: the deck seeks into the dataset's bills from an id.
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Filter sample' });
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Passed one chamber' });
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('1 bill left in the deck (filtered)');
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'In committee' });
  await deck.expectCard('AB 2');
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Any status' });
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Any dataset' });
  await expect(deck.count()).toHaveText('3 bills left in the deck');
  await deck.search().fill('rural crossings');
  await deck.expectCard('AB 2');
  await expect(deck.count()).toHaveText('1 bill left in the deck (filtered)');

  await page.reload();
  await deck.expectCard('AB 2');
  await expect(deck.search()).toHaveValue('rural crossings');

  await deck.search().fill('no such bill anywhere');
  await expect(deck.emptyHeading('Nothing matches the filter')).toBeVisible();
  await deck.deck().getByRole('button', { name: 'Clear filter' }).click();
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('3 bills left in the deck');
  await expect(deck.search()).toHaveValue('');

  // The order is a choice of the filter that narrows nothing, and it survives a reload and
  // clearing the filter.
  const order = page.getByLabel('Order', { exact: true });
  await expect(order).toHaveValue('recent');
  await expect(order.getByRole('option')).toHaveText([
    'Most recent activity first',
    'By jurisdiction and session',
  ]);
  await order.selectOption({ label: 'By jurisdiction and session' });
  await deck.expectCard('AB 1');
  await expect(deck.count()).toHaveText('3 bills left in the deck');
  await deck.button('Track').click();
  await deck.expectCard('AB 2');
  // The next card shows at once, before the decision is stored; the count is read from the
  // store, so it says when a reload will find the decision (ci-local failed reloading first).
  await expect(deck.count()).toHaveText('2 bills left in the deck');
  await page.reload();
  await deck.expectCard('AB 2');
  await deck.openFilter();
  await page.getByLabel('Chamber', { exact: true }).selectOption({ label: 'Senate (upper)' });
  await deck.expectCard('SB 3');
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await deck.expectCard('AB 2');
  await expect(order).toHaveValue('place');
  await order.selectOption({ label: 'Most recent activity first' });
  await deck.expectCard('SB 3');
});

test('the session filter deals one session of one jurisdiction, and a new jurisdiction clears it', async ({
  page,
}) => {
  const deck = await deckWith(page, 'Session sample', [deckSample('deck-sessions.csv')]);
  // Nevada's AB 1, introduced Feb 3, 2025, is the most recent of the four.
  await deck.expectCard('AB 1');
  await expect(deck.card()).toContainText('Solar Siting Act');
  await expect(deck.count()).toHaveText('4 bills left in the deck');
  await deck.openFilter();
  const session = page.getByLabel('Session', { exact: true });
  await expect(session.getByRole('option')).toHaveText([
    'Any session',
    'California · 2023–2024 session',
    'California · 2025–2026 session',
    'Nevada · 2025 session',
  ]);
  await session.selectOption({ label: 'California · 2025–2026 session' });
  await deck.expectCard('AB 1');
  await expect(deck.card()).toContainText('Water Meter Accuracy Act');
  await expect(deck.count()).toHaveText('1 bill left in the deck (filtered)');

  // Another jurisdiction: the California session goes, and only Nevada's sessions are offered.
  await page.getByLabel('Jurisdiction', { exact: true }).selectOption({ label: 'Nevada' });
  await expect(session).toHaveValue('');
  await expect(session.getByRole('option')).toHaveText(['Any session', 'Nevada · 2025 session']);
  await expect(deck.card()).toContainText('Solar Siting Act');
  await expect(deck.count()).toHaveText('1 bill left in the deck (filtered)');

  await page.reload();
  await expect(deck.card()).toContainText('Solar Siting Act');
});

test('the card leads to the bill details', async ({ page }) => {
  const deck = await deckWith(page, 'Details sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');
  await deck.card().getByRole('link', { name: 'SB 3', exact: true }).click();
  await expect(page).toHaveURL(`/bill-details?id=${encodeURIComponent('us-ca/2025-2026/sb-3')}`);
});

test('hostile strings in bills are shown as text and run nothing', async ({ page }) => {
  const deck = await deckWith(page, 'Hostile sample', [deckSample('deck-hostile.csv')]);
  // Newest first: SB 5103 (Jan 15), HB 1102 (Jan 14), HB 1101 (Jan 13).
  await deck.expectCard('SB 5103');
  await expect(deck.card().getByText('قانون حماية المياه الجوفية')).toBeVisible();
  await expect(deck.card()).toContainText('דוד לוי (D)');
  expect(await deck.seriousViolations()).toEqual([]);

  await deck.button('Dismiss').click();
  await deck.expectCard('HB 1102');
  const longWord = 'Supercalifragilistic'.repeat(20).slice(0, 300);
  await expect(deck.card().getByText(longWord, { exact: true }).first()).toBeVisible();
  // The long word wraps inside the card instead of pushing the page sideways.
  const overflow = await page.evaluate(() => {
    const card = document.querySelector('.deck-card');
    return card === null ? null : card.scrollWidth - card.clientWidth;
  });
  expect(overflow).toBe(0);

  await deck.button('Dismiss').click();
  await deck.expectCard('HB 1101');
  await expect(deck.card().getByText('<img src=x onerror=window.__pwned=1>')).toBeVisible();
  await expect(deck.card()).toContainText('<b onclick=window.__pwned=1>Bold Sponsor</b> (D)');
  await expect(deck.card()).toContainText('<svg onload=window.__pwned=1>');
  expect(await deck.seriousViolations()).toEqual([]);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
});

test('the five congress-json joint resolutions are dealt and announced by identifier', async ({
  page,
}) => {
  test.skip(fixturesRoot === null, '../shared/fixtures is absent');
  const files = ['sjres1', 'sjres2', 'sjres3', 'sjres4', 'sjres5'].flatMap((bill) =>
    fixtureFiles(`congress-json/116/bills/sjres/${bill}`),
  );
  const deck = await deckWith(page, 'Five resolutions', files);
  // S.J.Res. 4 acted last (Dec 17, 2019).
  await deck.expectCard('S.J.Res. 4');
  await expect(deck.count()).toHaveText('5 bills left in the deck');
  await deck.drag(250, 0);
  // S.J.Res. 5 (Jan 24, 2019) is next; its long title is cut to be heard in passing.
  await expect(deck.announcement()).toHaveText(
    /^Tracked S\.J\.Res\. 4\. Next: S\.J\.Res\. 5, .{1,61}\. 4 bills left\.$/,
  );
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

  test('the card fits the screen with hostile text, and a drag decides', async ({ page }) => {
    const deck = await deckWith(page, 'Phone sample', [deckSample('deck-hostile.csv')]);
    await deck.expectCard('SB 5103');
    await deck.button('Dismiss').click();
    await deck.expectCard('HB 1102');
    const widths = await page.evaluate(() => {
      const card = document.querySelector('.deck-card');
      return {
        card: card === null ? null : card.getBoundingClientRect().right,
        overflow: card === null ? null : card.scrollWidth - card.clientWidth,
      };
    });
    expect(widths.card).not.toBeNull();
    expect(widths.card ?? Infinity).toBeLessThanOrEqual(360);
    expect(widths.overflow).toBe(0);

    await deck.drag(-200, 0);
    // The next bill's hostile title is said as text.
    await expect(deck.announcement()).toHaveText(
      'Dismissed HB 1102. Next: HB 1101, <img src=x onerror=window.__pwned=1>. 1 bill left.',
    );
    await deck.expectCard('HB 1101');
    expect(await deck.seriousViolations()).toEqual([]);
  });

  test('the open filter keeps the count and the card on screen, and Escape folds it', async ({
    page,
  }) => {
    const deck = await deckWith(page, 'Phone filter', [deckSample('deck-small.csv')]);
    await deck.expectCard('SB 3');
    await deck.openFilter();
    // The filter scrolls within part of the screen: the count and the card stay in view below it.
    await expect(deck.count()).toBeInViewport();
    const card = await deck.card().boundingBox();
    expect(card).not.toBeNull();
    expect(card?.y ?? Infinity).toBeLessThan(740 - 100);
    // Its last field is reached by scrolling the filter.
    const later = page.getByLabel('Include bills saved for later', { exact: true });
    await later.scrollIntoViewIfNeeded();
    await expect(later).toBeInViewport();
    await later.focus();
    await page.keyboard.press('Escape');
    await expect(deck.search()).toBeHidden();
    await expect(page.getByText('Filter', { exact: true })).toBeFocused();
    expect(await deck.seriousViolations()).toEqual([]);
  });
});
