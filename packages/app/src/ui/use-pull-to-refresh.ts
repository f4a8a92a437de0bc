import { useEffect, useRef, useState, type RefObject } from 'react';

// Pull-to-refresh on a touch screen (issue 40's morning check): a finger that pulls the top of a
// list down by PULL_TO_REFRESH_PX and lets go refreshes it. Touch only, and an extra: the screen
// always has a "Refresh" button, which is what a keyboard or a screen reader uses. Ionic's
// refresher is not used: it would add its code to the first screen's script.

/** How far down the finger must pull, in CSS pixels, for letting go to refresh. */
export const PULL_TO_REFRESH_PX = 72;

export type PullState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'pulling'; readonly distance: number; readonly ready: boolean }
  | { readonly kind: 'refreshing' };

const idle: PullState = { kind: 'idle' };

/**
 * How far the list is pulled when the finger moved `moved` px down: half the finger's way (the
 * list lags behind it, as native pull-to-refresh does), never up.
 */
export function pulledDistance(moved: number): number {
  return Math.max(0, Math.round(moved / 2));
}

function scrollerOf(element: HTMLElement): Promise<HTMLElement | null> {
  const content = element.closest('ion-content') as
    (HTMLElement & { getScrollElement?: () => Promise<HTMLElement> }) | null;
  if (content?.getScrollElement === undefined) return Promise.resolve(null);
  return content.getScrollElement().catch(() => null);
}

/**
 * Watches touches on `target`: a pull that starts with the page scrolled to its top follows the
 * finger; let go past PULL_TO_REFRESH_PX it calls `refresh` and shows 'refreshing' until it
 * settles. Answers the state, for the screen's indicator.
 */
export function usePullToRefresh(
  target: RefObject<HTMLElement | null>,
  refresh: () => Promise<void>,
): PullState {
  const [state, setState] = useState<PullState>(idle);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    const element = target.current;
    if (element === null) return;
    let scroller: HTMLElement | null = null;
    let live = true;
    void scrollerOf(element).then((found) => {
      if (live) scroller = found;
    });
    let startY: number | null = null;
    let distance = 0;
    let refreshing = false;
    const onStart = (event: TouchEvent) => {
      const touch = event.touches[0];
      const atTop = (scroller?.scrollTop ?? 0) <= 0;
      startY =
        refreshing || touch === undefined || event.touches.length > 1 || !atTop
          ? null
          : touch.clientY;
      distance = 0;
    };
    const onMove = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (startY === null || touch === undefined) return;
      distance = pulledDistance(touch.clientY - startY);
      setState(
        distance === 0
          ? idle
          : { kind: 'pulling', distance, ready: distance >= PULL_TO_REFRESH_PX },
      );
    };
    const onEnd = () => {
      if (startY === null) return;
      startY = null;
      if (distance < PULL_TO_REFRESH_PX) {
        setState(idle);
        return;
      }
      refreshing = true;
      setState({ kind: 'refreshing' });
      void latest.current().finally(() => {
        refreshing = false;
        if (live) setState(idle);
      });
    };
    element.addEventListener('touchstart', onStart, { passive: true });
    element.addEventListener('touchmove', onMove, { passive: true });
    element.addEventListener('touchend', onEnd);
    const onCancel = () => {
      startY = null;
      if (!refreshing) setState(idle);
    };
    element.addEventListener('touchcancel', onCancel);
    return () => {
      live = false;
      element.removeEventListener('touchstart', onStart);
      element.removeEventListener('touchmove', onMove);
      element.removeEventListener('touchend', onEnd);
      element.removeEventListener('touchcancel', onCancel);
    };
  }, [target]);
  return state;
}
