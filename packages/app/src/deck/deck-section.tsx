import { IonButton } from '@ionic/react';
import type { KeyboardEvent, RefObject } from 'react';
import type { DeckFilter, DeckPage } from '@docket/core/deck';
import type { DecisionKind } from '@docket/core/commands';
import type { StoredBill } from '@docket/core/store';
import { catchFallingFocus } from '../ui/falling-focus.ts';
import { VIEWER_WORDS } from '../local-store/space-role.ts';
import { DeckCard } from './deck-card.tsx';
import { EmptyDeck } from './empty-deck.tsx';

// The deck on the Bills tab: how to use it, the card on top (or why there is none), and the
// buttons that decide it and undo.

export interface DeckSectionProps {
  readonly deckRef: RefObject<HTMLElement | null>;
  readonly hintId: string;
  readonly onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** A viewer in a team workspace reads the deck's cards and decides none (space-role.ts). */
  readonly readOnly: boolean;
  /** Undefined while the stored filter is read. */
  readonly filter: DeckFilter | undefined;
  readonly onFilter: (filter: DeckFilter) => void;
  /** Undefined while the first cards are read. */
  readonly page: DeckPage | undefined;
  readonly current: StoredBill | undefined;
  readonly canUndo: boolean;
  readonly run: (kind: DecisionKind) => void;
  readonly undo: () => Promise<void>;
}

/** How to use the deck, or, for a viewer, why nothing can be decided. */
function DeckHint({ id, readOnly }: { readonly id: string; readonly readOnly: boolean }) {
  return readOnly ? (
    <p id={id} className="deck-hint">
      {VIEWER_WORDS}
    </p>
  ) : (
    <p id={id} className="deck-hint">
      Swipe or drag the card right to track, left to dismiss, up for later. With the deck focused,
      the arrow keys do the same.
      <span className="visually-hidden"> Z or Ctrl+Z undoes the last one.</span>
    </p>
  );
}

/** The card on top, or what the deck is waiting for, or why it is empty. */
function DeckStage({
  page,
  filter,
  onFilter,
  current,
  readOnly,
  run,
}: Pick<DeckSectionProps, 'page' | 'filter' | 'onFilter' | 'current' | 'readOnly' | 'run'>) {
  return (
    <div className="deck-stage">
      {page === undefined || filter === undefined ? (
        <p role="status">Dealing the deck…</p>
      ) : current !== undefined ? (
        <DeckCard key={current.id} bill={current} onSwipe={readOnly ? null : run} />
      ) : page.empty !== null ? (
        <EmptyDeck reason={page.empty} filter={filter} onFilter={onFilter} />
      ) : (
        <p role="status">Dealing the next card…</p>
      )}
    </div>
  );
}

/** Dismiss, Later, Track and Undo: on a phone, a bar pinned above the tab bar (deck.css). */
function DeckBar({
  deckRef,
  current,
  canUndo,
  run,
  undo,
}: Pick<DeckSectionProps, 'deckRef' | 'current' | 'canUndo' | 'run' | 'undo'>) {
  return (
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
  );
}

/** The deck: focusable, so its keys work, and described by its hint. */
export function DeckSection(props: DeckSectionProps) {
  const { deckRef, hintId, onKeyDown, readOnly } = props;
  return (
    <section
      ref={deckRef}
      className="deck"
      aria-label="Bill deck"
      aria-describedby={hintId}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <DeckHint id={hintId} readOnly={readOnly} />
      <DeckStage {...props} />
      {/* On a phone, a bar pinned above the tab bar, in reach of the thumb (deck.css). */}
      {!readOnly && <DeckBar {...props} />}
    </section>
  );
}
