import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { decisionAnnouncement, type DeckPage, undoAnnouncement } from '@docket/core/deck';
import type { DecisionKind } from '@docket/core/commands';
import type { StoredBill } from '@docket/core/store';
import { editCommandContext, pageLocalStore } from '../bills/bill-command-services.ts';
import { type DeckOutcome, outcomeAnnouncement } from './deck-announcement.ts';
import { decisionFailureMessage, undoFailureMessage } from './deck-failure-words.ts';
import type { DeckTally } from './use-deck.ts';

// The deck's decisions and its undo as the screen offers them: a decided card leaves at once,
// the outcome is said once the live reads show it, and a failure brings the card back and says why.

/** The deck's commands, loaded apart from the screen (deck-decisions.ts says why). */
const loadDeckDecisions = () => import('./deck-decisions.ts');

/** Changes the set of bills hidden from the deck. */
type ShowHidden = (change: (ids: Set<string>) => void) => void;

export interface DeckDecisions {
  /** The page's cards without those decided here and still being stored; the first is on top. */
  readonly cards: readonly StoredBill[];
  readonly current: StoredBill | undefined;
  /** What the deck's polite live region says. */
  readonly announcement: string;
  readonly error: string | null;
  /** The deck itself, which keeps the keyboard when the card it was on goes. */
  readonly deckRef: RefObject<HTMLElement | null>;
  /** Decides the card on top. */
  readonly run: (kind: DecisionKind) => void;
  /** Takes back this device's last decision. */
  readonly undo: () => Promise<void>;
}

/**
 * Bills decided here whose decision the live query has not shown yet: hidden at once, so the
 * next card is there without waiting for the store, and so a quick second key press decides the
 * next bill rather than the same one again.
 */
function useHiddenBills(page: DeckPage | undefined) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const hiddenNow = useRef(new Set<string>());
  const showHidden: ShowHidden = useCallback((change) => {
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
  return { hidden, hiddenNow, showHidden };
}

/**
 * The deck's one polite announcement: the outcome stored last (deck-announcement.ts), said once,
 * as the render that first shows it. Later renders (the next decision's cards, a count from
 * another device) must not change what the live region said.
 */
function useOutcomeAnnouncement(
  page: DeckPage | undefined,
  cards: readonly StoredBill[],
  tally: DeckTally,
) {
  const [announcement, setAnnouncement] = useState('');
  const [outcome, setOutcome] = useState<DeckOutcome | null>(null);
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
  return { announcement, setOutcome };
}

/** The latest value, for callbacks that must not change when it does. */
function useLatest<T>(value: T): RefObject<T> {
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  return latest;
}

/**
 * Undoes this device's last decision and says what it did; a bill brought back is shown again
 * through `bringBack` before its identifier is read for the words.
 */
async function undoToOutcome(
  latestPage: () => DeckPage | undefined,
  bringBack: (billId: string) => void,
): Promise<DeckOutcome> {
  const { undoLastDecision } = await loadDeckDecisions();
  const context = await editCommandContext();
  // Taken before the write: a page read after this one may show the bill back.
  const pageBefore = latestPage();
  const result = await undoLastDecision(context);
  if (result.kind === 'nothing-to-undo') {
    return { kind: 'said', said: undoAnnouncement(result, (id) => id) };
  }
  const billId = result.billId;
  bringBack(billId);
  const bill = await (await pageLocalStore()).read(['bills'], (tx) => tx.get('bills', billId));
  const words = undoAnnouncement(result, () => bill?.identifier ?? billId);
  return result.kind === 'undone'
    ? {
        kind: 'undone',
        said: words,
        billId,
        decision: result.decision?.decision ?? null,
        pageBefore,
      }
    : { kind: 'said', said: words };
}

/** The deck's cards, its announcement, and the decisions and undo that change them. */
export function useDeckDecisions(page: DeckPage | undefined, tally: DeckTally): DeckDecisions {
  const { hidden, hiddenNow, showHidden } = useHiddenBills(page);
  const cards: StoredBill[] = (page?.cards ?? []).filter((bill) => !hidden.has(bill.id));
  const current = cards[0];
  const { announcement, setOutcome } = useOutcomeAnnouncement(page, cards, tally);
  const [error, setError] = useState<string | null>(null);
  const deckRef = useRef<HTMLElement>(null);

  // Once a card is on screen, the commands a swipe needs are fetched and evaluated.
  const cardShown = current !== undefined;
  useEffect(() => {
    // A failure here is met again, and shown, by the swipe that needs the module.
    if (cardShown) loadDeckDecisions().catch(() => undefined);
  }, [cardShown]);
  const pageRef = useLatest(page);

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
        setError(decisionFailureMessage(cause));
      }
    },
    [pageRef, hiddenNow, showHidden, setOutcome],
  );

  const run = useCallback(
    (kind: DecisionKind) => {
      decide(kind).catch((cause: unknown) => {
        setError(decisionFailureMessage(cause));
      });
    },
    [decide],
  );

  const undo = async () => {
    try {
      setOutcome(
        await undoToOutcome(
          () => pageRef.current,
          (billId) => {
            showHidden((ids) => ids.delete(billId));
          },
        ),
      );
      setError(null);
    } catch (cause) {
      setError(undoFailureMessage(cause));
    }
  };

  return { cards, current, announcement, error, deckRef, run, undo };
}
