// Where focus goes when the control that had it goes away (issue 40): after the last Undo, a
// dialog's OK, a form that closes, focus falls to the body, and a keyboard or screen-reader user
// must start again from the top of the page. Kept apart from any screen so a real browser can try
// it (falling-focus.web.test.ts).

/** How long after an action focus is watched for falling to the body (see `catchFallingFocus`). */
const FALLING_FOCUS_MS = 2_000;

/**
 * After an action whose control goes away or is disabled once it is done (the last Undo, a form's
 * Save that closes it, a dialog's OK), focus falls to the body, and a keyboard or screen-reader
 * user has to start again from the top. For a short while after the action, focus that falls to
 * the body is given to `fallback()` instead, the next sensible place; focus a person put anywhere
 * else stays where it is.
 */
export function catchFallingFocus(
  fallback: () => HTMLElement | null,
  watchMs = FALLING_FOCUS_MS,
): void {
  if (typeof requestAnimationFrame === 'undefined') return;
  const started = performance.now();
  const watch = () => {
    const active = document.activeElement;
    if (active === null || active === document.body) {
      const target = fallback();
      if (target !== null && target.isConnected) {
        if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) {
          target.setAttribute('tabindex', '-1');
        }
        target.focus({ preventScroll: false });
      }
    }
    if (performance.now() - started < watchMs) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

/**
 * Focuses a control, an Ionic one too. An ion-button's host takes no focus (its shadow root does
 * not delegate it), so `focus()` on it does nothing: its native button inside does, once Ionic has
 * rendered it, a few frames after React mounted the element.
 */
export function focusControl(element: HTMLElement | null, framesLeft = 30): void {
  if (element === null || !element.isConnected) return;
  const custom = customElements.get(element.localName) !== undefined;
  const inner = element.shadowRoot?.querySelector<HTMLElement>('button, a') ?? null;
  if (custom && inner === null) {
    if (framesLeft > 0) {
      requestAnimationFrame(() => {
        focusControl(element, framesLeft - 1);
      });
    }
    return;
  }
  (inner ?? element).focus();
}

/** The heading of the screen on show: the first visible h1 of a page Ionic is not hiding. */
export function visibleScreenHeading(): HTMLElement | null {
  for (const heading of document.querySelectorAll<HTMLElement>(
    '.ion-page:not(.ion-page-hidden) h1',
  )) {
    if (heading.getClientRects().length > 0) return heading;
  }
  return null;
}
