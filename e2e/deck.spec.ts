import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AddDatasetPage, fixtureFiles, fixturesRoot, JobsPage } from './pages/dataset-pages.ts';
import { DeckPage, deckSample } from './pages/deck-page.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';

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
  // The most recently active bill first: SB 3 passed the Senate on March 20.
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('3 bills left in the deck, most recent activity first');
  await expect(deck.card()).toContainText('School Lunch Nutrition Act');
  await expect(deck.card()).toContainText('Passed one chamber, Mar 20, 2025');
  await expect(deck.card()).toContainText('Aisha Khan (D)');
  await expect(deck.card()).toContainText('Education');
  await expect(deck.card()).toContainText('Passed Senate 30-8');
  expect(await deck.seriousViolations()).toEqual([]);

  await deck.drag(30, 5);
  await deck.expectCard('SB 3');
  await expect(deck.card()).toHaveCSS('transform', 'none');
  expect(await deck.storedDecisions()).toEqual({});

  await deck.drag(260, 10);
  await expect(deck.announcement()).toHaveText('Tracked SB 3');
  await deck.expectCard('AB 2');
  await expect(deck.count()).toHaveText('2 bills left in the deck, most recent activity first');
  expect(await deck.storedDecisions()).toEqual({ 'us-ca/2025-2026/sb-3': 'track' });

  // Up is for later.
  await deck.drag(0, -220);
  await expect(deck.announcement()).toHaveText('Saved for later: AB 2');
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
  await expect(deck.announcement()).toHaveText('Tracked SB 3');
  await deck.expectCard('AB 2');
  await page.keyboard.press('ArrowLeft');
  await expect(deck.announcement()).toHaveText('Dismissed AB 2');
  await deck.expectCard('AB 1');
  await page.keyboard.press('ArrowUp');
  await expect(deck.announcement()).toHaveText('Saved for later: AB 1');

  // Everything is decided: the deck says so and can bring the later bill back.
  await expect(deck.emptyHeading('Everything triaged')).toBeVisible();
  await expect(deck.count()).toHaveText('0 bills left in the deck, most recent activity first');
  expect(await deck.storedDecisions()).toEqual({
    'us-ca/2025-2026/sb-3': 'track',
    'us-ca/2025-2026/ab-2': 'dismiss',
    'us-ca/2025-2026/ab-1': 'later',
  });
  expect(await deck.seriousViolations()).toEqual([]);
  await deck.deck().getByRole('button', { name: 'Include bills saved for later' }).click();
  await deck.expectCard('AB 1');
  await expect(deck.count()).toHaveText('1 bill left in the deck, most recent activity first');
});

test('Undo brings the last card back, and the buttons decide', async ({ page }) => {
  const deck = await deckWith(page, 'Undo sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');
  await expect(deck.button('Undo')).toBeDisabled();
  await deck.button('Track').click();
  await expect(deck.announcement()).toHaveText('Tracked SB 3');
  await deck.expectCard('AB 2');
  await deck.button('Dismiss').click();
  await expect(deck.announcement()).toHaveText('Dismissed AB 2');
  await deck.expectCard('AB 1');

  await deck.button('Undo').click();
  await expect(deck.announcement()).toHaveText('Undone: AB 2 is back in the deck');
  await deck.expectCard('AB 2');
  await deck.button('Undo').click();
  await expect(deck.announcement()).toHaveText('Undone: SB 3 is back in the deck');
  await deck.expectCard('SB 3');
  await expect(deck.button('Undo')).toBeDisabled();
  expect(await deck.storedDecisions()).toEqual({});

  await deck.button('Later').click();
  await expect(deck.announcement()).toHaveText('Saved for later: SB 3');
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
  await expect(deck.count()).toHaveText(
    '1 bill left in the deck (filtered), most recent activity first',
  );

  await page.getByLabel('Chamber', { exact: true }).selectOption({ label: 'Any chamber' });
  // A dataset and a status together: the deck seeks into the dataset's bills from an id.
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Filter sample' });
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Passed one chamber' });
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText(
    '1 bill left in the deck (filtered), most recent activity first',
  );
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'In committee' });
  await deck.expectCard('AB 2');
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Any status' });
  await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Any dataset' });
  await expect(deck.count()).toHaveText('3 bills left in the deck, most recent activity first');
  await deck.search().fill('rural crossings');
  await deck.expectCard('AB 2');
  await expect(deck.count()).toHaveText(
    '1 bill left in the deck (filtered), most recent activity first',
  );

  await page.reload();
  await deck.expectCard('AB 2');
  await expect(deck.search()).toHaveValue('rural crossings');

  await deck.search().fill('no such bill anywhere');
  await expect(deck.emptyHeading('Nothing matches the filter')).toBeVisible();
  await deck.deck().getByRole('button', { name: 'Clear filter' }).click();
  await deck.expectCard('SB 3');
  await expect(deck.count()).toHaveText('3 bills left in the deck, most recent activity first');
  await expect(deck.search()).toHaveValue('');
});

test('a session filter deals only that session, and the order is a choice that is kept', async ({
  page,
}) => {
  const deck = await deckWith(page, 'Sessions sample', [deckSample('deck-sessions.csv')]);
  // The most recently active first: HB 2 and HB 10 both moved on May 2, HB 2 first by number.
  await deck.expectCard('HB 2');
  await expectPainted(deck.count());
  await expect(deck.count()).toHaveText('7 bills left in the deck, most recent activity first');
  await expectPainted(deck.card().getByText('Alaska · 34th Legislature', { exact: true }));
  await expect(deck.card()).toContainText('May 2, 2025: Passed the House 30-10');
  await deck.button('Later').click();
  await deck.expectCard('HB 10');
  await deck.button('Later').click();
  await deck.expectCard('HB 1');

  // With no jurisdiction chosen, every session is offered under its jurisdiction's name.
  await deck.openFilter();
  const session = page.getByLabel('Session', { exact: true });
  await expect(session.getByRole('option')).toHaveText([
    'Any session',
    'Alaska · 34th Legislature',
    'Alaska · 33rd Legislature',
    'U.S. Congress · 115th Congress',
    'U.S. Congress · 114th Congress',
  ]);
  // A jurisdiction's sessions by their labels alone.
  await page.getByLabel('Jurisdiction', { exact: true }).selectOption({ label: 'Alaska' });
  await expect(session.getByRole('option')).toHaveText([
    'Any session',
    '34th Legislature',
    '33rd Legislature',
  ]);
  await session.selectOption({ label: '33rd Legislature' });
  await deck.expectCard('HB 3');
  await expect(deck.count()).toHaveText(
    '1 bill left in the deck (filtered), most recent activity first',
  );
  const place = deck.card().getByText('Alaska · 33rd Legislature', { exact: true });
  await place.scrollIntoViewIfNeeded();
  await expectPainted(place);
  expect(await deck.seriousViolations()).toEqual([]);

  // Another jurisdiction drops the session; a session of Congress deals only its bills.
  await page.getByLabel('Jurisdiction', { exact: true }).selectOption({ label: 'U.S. Congress' });
  await expect(session).toHaveValue('');
  await session.selectOption({ label: '115th Congress' });
  await deck.expectCard('H.R. 1');
  await expect(deck.count()).toHaveText(
    '2 bills left in the deck (filtered), most recent activity first',
  );
  for (const identifier of ['H.R. 1', 'H.R. 10']) {
    await deck.expectCard(identifier);
    const congress = deck.card().getByText('U.S. Congress · 115th Congress', { exact: true });
    await congress.scrollIntoViewIfNeeded();
    await expectPainted(congress);
    await deck.button('Dismiss').click();
  }
  await expect(deck.emptyHeading('Everything triaged')).toBeVisible();

  // By bill number: Alaska before Congress, the 33rd Legislature before the 34th, HB 2 before
  // HB 10. The order is kept across a reload, as the filter is.
  await page
    .getByLabel('Jurisdiction', { exact: true })
    .selectOption({ label: 'Any jurisdiction' });
  await session.selectOption({ label: 'Any session' });
  await page.getByLabel('Order', { exact: true }).selectOption({ label: 'Bill number' });
  await deck.expectCard('HB 3');
  await expect(deck.count()).toHaveText('3 bills left in the deck, by bill number');
  await page.getByLabel('Include bills saved for later', { exact: true }).check();
  await deck.expectCard('HB 3');
  await expect(deck.count()).toHaveText('5 bills left in the deck, by bill number');
  await deck.button('Dismiss').click();
  await deck.expectCard('HB 1');
  await deck.button('Dismiss').click();
  await deck.expectCard('HB 2');
  // The decision is stored before the reload (the next card shows before it is).
  await expect(deck.announcement()).toHaveText('Dismissed HB 1');
  await page.reload();
  await deck.expectCard('HB 2');
  await deck.openFilter();
  await expect(page.getByLabel('Order', { exact: true })).toHaveValue('number');
  await expect(deck.count()).toHaveText('3 bills left in the deck, by bill number');
  await deck.button('Dismiss').click();
  await deck.expectCard('HB 10');
  expect(await deck.seriousViolations()).toEqual([]);
});

test('the card leads to the bill details', async ({ page }) => {
  const deck = await deckWith(page, 'Details sample', [deckSample('deck-small.csv')]);
  await deck.expectCard('SB 3');
  await deck.card().getByRole('link', { name: 'SB 3', exact: true }).click();
  await expect(page).toHaveURL(`/bill-details?id=${encodeURIComponent('us-ca/2025-2026/sb-3')}`);
});

test('hostile strings in bills are shown as text and run nothing', async ({ page }) => {
  const deck = await deckWith(page, 'Hostile sample', [deckSample('deck-hostile.csv')]);
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
  // S.J.Res. 4's last action (December 2019) is the latest of the five.
  await deck.expectCard('S.J.Res. 4');
  await expect(deck.count()).toHaveText('5 bills left in the deck, most recent activity first');
  await deck.drag(250, 0);
  await expect(deck.announcement()).toHaveText('Tracked S.J.Res. 4');
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
    await expect(deck.announcement()).toHaveText('Dismissed HB 1102');
    await deck.expectCard('HB 1101');
    expect(await deck.seriousViolations()).toEqual([]);
  });
});
