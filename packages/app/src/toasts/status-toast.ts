import { useCallback, useMemo } from 'react';
import { useToast } from '../ui/lazy-overlays.ts';

// What a screen says after a person's action ("Tag added.", "Position set to Watch."): an Ionic
// toast that leaves by itself, so no bar stays over the screen's text and buttons. It is shown
// just under the page's header (anchored to it), never over the header's back button or the
// sync state, and, being short-lived, over the content's top edge only for a moment. Ionic's
// toast content is role="status" with aria-live="polite", so screen readers read it out without
// taking the focus. Every screen goes through this one helper.

/** How long a status stays: long enough to read a sentence, short enough not to linger. */
export const STATUS_TOAST_MS = 4_000;
/** A failure stays longer and can be dismissed: it may need to be read twice. */
export const FAILURE_TOAST_MS = 8_000;

export interface StatusToast {
  /** Says that something was done. */
  readonly done: (message: string) => void;
  /** Says that something could not be done, and why. */
  readonly failed: (message: string) => void;
}

/**
 * The header of the page in front: the one a person sees at the top of the screen. Ionic keeps
 * pages it has shown in the DOM with `ion-page-hidden` (not laid out); a modal's header is left
 * out, since a message comes as the modal closes. Pages entering come after the pages they cover.
 */
export function frontPageHeader(root: ParentNode = document): HTMLElement | undefined {
  let front: HTMLElement | undefined;
  for (const header of root.querySelectorAll<HTMLElement>('ion-header')) {
    if (header.closest('ion-modal, ion-popover, .ion-page-hidden') !== null) continue;
    const box = header.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    front = header;
  }
  return front;
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
      const anchor = frontPageHeader();
      // One at a time: a newer message replaces the one showing instead of stacking over it.
      dismissShownToasts()
        .then(() =>
          present({
            message,
            duration: failed ? FAILURE_TOAST_MS : STATUS_TOAST_MS,
            position: 'top',
            ...(anchor === undefined ? {} : { positionAnchor: anchor }),
            color: failed ? 'danger' : 'dark',
            cssClass: TOAST_CLASS,
            swipeGesture: 'vertical',
            buttons: failed ? [{ text: 'Dismiss', role: 'cancel' }] : [],
          }),
        )
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
