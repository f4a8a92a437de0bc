import { IonButton } from '@ionic/react';
import type { ReactNode } from 'react';
import {
  type DeckEmptyReason,
  type DeckFilter,
  deckFilterIsActive,
  emptyDeckFilter,
} from '@docket/core/deck';
import { plural } from '../ui/formatting.ts';

// What the deck shows when it has no card to deal, one section per reason (core's
// DeckEmptyReason), each saying why and offering the way on from there.

interface EmptyDeckProps {
  readonly reason: DeckEmptyReason;
  readonly filter: DeckFilter;
  readonly onFilter: (filter: DeckFilter) => void;
}

/** The empty deck's frame: the heading, the words and the buttons, the same for every reason. */
function EmptyDeckSection({
  heading,
  actions,
  children,
}: {
  readonly heading: string;
  readonly actions: ReactNode;
  readonly children: ReactNode;
}) {
  return (
    <section className="deck-empty" aria-labelledby="deck-empty-heading">
      <h2 id="deck-empty-heading">{heading}</h2>
      <p>{children}</p>
      <div className="deck-empty-actions">{actions}</div>
    </section>
  );
}

/** Every bill is decided: the bills saved for later can come back, the tracked ones are a tab away. */
function AllTriaged({
  later,
  filter,
  onFilter,
  clear,
}: {
  readonly later: number;
  readonly filter: DeckFilter;
  readonly onFilter: (filter: DeckFilter) => void;
  /** The "Clear filter" button, offered when a filter is on. */
  readonly clear: ReactNode;
}) {
  const active = deckFilterIsActive(filter);
  const laterCanComeBack = later > 0 && !filter.includeLater;
  return (
    <EmptyDeckSection
      heading="Everything triaged"
      actions={
        <>
          {laterCanComeBack && (
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
        </>
      }
    >
      You have decided on every bill {active ? 'that matches the filter' : 'on this device'}.
      Tracked bills are on the Tracked tab; new bills arrive with your next import.
      {laterCanComeBack && ` ${plural(later, 'bill')} saved for later can come back into the deck.`}
    </EmptyDeckSection>
  );
}

/** Why the deck has no card, with what to do next. */
export function EmptyDeck({ reason, filter, onFilter }: EmptyDeckProps) {
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
        <EmptyDeckSection
          heading="No datasets yet"
          actions={<IonButton routerLink="/add-dataset">Add a dataset</IonButton>}
        >
          Bills come from datasets. Add one from files (JSON, ZIP, XML, CSV) or a URL, and its bills
          are dealt here to track, dismiss or keep for later.
        </EmptyDeckSection>
      );
    case 'no-bills':
      return (
        <EmptyDeckSection
          heading="No bills yet"
          actions={
            <>
              <IonButton routerLink="/jobs">See jobs</IonButton>
              <IonButton routerLink="/add-dataset" fill="outline">
                Add a dataset
              </IonButton>
            </>
          }
        >
          Your datasets hold no bills yet. An import may still be running, or it may have failed:
          the jobs say which.
        </EmptyDeckSection>
      );
    case 'nothing-matches':
      return (
        <EmptyDeckSection heading="Nothing matches the filter" actions={clear}>
          No bill on this device matches the filter. Change it, or clear it to see every bill.
        </EmptyDeckSection>
      );
    case 'all-triaged':
      return <AllTriaged later={reason.later} filter={filter} onFilter={onFilter} clear={clear} />;
  }
}
