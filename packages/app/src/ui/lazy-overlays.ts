import type { AlertOptions, OverlayEventDetail, ToastOptions } from '@ionic/core/components';
import { useCallback, useRef } from 'react';
import { catchFallingFocus, visibleScreenHeading } from './falling-focus.ts';

// Ionic's alert and toast, loaded the first time one is shown instead of with the first screen.
// `useIonAlert` and `useIonToast` define their custom element as the hook first renders, so
// whichever screen of the app shell uses them puts the element's code (ion-alert and ion-toast,
// about 12 KB of brotli) in the script a visit to /login needs before its first paint (issue 19).
// These hooks present through the same controllers, so the overlays look and behave the same; a
// lint rule sends the app's code here instead of to the two Ionic hooks.

/** What the app's alerts and toasts are told as they close: the button's role and data. */
interface DismissHook {
  readonly onDidDismiss?: (event: CustomEvent<OverlayEventDetail>) => void;
}

interface OverlayController<Options, Overlay> {
  create(options: Options): Promise<Overlay>;
}

interface PresentedOverlay extends HTMLElement {
  present(): Promise<void>;
  dismiss(data?: unknown, role?: string): Promise<boolean>;
}

/** One load of a controller with its element defined, shared by every hook that asks. */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      // A failed load (say, offline before the service worker cached it) is tried again.
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

const loadControllers = loadOnce(() => import('./ionic/overlay-controllers.ts'));
const loadAlertController = async () => (await loadControllers()).alerts();
const loadToastController = async () => (await loadControllers()).toasts();

type Present<Options> = (options: Options & DismissHook) => Promise<void>;
type Dismiss = () => Promise<void>;

/**
 * Alerts asked for and not yet closed, across every hook, counted from the call to present: an
 * alert is not in the page until its code has loaded and its element is made, and a notice that
 * looked only at the page could slip in during that time and cover it (SyncNotice).
 */
let alertsOpen = 0;

/** Whether an alert is on screen or on its way there. */
export function alertOpenOrOpening(): boolean {
  return alertsOpen > 0;
}

interface OpenCounter {
  opened(): void;
  closed(): void;
}

const alertCounter: OpenCounter = {
  opened: () => {
    alertsOpen++;
  },
  closed: () => {
    alertsOpen = Math.max(0, alertsOpen - 1);
  },
};

/**
 * `[present, dismiss]` as Ionic's hooks give them: one overlay at a time per hook (a second
 * present while one shows does nothing; one that is closing does not count), `onDidDismiss` called as it closes, and `dismiss`
 * closing the one this hook showed, even while it is still being made.
 */
function useLazyOverlay<Options extends object, Overlay extends PresentedOverlay>(
  load: () => Promise<OverlayController<Options, Overlay>>,
  events: { readonly willDismiss: string; readonly didDismiss: string },
  counter?: OpenCounter,
  afterClose?: () => void,
): [Present<Options>, Dismiss] {
  // The overlay this hook shows, or a token while it is being made.
  const current = useRef<{ overlay?: Overlay; cancelled: boolean } | undefined>(undefined);
  const present = useCallback<Present<Options>>(
    async (options) => {
      if (current.current !== undefined) return;
      const shown: { overlay?: Overlay; cancelled: boolean } = { cancelled: false };
      current.current = shown;
      let counted = counter !== undefined;
      counter?.opened();
      const uncount = () => {
        if (counted) counter?.closed();
        counted = false;
      };
      const { onDidDismiss, ...rest } = options;
      try {
        const controller = await load();
        const overlay = await controller.create(rest as Options);
        shown.overlay = overlay;
        // Closing, it no longer holds the hook: a press in its leave animation (a person who
        // pressed Cancel, then the same button again at once) shows the next one, instead of
        // being dropped as "one already shows" (issue 38).
        overlay.addEventListener(
          events.willDismiss,
          () => {
            if (current.current === shown) current.current = undefined;
          },
          { once: true },
        );
        overlay.addEventListener(
          events.didDismiss,
          (event) => {
            if (current.current === shown) current.current = undefined;
            uncount();
            onDidDismiss?.(event as CustomEvent<OverlayEventDetail>);
            afterClose?.();
          },
          { once: true },
        );
        if (shown.cancelled) {
          uncount();
          overlay.remove();
          return;
        }
        await overlay.present();
      } catch (error) {
        if (current.current === shown) current.current = undefined;
        uncount();
        throw error;
      }
    },
    [load, events, counter, afterClose],
  );
  const dismiss = useCallback<Dismiss>(async () => {
    const shown = current.current;
    current.current = undefined;
    if (shown === undefined) return;
    shown.cancelled = true;
    await shown.overlay?.dismiss();
  }, []);
  return [present, dismiss];
}

/**
 * An alert gives focus back to what had it before it opened; when that went away meanwhile (the
 * cloud password's sheet, a row deleted by the alert's answer), focus would fall to the body. The
 * screen's heading takes it then.
 */
function focusAfterAlert(): void {
  catchFallingFocus(visibleScreenHeading);
}

const alertEvents = { willDismiss: 'ionAlertWillDismiss', didDismiss: 'ionAlertDidDismiss' };
const toastEvents = { willDismiss: 'ionToastWillDismiss', didDismiss: 'ionToastDidDismiss' };

/** Ionic's alert, as `useIonAlert` gives it, loaded when first shown. */
export function useAlert(): [Present<AlertOptions>, Dismiss] {
  return useLazyOverlay(loadAlertController, alertEvents, alertCounter, focusAfterAlert);
}

/** Ionic's toast, as `useIonToast` gives it, loaded when first shown. */
export function useToast(): [Present<ToastOptions>, Dismiss] {
  return useLazyOverlay(loadToastController, toastEvents);
}
