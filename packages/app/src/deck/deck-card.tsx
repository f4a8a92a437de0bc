import { createGesture } from '@ionic/react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { billPlace, latestActionLine, statusWithDate } from '@docket/core/bills';
import { deckCardFacts } from '@docket/core/deck';
import type { StoredBill } from '@docket/core/store';
import type { DecisionKind } from '@docket/core/commands';
import { billDetailsPath, formatBillDate } from '../bills/bill-words.ts';
import { swipeDecision } from './swipe-decision.ts';

// The card on top of the deck. While dragged it follows the finger or the mouse (written straight
// to its style, no React render per move); released far enough it flies off and the decision is
// made, released early it snaps back. Ionic's gesture recognizer handles touch and mouse alike;
// a maxAngle of 180° makes it start on a drag in any direction, so up (later) works as well.

const FLY_OFF_MS = 160;

export function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function dragTransform(deltaX: number, deltaY: number, reduced: boolean): string {
  const rotate = reduced ? 0 : Math.max(-12, Math.min(12, deltaX / 20));
  return `translate(${deltaX}px, ${deltaY}px) rotate(${rotate}deg)`;
}

function flyOffTransform(kind: DecisionKind): string {
  if (kind === 'later') return 'translate(0, -120vh)';
  return `translate(${kind === 'track' ? '' : '-'}120vw, 0) rotate(${kind === 'track' ? 20 : -20}deg)`;
}

export interface DeckCardProps {
  readonly bill: StoredBill;
  /**
   * Called once a drag was released as a decision (after the card has flown off); null where
   * the account only reads (a viewer in a team workspace): the card does not move.
   */
  readonly onSwipe: ((kind: DecisionKind) => void) | null;
}

/**
 * Keeps a drag that ends over the card's link from also following the link: armed as a drag
 * starts, the click that ends it is swallowed; a new press disarms it.
 */
function clickSwallower(card: HTMLElement) {
  let swallowClick = false;
  const resetSwallow = () => {
    swallowClick = false;
  };
  const maybeSwallow = (event: MouseEvent) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  };
  return {
    arm: () => {
      swallowClick = true;
    },
    listen: () => {
      card.addEventListener('pointerdown', resetSwallow, true);
      card.addEventListener('click', maybeSwallow, true);
    },
    remove: () => {
      card.removeEventListener('pointerdown', resetSwallow, true);
      card.removeEventListener('click', maybeSwallow, true);
    },
  };
}

/**
 * The card's drag, enabled: it follows the pointer, snaps back when released early, and flies off
 * when released as a decision, `decide` called once it has flown (at once under reduced motion).
 * `destroy` ends the drag; `land` makes the decision of a card still flying off.
 */
function swipeGesture(
  card: HTMLElement,
  onStart: () => void,
  decide: (kind: DecisionKind) => void,
) {
  let flyOff: { timer: ReturnType<typeof setTimeout>; kind: DecisionKind } | null = null;
  const gesture = createGesture({
    el: card,
    gestureName: 'deck-swipe',
    direction: 'x',
    maxAngle: 180,
    threshold: 8,
    onStart: () => {
      onStart();
      card.classList.add('deck-card--dragging');
    },
    onMove: (detail) => {
      card.style.transform = dragTransform(detail.deltaX, detail.deltaY, prefersReducedMotion());
      const kind = swipeDecision(detail, card.offsetWidth);
      if (kind === null) delete card.dataset.swipe;
      else card.dataset.swipe = kind;
    },
    onEnd: (detail) => {
      card.classList.remove('deck-card--dragging');
      delete card.dataset.swipe;
      const kind = swipeDecision(detail, card.offsetWidth);
      if (kind === null) {
        // Back to where it was; the CSS transition (none under reduced motion) animates it.
        card.style.transform = '';
        return;
      }
      if (prefersReducedMotion()) {
        decide(kind);
        return;
      }
      card.style.transform = flyOffTransform(kind);
      flyOff = {
        kind,
        timer: setTimeout(() => {
          flyOff = null;
          decide(kind);
        }, FLY_OFF_MS),
      };
    },
  });
  gesture.enable(true);
  return {
    destroy: () => {
      gesture.destroy();
    },
    land: () => {
      if (flyOff === null) return;
      clearTimeout(flyOff.timer);
      decide(flyOff.kind);
    },
  };
}

/**
 * The card's swipe, for the card element given the returned ref: none while `onSwipe` is null,
 * set up again for each bill.
 */
function useCardSwipe(billId: string, onSwipe: DeckCardProps['onSwipe']) {
  const cardRef = useRef<HTMLElement>(null);
  const onSwipeRef = useRef(onSwipe);
  useEffect(() => {
    onSwipeRef.current = onSwipe;
  }, [onSwipe]);
  const swipes = onSwipe !== null;

  useEffect(() => {
    const card = cardRef.current;
    if (card === null || !swipes) return;
    // A drag that ends over the card's link must not also follow the link.
    const clicks = clickSwallower(card);
    const swipe = swipeGesture(card, clicks.arm, (kind) => {
      onSwipeRef.current?.(kind);
    });
    clicks.listen();
    return () => {
      swipe.destroy();
      clicks.remove();
      // A card taken away while flying off still has its decision made.
      swipe.land();
    };
  }, [billId, swipes]);
  return cardRef;
}

/** The card on top of the deck: the bill's identifier (its details' link), place, title and facts. */
export function DeckCard({ bill, onSwipe }: DeckCardProps) {
  const cardRef = useCardSwipe(bill.id, onSwipe);
  const facts = deckCardFacts(bill);
  const headingId = `deck-card-${bill.id}`;
  return (
    <article ref={cardRef} className="deck-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="deck-card-identifier">
        <Link to={billDetailsPath(facts.id)} draggable={false}>
          {facts.identifier}
        </Link>
      </h2>
      <p className="bill-place">{billPlace(bill)}</p>
      <p className="deck-card-title">{facts.title}</p>
      <CardFacts facts={facts} />
    </article>
  );
}

/** The card's facts: status, sponsor, subjects (the first 12) and latest action. */
function CardFacts({ facts }: { readonly facts: ReturnType<typeof deckCardFacts> }) {
  return (
    <dl className="deck-card-facts">
      <dt>Status</dt>
      <dd>{statusWithDate(facts, formatBillDate)}</dd>
      <dt>Sponsor</dt>
      <dd>{facts.primarySponsor ?? 'None listed'}</dd>
      <dt>Subjects</dt>
      <dd>
        {facts.subjects.length === 0 ? (
          'None listed'
        ) : (
          <ul className="deck-card-subjects">
            {facts.subjects.slice(0, 12).map((subject) => (
              <li key={subject}>{subject}</li>
            ))}
            {facts.subjects.length > 12 && <li>and {facts.subjects.length - 12} more</li>}
          </ul>
        )}
      </dd>
      <dt>Latest action</dt>
      <dd>
        {facts.latestAction === null
          ? 'None listed'
          : latestActionLine(facts.latestAction, formatBillDate)}
      </dd>
    </dl>
  );
}
