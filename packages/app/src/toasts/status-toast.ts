import { useCallback, useMemo } from 'react';
import { useToast } from '../ui/lazy-overlays.ts';

// What a screen says after a person's action ("Tag added.", "Position set to Watch."): an Ionic
// toast that leaves by itself, so no bar stays over the screen's text and buttons. It is shown
// at the bottom, above the tab bar where the page has one (anchored to it), never over the
// page's title, the header's back button or the sync state, and, being short-lived, over the
// content's bottom edge only for a moment. Ionic's
// toast content is role="status" with aria-live="polite", so screen readers read it out without
// taking the focus. Every screen goes through this one helper.

/** How long a status stays: long enough to read a sentence, short enough not to linger. */
export const STATUS_TOAST_MS = 4_000;
/** A failure stays longer and can be dismissed: it may need to be read twice. */
export const FAILURE_TOAST_MS = 8_000;

/**
 * How long a status stays: STATUS_TOAST_MS, or longer for a long sentence (a quarter of a second
 * a word, after a second and a half to notice it), so that it can be read before it leaves.
 */
export function statusToastMs(message: string): number {
  const words = message.split(/\s+/).filter((word) => word !== '').length;
  return Math.max(STATUS_TOAST_MS, 1_500 + words * 250);
}

export interface StatusToast {
  /** Says that something was done. */
  readonly done: (message: string) => void;
  /** Says that something could not be done, and why. */
  readonly failed: (message: string) => void;
}

/**
 * The last element matching `selector` laid out on the page in front: Ionic keeps pages it has
 * shown in the DOM with `ion-page-hidden` (not laid out); a modal's is left out, since a message
 * comes as the modal closes. Pages entering come after the pages they cover.
 */
function frontElement(selector: string, root: ParentNode): HTMLElement | undefined {
  let front: HTMLElement | undefined;
  for (const element of root.querySelectorAll<HTMLElement>(selector)) {
    if (element.closest('ion-modal, ion-popover, .ion-page-hidden') !== null) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    front = element;
  }
  return front;
}

/** The tab bar of the page in front, when it has one (the five tabs; not a pushed page). */
export function frontTabBar(root: ParentNode = document): HTMLElement | undefined {
  return frontElement('ion-tab-bar', root);
}

const TOAST_CLASS = 'status-toast';

/**
 * Takes away every status toast showing, whichever page showed it (Ionic keeps the page that
 * showed one mounted, and its hook's own dismiss reaches only its own toasts).
 */
async function dismissShownToasts(): Promise<void> {
  const shown = document.querySelectorAll<HTMLIonToastElement>(`ion-toast.${TOAST_CLASS}`);
  await Promise.all(Array.from(shown, (toast) => toast.dismiss().catch(() => false)));
}

export function useStatusToast(): StatusToast {
  const [present] = useToast();
  const show = useCallback(
    (message: string, failed: boolean) => {
      // One at a time: a newer message replaces the one showing instead of stacking over it.
      dismissShownToasts()
        .then(() => {
          // At the bottom, above the tab bar where there is one (issue 40: never over the
          // page's title, and where a thumb can swipe it away). The tab bar in front as the
          // toast comes, not as it was asked for: a screen that says what it did and goes back
          // ("Backup saved.") has left by then.
          const anchor = frontTabBar();
          return present({
            message,
            duration: failed ? FAILURE_TOAST_MS : statusToastMs(message),
            position: 'bottom',
            ...(anchor === undefined ? {} : { positionAnchor: anchor }),
            color: failed ? 'danger' : 'dark',
            cssClass: TOAST_CLASS,
            swipeGesture: 'vertical',
            buttons: failed ? [{ text: 'Dismiss', role: 'cancel' }] : [],
          });
        })
        .catch((error: unknown) => {
          console.error('Could not show the message', message, error);
        });
    },
    [present],
  );
  return useMemo(
    () => ({
      done: (message: string) => {
        show(message, false);
      },
      failed: (message: string) => {
        show(message, true);
      },
    }),
    [show],
  );
}
