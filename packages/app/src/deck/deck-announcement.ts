import { deckAnnouncement } from '@docket/core/deck';
import type { DecisionKind } from '@docket/core/commands';
import type { Decision, StoredBill } from '@docket/core/store';

// The deck's one polite announcement after a decision or an undo: what happened, the card now on
// top and how many are left ("Tracked HB 2. Next: HB 3, Rail Crossing Safety Act. 5 bills
// left."). It is made only once the live reads show the stored outcome: the count read from the
// store then counts it, and the card named next is the one a person finds on top. The e2e tests
// rely on it too: "Tracked HB 2" is heard only once the write is done.

/** What a decision or an undo did, once stored, waiting for the deck to show what follows. */
export type DeckOutcome =
  | {
      readonly kind: 'decided';
      /** "Tracked HB 2" (decisionAnnouncement). */
      readonly said: string;
      readonly billId: string;
      readonly decision: DecisionKind;
    }
  | {
      readonly kind: 'undone';
      /** "Brought back HB 2" (undoAnnouncement). */
      readonly said: string;
      readonly billId: string;
      /** The bill's decision after the undo; null when it is back in the deck. */
      readonly decision: DecisionKind | null;
      /** The deck's page read before the undo was written: a newer one has seen it. */
      readonly pageBefore: unknown;
    }
  /** Nothing changed ("Nothing to undo."): said as it is. */
  | { readonly kind: 'said'; readonly said: string };

/** What the deck shows now. */
export interface DeckNow {
  /** The page the live read gave (its identity tells a newer read); undefined while loading. */
  readonly page: unknown;
  /** The cards dealt, without those decided here and still being stored. */
  readonly cards: readonly StoredBill[];
  /** Whether the page says the deck is empty (no card to deal at all). */
  readonly empty: boolean;
  /** Bills left in the deck, read from the store; undefined while counting. */
  readonly left: number | undefined;
  /** The decisions the count was made from; undefined while loading. */
  readonly decisions: readonly Decision[] | undefined;
}

function showsDecision(
  decisions: readonly Decision[],
  billId: string,
  decision: DecisionKind | null,
): boolean {
  return (decisions.find((row) => row.billId === billId)?.decision ?? null) === decision;
}

/**
 * The announcement of an outcome, or null while the deck does not show it yet: the live reads
 * have not seen the write, or the next card is still being dealt ("Next" is never guessed).
 */
export function outcomeAnnouncement(outcome: DeckOutcome, now: DeckNow): string | null {
  if (outcome.kind === 'said') return outcome.said;
  const { cards, empty, left, decisions, page } = now;
  if (page === undefined || left === undefined || decisions === undefined) return null;
  if (!showsDecision(decisions, outcome.billId, outcome.decision)) return null;
  const top = cards[0];
  if (top === undefined && !empty) return null;
  if (outcome.kind === 'decided') return deckAnnouncement(outcome.said, top ?? null, left);
  // The cards after an undo come from a read made since it was written, or already hold the bill.
  if (page === outcome.pageBefore && !cards.some((card) => card.id === outcome.billId)) return null;
  // The bill brought back on top is not named again as "Next".
  return deckAnnouncement(
    outcome.said,
    top?.id === outcome.billId ? undefined : (top ?? null),
    left,
  );
}
