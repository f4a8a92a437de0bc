import { useId } from 'react';
import { deckFilterIsActive } from '@docket/core/deck';
import { plural } from '../ui/formatting.ts';
import { FilterPanel } from '../deck/deck-filter-panel.tsx';
import { deckKeyHandler } from '../deck/deck-keys.ts';
import { DeckSection } from '../deck/deck-section.tsx';
import '../deck/deck.css';
import { useCanUndo, useDeckFilter, useDeckTally } from '../deck/use-deck.ts';
import { useDeckDecisions } from '../deck/use-deck-decisions.ts';
import { useJurisdictions, useSessions } from '../local-store/live-bills.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useDeckPage } from '../local-store/live-deck.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { FormError } from '../ui/form-error.tsx';
import { SkipToTabs } from '../layout/skip-links.tsx';
import { ChangedBillsNews } from '../changes/changed-bills-news.tsx';
import { useSpaceReadOnly } from '../local-store/space-role.ts';

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function SwipeableBillsScreen({ backHref }: { readonly backHref?: string }) {
  const { filter, setFilter, error: filterError } = useDeckFilter();
  const page = useDeckPage(filter);
  // Counted once the first cards are read: on 50,000 bills the count reads every matching id,
  // which would otherwise hold up the first card.
  const tally = useDeckTally(page === undefined ? undefined : filter);
  const count = tally.left;
  const canUndo = useCanUndo();
  const datasets = useDatasets();
  const jurisdictions = useJurisdictions();
  const sessions = useSessions();
  const hintId = useId();
  // A viewer in a team workspace reads the deck's cards and decides none (space-role.ts).
  const readOnly = useSpaceReadOnly();
  const { current, announcement, error, deckRef, run, undo } = useDeckDecisions(page, tally);
  const onKeyDown = deckKeyHandler({
    readOnly,
    canUndo,
    hasCard: current !== undefined,
    run,
    undo,
  });

  const filterActive = filter !== undefined && deckFilterIsActive(filter);
  return (
    <>
      <PageHeader title="Bills" {...(backHref === undefined ? {} : { backHref })} />
      <PageBody>
        <h1>Bills</h1>
        <SkipToTabs />
        <ChangedBillsNews />
        {filter !== undefined && (
          <FilterPanel
            filter={filter}
            onChange={setFilter}
            datasets={datasets ?? []}
            jurisdictions={jurisdictions ?? []}
            sessions={sessions ?? []}
          />
        )}
        {filterError !== null && <p className="form-error">{filterError}</p>}
        <p className="deck-summary" aria-live="off">
          {count === undefined
            ? 'Counting bills…'
            : `${plural(count, 'bill')} left in the deck${filterActive ? ' (filtered)' : ''}`}
        </p>
        <DeckSection
          deckRef={deckRef}
          hintId={hintId}
          onKeyDown={onKeyDown}
          readOnly={readOnly}
          filter={filter}
          onFilter={setFilter}
          page={page}
          current={current}
          canUndo={canUndo}
          run={run}
          undo={undo}
        />
        <p className="deck-announcement" role="status" aria-live="polite">
          {announcement}
        </p>
        <FormError message={error} />
      </PageBody>
    </>
  );
}
