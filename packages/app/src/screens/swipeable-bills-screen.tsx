import { IonButton } from '@ionic/react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  decisionAnnouncement,
  type DeckEmptyReason,
  type DeckFilter,
  deckFilterIsActive,
  emptyDeckFilter,
  undoAnnouncement,
} from '@docket/core/deck';
import { BillCommandError, type DecisionKind } from '@docket/core/commands';
import type { StoredBill } from '@docket/core/store';
import { editCommandContext, pageLocalStore } from '../bills/bill-command-services.ts';
import { plural } from '../ui/formatting.ts';
import { DeckCard } from '../deck/deck-card.tsx';
import { DeckFilterForm, type DeckFilterFormProps } from '../deck/deck-filter-form.tsx';
import '../deck/deck.css';
import { arrowKeyDecision, isUndoKey } from '../deck/swipe-decision.ts';
import { catchFallingFocus } from '../ui/falling-focus.ts';
import { useCanUndo, useDeckFilter, useDeckTally } from '../deck/use-deck.ts';
import { type DeckOutcome, outcomeAnnouncement } from '../deck/deck-announcement.ts';
import { useJurisdictions, useSessions } from '../local-store/live-bills.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useDeckPage } from '../local-store/live-deck.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { FormError } from '../ui/form-error.tsx';
import { SkipToTabs } from '../layout/skip-links.tsx';
import { ChangedBillsNews } from '../changes/changed-bills-news.tsx';
import { useSpaceReadOnly, VIEWER_WORDS } from '../local-store/space-role.ts';

/** The deck's commands, loaded apart from the screen (deck-decisions.ts says why). */
const loadDeckDecisions = () => import('../deck/deck-decisions.ts');

function failureMessage(error: unknown): string {
  if (error instanceof BillCommandError) return error.message;
  return `The decision could not be saved: ${error instanceof Error ? error.message : String(error)}`;
}

/** Keys typed into a field are the field's, never the deck's. */
function isTypingTarget(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.closest('ion-input, ion-textarea, ion-searchbar, ion-select') !== null
  );
}

function EmptyDeck({
  reason,
  filter,
  onFilter,
}: {
  readonly reason: DeckEmptyReason;
  readonly filter: DeckFilter;
  readonly onFilter: (filter: DeckFilter) => void;
}) {
  const clear = (
    <IonButton
      fill="outline"
      onClick={() => {
        onFilter({ ...emptyDeckFilter, order: filter.order });
      }}
    >
      Clear filter
    </IonButton>
  );
  switch (reason.kind) {
    case 'no-datasets':
      return (
        <section className="deck-empty" aria-labelledby="deck-empty-heading">
          <h2 id="deck-empty-heading">No datasets yet</h2>
          <p>
            Bills come from datasets. Add one from files (JSON, ZIP, XML, CSV) or a URL, and its
            bills are dealt here to track, dismiss or keep for later.
          </p>
          <div className="deck-empty-actions">
            <IonButton routerLink="/add-dataset">Add a dataset</IonButton>
          </div>
        </section>
      );
    case 'no-bills':
      return (
        <section className="deck-empty" aria-labelledby="deck-empty-heading">
          <h2 id="deck-empty-heading">No bills yet</h2>
          <p>
            Your datasets hold no bills yet. An import may still be running, or it may have failed:
            the jobs say which.
          </p>
          <div className="deck-empty-actions">
            <IonButton routerLink="/jobs">See jobs</IonButton>
            <IonButton routerLink="/add-dataset" fill="outline">
              Add a dataset
            </IonButton>
          </div>
        </section>
      );
    case 'nothing-matches':
      return (
        <section className="deck-empty" aria-labelledby="deck-empty-heading">
          <h2 id="deck-empty-heading">Nothing matches the filter</h2>
          <p>
            No bill on this device matches the filter. Change it, or clear it to see every bill.
          </p>
          <div className="deck-empty-actions">{clear}</div>
        </section>
      );
    case 'all-triaged': {
      const active = deckFilterIsActive(filter);
      return (
        <section className="deck-empty" aria-labelledby="deck-empty-heading">
          <h2 id="deck-empty-heading">Everything triaged</h2>
          <p>
            You have decided on every bill {active ? 'that matches the filter' : 'on this device'}.
            Tracked bills are on the Tracked tab; new bills arrive with your next import.
            {reason.later > 0 &&
              !filter.includeLater &&
              ` ${plural(reason.later, 'bill')} saved for later can come back into the deck.`}
          </p>
          <div className="deck-empty-actions">
            {reason.later > 0 && !filter.includeLater && (
              <IonButton
                onClick={() => {
                  onFilter({ ...filter, includeLater: true });
                }}
              >
                Include bills saved for later
              </IonButton>
            )}
            <IonButton routerLink="/tabs/tracked" fill="outline">
              See tracked bills
            </IonButton>
            {active && clear}
          </div>
        </section>
      );
    }
  }
}

/** The filter, folded away unless it was on when the deck opened; after that the user decides.
 *  Escape folds it and leaves the keyboard on "Filter" (a search field's Escape empties it first).
 *  On a phone the open filter scrolls within part of the screen (deck.css), so the count and the
 *  card stay in view below it. */
function FilterPanel(props: DeckFilterFormProps) {
  const [openAtFirst] = useState(() => deckFilterIsActive(props.filter));
  return (
    <details
      className="deck-filter-panel"
      open={openAtFirst}
      onKeyDown={(event) => {
        const panel = event.currentTarget;
        const field = event.target;
        if (event.key !== 'Escape' || !panel.open) return;
        if (field instanceof HTMLInputElement && field.type === 'search' && field.value !== '') {
          return;
        }
        event.preventDefault();
        panel.open = false;
        panel.querySelector('summary')?.focus();
      }}
    >
      <summary>Filter</summary>
      <DeckFilterForm {...props} />
    </details>
  );
}

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

  // Bills decided here whose decision the live query has not shown yet: hidden at once, so the
  // next card is there without waiting for the store, and so a quick second key press decides the
  // next bill rather than the same one again.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const hiddenNow = useRef(new Set<string>());
  const [announcement, setAnnouncement] = useState('');
  // The outcome stored last, said once the deck shows it (deck-announcement.ts).
  const [outcome, setOutcome] = useState<DeckOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const deckRef = useRef<HTMLElement>(null);

  const showHidden = useCallback((change: (ids: Set<string>) => void) => {
    const next = new Set(hiddenNow.current);
    change(next);
    hiddenNow.current = next;
    setHidden(next);
  }, []);

  // A hidden bill the store no longer deals is decided for good: forget it.
  useEffect(() => {
    if (page === undefined) return;
    const dealt = new Set(page.cards.map((bill) => bill.id));
    if ([...hiddenNow.current].some((id) => !dealt.has(id))) {
      showHidden((ids) => {
        for (const id of ids) if (!dealt.has(id)) ids.delete(id);
      });
    }
  }, [page, showHidden]);

  const cards: StoredBill[] = (page?.cards ?? []).filter((bill) => !hidden.has(bill.id));
  const current = cards[0];
  // Said once, as the render that first shows the outcome: later renders (the next decision's
  // cards, a count from another device) must not change what the live region said.
  const said =
    outcome === null
      ? null
      : outcomeAnnouncement(outcome, {
          page,
          cards,
          empty: (page?.empty ?? null) !== null,
          left: tally.left,
          decisions: tally.decisions,
        });
  if (said !== null) {
    setOutcome(null);
    setAnnouncement(said);
  }
  // Once a card is on screen, the commands a swipe needs are fetched and evaluated.
  const cardShown = current !== undefined;
  useEffect(() => {
    // A failure here is met again, and shown, by the swipe that needs the module.
    if (cardShown) loadDeckDecisions().catch(() => undefined);
  }, [cardShown]);
  const pageRef = useRef(page);
  useEffect(() => {
    pageRef.current = page;
  }, [page]);

  const decide = useCallback(
    async (kind: DecisionKind) => {
      const bill = pageRef.current?.cards.find((card) => !hiddenNow.current.has(card.id));
      if (bill === undefined) return;
      // The card is about to go: keep the keyboard in the deck rather than lose it to the page.
      if (deckRef.current?.querySelector('.deck-card')?.contains(document.activeElement)) {
        deckRef.current.focus();
      }
      showHidden((ids) => ids.add(bill.id));
      try {
        const { decisionCommands } = await loadDeckDecisions();
        await decisionCommands[kind](await editCommandContext(), bill.id);
        setError(null);
        setOutcome({
          kind: 'decided',
          said: decisionAnnouncement(kind, bill.identifier),
          billId: bill.id,
          decision: kind,
        });
      } catch (cause) {
        showHidden((ids) => ids.delete(bill.id));
        setError(failureMessage(cause));
      }
    },
    [showHidden],
  );

  const run = useCallback(
    (kind: DecisionKind) => {
      decide(kind).catch((cause: unknown) => {
        setError(failureMessage(cause));
      });
    },
    [decide],
  );

  const undo = async () => {
    try {
      const { undoLastDecision } = await loadDeckDecisions();
      const context = await editCommandContext();
      // Taken before the write: a page read after this one may show the bill back.
      const pageBefore = pageRef.current;
      const result = await undoLastDecision(context);
      if (result.kind === 'nothing-to-undo') {
        setOutcome({ kind: 'said', said: undoAnnouncement(result, (id) => id) });
      } else {
        const billId = result.billId;
        showHidden((ids) => ids.delete(billId));
        const bill = await (
          await pageLocalStore()
        ).read(['bills'], (tx) => tx.get('bills', billId));
        const words = undoAnnouncement(result, () => bill?.identifier ?? billId);
        setOutcome(
          result.kind === 'undone'
            ? {
                kind: 'undone',
                said: words,
                billId,
                decision: result.decision?.decision ?? null,
                pageBefore,
              }
            : { kind: 'said', said: words },
        );
      }
      setError(null);
    } catch (cause) {
      setError(
        cause instanceof BillCommandError
          ? cause.message
          : `Undo failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (readOnly || isTypingTarget(event.target)) return;
    if (isUndoKey(event)) {
      event.preventDefault();
      if (canUndo) undo().catch(() => undefined);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const kind = arrowKeyDecision(event.key);
    if (kind === null || current === undefined) return;
    event.preventDefault();
    run(kind);
  };

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
        <section
          ref={deckRef}
          className="deck"
          aria-label="Bill deck"
          aria-describedby={hintId}
          tabIndex={0}
          onKeyDown={onKeyDown}
        >
          {readOnly ? (
            <p id={hintId} className="deck-hint">
              {VIEWER_WORDS}
            </p>
          ) : (
            <p id={hintId} className="deck-hint">
              Swipe or drag the card right to track, left to dismiss, up for later. With the deck
              focused, the arrow keys do the same.
              <span className="visually-hidden"> Z or Ctrl+Z undoes the last one.</span>
            </p>
          )}
          <div className="deck-stage">
            {page === undefined || filter === undefined ? (
              <p role="status">Dealing the deck…</p>
            ) : current !== undefined ? (
              <DeckCard key={current.id} bill={current} onSwipe={readOnly ? null : run} />
            ) : page.empty !== null ? (
              <EmptyDeck reason={page.empty} filter={filter} onFilter={setFilter} />
            ) : (
              <p role="status">Dealing the next card…</p>
            )}
          </div>
          {/* On a phone, a bar pinned above the tab bar, in reach of the thumb (deck.css). */}
          {!readOnly && (
            <div className="deck-bar">
              <div className="deck-actions">
                <IonButton
                  fill="outline"
                  disabled={current === undefined}
                  onClick={() => {
                    run('dismiss');
                  }}
                >
                  Dismiss
                </IonButton>
                <IonButton
                  fill="outline"
                  disabled={current === undefined}
                  onClick={() => {
                    run('later');
                  }}
                >
                  Later
                </IonButton>
                <IonButton
                  disabled={current === undefined}
                  onClick={() => {
                    run('track');
                  }}
                >
                  Track
                </IonButton>
              </div>
              <div className="deck-undo">
                <IonButton
                  fill="clear"
                  disabled={!canUndo}
                  title="Undo (Z)"
                  aria-keyshortcuts="Z Control+Z"
                  onClick={() => {
                    // The last Undo disables its button: focus goes back to the deck, not the body.
                    catchFallingFocus(() => deckRef.current);
                    undo().catch(() => undefined);
                  }}
                >
                  Undo
                </IonButton>
              </div>
            </div>
          )}
        </section>
        <p className="deck-announcement" role="status" aria-live="polite">
          {announcement}
        </p>
        <FormError message={error} />
      </PageBody>
    </>
  );
}
