import { expect, test } from './fixtures.ts';
import { seriousViolations } from './pages/accessibility.ts';
import { fixturesRoot } from './pages/dataset-pages.ts';
import { signUpAt } from './pages/login-page.ts';
import { expectPainted } from './pages/painted.ts';
import { TrackedPage } from './pages/tracked-page.ts';
import { trackTwoResolutions } from './pages/triaged-resolutions.ts';

// What was set aside on the deck is not lost: Tracked lists each triage list (Tracked, Later,
// Dismissed, Undecided) with its count, and a bill moves from one list to another from there.

test.skip(fixturesRoot === null, '../shared/fixtures is absent');
test.slow();

test('the Dismissed list holds what the deck set aside, and a bill moves back to Tracked from it', async ({
  page,
}) => {
  await signUpAt(page, '/add-dataset');
  await trackTwoResolutions(page);
  const tracked = new TrackedPage(page);
  await tracked.open();
  await tracked.expectCount('2 bills');

  const decision = page.getByLabel('Decision', { exact: true });
  await expect(decision.getByRole('option')).toHaveText([
    'Any',
    'Tracked (2)',
    'Later (0)',
    'Dismissed (1)',
    'Undecided (0)',
  ]);
  await decision.selectOption({ label: 'Dismissed (1)' });
  await expect(page).toHaveURL('/tabs/tracked?decision=dismiss');
  await tracked.expectCount('1 bill · Dismissed');
  await expectPainted(tracked.row('S.J.Res. 8'));
  await expect(tracked.list().getByRole('listitem')).toHaveCount(1);
  await expect(tracked.row('S.J.Res. 8')).toContainText('Not tracked');
  expect(await seriousViolations(page)).toEqual([]);

  // Moved to Tracked from the list: the Dismissed list empties and says so.
  await tracked.startSelecting();
  await tracked.checkbox('S.J.Res. 8').check();
  await page.getByRole('button', { name: 'Track selected' }).click();
  await expectPainted(page.getByRole('heading', { name: 'No bills in Dismissed' }));
  await expect(decision.getByRole('option')).toHaveText([
    'Any',
    'Tracked (3)',
    'Later (0)',
    'Dismissed (0)',
    'Undecided (0)',
  ]);

  // A link to a list opens it, whatever else the list showed before.
  await tracked.open('?decision=track');
  await tracked.expectCount('3 bills · Tracked');

  // And set aside again from there, for later this time.
  await tracked.startSelecting();
  await tracked.checkbox('S.J.Res. 8').check();
  await page.getByRole('button', { name: 'Later selected' }).click();
  await expect(page.getByText('Moved 1 bill to Later', { exact: true })).toBeAttached();
  await tracked.expectCount('2 bills · Tracked');
  await expect(decision.getByRole('option', { name: 'Later (1)' })).toBeAttached();
  await decision.selectOption({ label: 'Later (1)' });
  await expectPainted(tracked.row('S.J.Res. 8'));
});
