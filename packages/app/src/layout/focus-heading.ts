// Moving focus to a screen's heading when it is entered (issue 40), kept apart from the screen's
// lifecycle (screen-entry.ts) so a real browser can try it without Ionic.

/**
 * How long after entering a screen its heading is watched: it may appear late (its code and first
 * read), a focus given while an enclosing page is still `display: none` (Ionic's `ion-page-hidden`
 * during a transition) does not take, and a focus given can fall back to the body when such a page
 * is hidden for a moment. Within this time focus is given again until it holds.
 */
const SETTLE_MS = 5_000;

function isDialog(element: Element): boolean {
  return element.closest('ion-modal, ion-alert, ion-popover, ion-action-sheet') !== null;
}

/**
 * Focuses the page's first heading once it is there and can take focus, unless the person already
 * put focus somewhere in the page (a field that focuses itself, a click) or in a dialog: that is
 * where they are. Once the heading had focus, it is given again only if focus fell to the body
 * (nobody chose that); a person who moved on (the tab bar, a field) keeps where they went.
 */
export function focusHeadingOf(page: Element, signal: { cancelled: boolean }): void {
  const started = performance.now();
  let held = false;
  // Once the person acts (a key, a press), where focus goes is theirs and the screen's: a Save
  // disabled while it runs, say, gives focus back itself (ui/use-command.ts).
  let acted = false;
  const onAct = () => {
    acted = true;
  };
  document.addEventListener('keydown', onAct, { capture: true, once: true });
  document.addEventListener('pointerdown', onAct, { capture: true, once: true });
  const stop = () => {
    document.removeEventListener('keydown', onAct, { capture: true });
    document.removeEventListener('pointerdown', onAct, { capture: true });
  };
  const attempt = () => {
    if (signal.cancelled || acted) {
      stop();
      return;
    }
    const active = document.activeElement;
    const onBody = active === null || active === document.body;
    const heading = page.querySelector<HTMLElement>('h1');
    if (heading !== null && active === heading) {
      held = true;
    } else if (held ? onBody : onBody || !(page.contains(active) || isDialog(active))) {
      if (heading !== null) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
        held ||= document.activeElement === heading;
      }
    } else {
      stop();
      return;
    }
    if (performance.now() - started < SETTLE_MS) requestAnimationFrame(attempt);
    else stop();
  };
  attempt();
}
