import type { KeyboardEvent } from 'react';
import type { DecisionKind } from '@docket/core/commands';
import { arrowKeyDecision, isUndoKey } from './swipe-decision.ts';

// The deck's keyboard: with the deck focused, the arrow keys decide the card on top the same way
// round as the swipes, and Z or Ctrl+Z undoes the last decision.

/** Keys typed into a field are the field's, never the deck's. */
export function isTypingTarget(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.closest('ion-input, ion-textarea, ion-searchbar, ion-select') !== null
  );
}

export interface DeckKeys {
  /** A viewer decides nothing, by key or otherwise. */
  readonly readOnly: boolean;
  readonly canUndo: boolean;
  /** Whether a card is on top to decide. */
  readonly hasCard: boolean;
  readonly run: (kind: DecisionKind) => void;
  readonly undo: () => Promise<void>;
}

/** The deck's key handler: a decision or an undo for the keys that stand for one. */
export function deckKeyHandler(deck: DeckKeys) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (deck.readOnly || isTypingTarget(event.target)) return;
    if (isUndoKey(event)) {
      event.preventDefault();
      if (deck.canUndo) deck.undo().catch(() => undefined);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const kind = arrowKeyDecision(event.key);
    if (kind === null || !deck.hasCard) return;
    event.preventDefault();
    deck.run(kind);
  };
}
