import { expect, type Page } from '@playwright/test';
import { AddDatasetPage, fixtureFiles, JobsPage } from './dataset-pages.ts';
import { DeckPage } from './deck-page.ts';

/**
 * Three Senate joint resolutions of the 116th Congress imported through the add-dataset form and
 * triaged on the deck the way a person does: S.J.Res. 1 (referred to committee, actions in the
 * week of Dec 31, 2018) and S.J.Res. 7 (vetoed, actions from late January to May 2019) tracked,
 * S.J.Res. 8 (failed on cloture) dismissed.
 */
export async function trackTwoResolutions(page: Page): Promise<void> {
  await page.goto('/add-dataset');
  await new AddDatasetPage(page).add(
    'Joint resolutions',
    ['sjres1', 'sjres7', 'sjres8'].flatMap((bill) =>
      fixtureFiles(`congress-json/116/bills/sjres/${bill}`),
    ),
  );
  await new JobsPage(page).expectStatus('Joint resolutions', 'Done');

  const deck = new DeckPage(page);
  await deck.open();
  // Each card decided by what it is, in whatever order the deck deals them (most recent
  // activity first by default).
  const decisions = new Map([
    ['S.J.Res. 1', 'Track'],
    ['S.J.Res. 7', 'Track'],
    ['S.J.Res. 8', 'Dismiss'],
  ] as const);
  for (let dealt = 0; dealt < decisions.size; dealt++) {
    const heading = deck.card().getByRole('heading', { level: 2 });
    await expect(heading).toHaveText(/^S\.J\.Res\. [178]$/);
    const identifier = (await heading.innerText()).trim();
    const button = decisions.get(identifier as 'S.J.Res. 1');
    if (button === undefined) throw new Error(`Unexpected card ${identifier}`);
    await deck.decide(button, identifier);
  }
  await expect(deck.emptyHeading('Everything triaged')).toBeVisible();
}
