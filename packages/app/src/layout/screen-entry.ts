import { useIonViewDidEnter, useIonViewDidLeave } from '@ionic/react';
import { useEffect, useRef, type RefObject } from 'react';
import { focusHeadingOf } from './focus-heading.ts';

// Each navigation tells a screen-reader user where they are (issue 40): the document's title
// names the screen ("Tracked · Docket") and focus moves to the screen's heading, instead of
// staying on the body (or on a control of the page just left) with only "Loading" announced.

export function documentTitle(screenTitle: string): string {
  return `${screenTitle} · Docket`;
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
