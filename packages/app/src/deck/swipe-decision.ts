import type { DecisionKind } from '@docket/core/commands';

// When a released drag counts as a decision. Far enough (30% of the card's width, within 80 to
// 150 px, so a wide laptop card does not ask for a long haul) or
// flicked fast enough in one direction; otherwise the card snaps back and nothing is decided.
// Down has no meaning, so a drag downwards always snaps back.

/** px per ms: a quick flick decides even when it did not travel far. */
const FLICK_SPEED = 0.6;
/** A flick must still have moved this far, so a shaky tap is not a decision. */
const FLICK_DISTANCE = 40;

export function swipeDistance(cardWidth: number): number {
  return Math.min(150, Math.max(80, cardWidth * 0.3));
}

export interface DragEnd {
  readonly deltaX: number;
  readonly deltaY: number;
  readonly velocityX: number;
  readonly velocityY: number;
}

export function swipeDecision(drag: DragEnd, cardWidth: number): DecisionKind | null {
  const distance = swipeDistance(cardWidth);
  const horizontal = Math.abs(drag.deltaX) >= Math.abs(drag.deltaY);
  if (horizontal) {
    const far = Math.abs(drag.deltaX) >= distance;
    const flicked =
      Math.abs(drag.deltaX) >= FLICK_DISTANCE &&
      Math.abs(drag.velocityX) >= FLICK_SPEED &&
      Math.sign(drag.velocityX) === Math.sign(drag.deltaX);
    if (!far && !flicked) return null;
    return drag.deltaX > 0 ? 'track' : 'dismiss';
  }
  if (drag.deltaY >= 0) return null;
  const far = -drag.deltaY >= distance;
  const flicked = -drag.deltaY >= FLICK_DISTANCE && drag.velocityY <= -FLICK_SPEED;
  return far || flicked ? 'later' : null;
}

/** The decision an arrow key stands for, the same way round as the swipes. */
export function arrowKeyDecision(key: string): DecisionKind | null {
  if (key === 'ArrowRight') return 'track';
  if (key === 'ArrowLeft') return 'dismiss';
  if (key === 'ArrowUp') return 'later';
  return null;
}

/** Z, or Ctrl+Z (⌘Z on a Mac), undoes the last decision, as in an editor. */
export function isUndoKey(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): boolean {
  if (event.key !== 'z' && event.key !== 'Z') return false;
  if (event.altKey || event.shiftKey) return false;
  return !(event.ctrlKey && event.metaKey);
}
