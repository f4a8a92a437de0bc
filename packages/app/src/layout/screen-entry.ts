import { useIonViewDidEnter, useIonViewDidLeave } from '@ionic/react';
import { useEffect, useRef, type RefObject } from 'react';

// Each navigation tells a screen-reader user where they are (issue 40): the document's title
// names the screen ("Tracked · Docket") and focus moves to the screen's heading, instead of
// staying on the body (or on a control of the page just left) with only "Loading" announced.

/** How long a screen's heading may take to appear (its code and first read) before we give up. */
const HEADING_WAIT_MS = 3_000;

export function documentTitle(screenTitle: string): string {
  return `${screenTitle} · Docket`;
}

/**
 * Focuses the page's first heading once it is there, unless the person already put focus
 * somewhere in the page (a field that focuses itself, a click): that is where they are.
 */
function focusHeadingOf(page: Element, signal: { cancelled: boolean }): void {
  const started = performance.now();
  const attempt = () => {
    if (signal.cancelled) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) {
      // Where the person is already: a field of this page, or a dialog over it.
      if (page.contains(active)) return;
      if (active.closest('ion-modal, ion-alert, ion-popover, ion-action-sheet') !== null) return;
    }
    const heading = page.querySelector<HTMLElement>('h1');
    if (heading === null) {
      if (performance.now() - started < HEADING_WAIT_MS) requestAnimationFrame(attempt);
      return;
    }
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  };
  attempt();
}

/**
 * On each entry into the page that holds `anchor` (Ionic keeps visited pages mounted, so this is
 * its lifecycle's "did enter", not a mount): sets the title and moves focus to the heading. A
 * title that changes while the page is shown (a bill's, once read) updates the document's.
 */
export function useScreenEntry(title: string, anchor: RefObject<Element | null>): void {
  const shown = useRef(false);
  const titleRef = useRef(title);
  const pending = useRef<{ cancelled: boolean } | null>(null);
  useEffect(() => {
    titleRef.current = title;
    if (shown.current) document.title = documentTitle(title);
  }, [title]);
  const enter = () => {
    shown.current = true;
    document.title = documentTitle(titleRef.current);
    const page = anchor.current?.closest('.ion-page');
    if (page == null) return;
    if (pending.current !== null) pending.current.cancelled = true;
    pending.current = { cancelled: false };
    focusHeadingOf(page, pending.current);
  };
  useIonViewDidEnter(enter);
  // A screen whose content (and so this header) appears after its page was entered (the access
  // guard's wait, a lazy screen) missed the "did enter": a page shown and not hidden is entered.
  useEffect(() => {
    const page = anchor.current?.closest('.ion-page');
    if (page != null && !page.classList.contains('ion-page-hidden')) enter();
    // Once, on mount: later entries are Ionic's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useIonViewDidLeave(() => {
    shown.current = false;
    if (pending.current !== null) pending.current.cancelled = true;
  });
}
