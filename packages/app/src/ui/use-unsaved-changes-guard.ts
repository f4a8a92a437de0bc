import { useIonViewDidEnter, useIonViewWillLeave } from '@ionic/react';
import { type RefObject, useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';
import {
  armTraversalGuard,
  disarmTraversalGuard,
  historyIndex,
  idleTraversalGuard,
  leave,
  onTraversal,
  startAsking,
  stay,
  stopAsking,
  type TraversalGuard,
} from './history-traversal-guard.ts';
import { listenForTraversals } from './history-traversal-listener.ts';
import { useAlert } from './lazy-overlays.ts';

// Warns before a form with unsaved changes is left. React Router 6's useBlocker needs a data
// router, and IonReactRouter is a plain BrowserRouter whose history has no `block`; so while
// the form is dirty and its page is the one showing, the router's navigator is wrapped: a
// push, replace or go (which is how Ionic's links, tabs and back button navigate) first asks
// "Leave without saving?". The browser's Back and Forward buttons ask the same question (see
// history-traversal-guard.ts). Closing or reloading the tab gets the browser's own prompt.

type Navigator = React.ContextType<typeof UNSAFE_NavigationContext>['navigator'];
/** Carries on with the navigation that was held up; `move` is a Back or Forward to make again. */
type Proceed = (move: number | null) => void;

export const LEAVE_HEADER = 'Leave without saving?';

/** What the question takes from the latest render. */
interface LatestAsk {
  readonly onLeave: () => void;
  readonly presentAlert: ReturnType<typeof useAlert>[0];
  readonly message: string;
}

/** What the question, the Back and Forward listener and the navigator's wrapping share. */
interface LeaveQuestion {
  /**
   * Held across renders: a render while the browser is on its way back to the form must
   * neither forget that nor take the entry it passes through for the form's.
   */
  readonly guardRef: RefObject<TraversalGuard>;
  /** Undoes the navigator wrapping while it is in place. */
  readonly unwrapRef: RefObject<() => void>;
  /** Leave or Stay, one question at a time, for a link and for Back or Forward alike. */
  readonly askRef: RefObject<(proceed: Proceed) => void>;
}

/**
 * Guards a form while `dirty`. `message` says what would be lost, in the form's own words
 * ("The changes you made to this dataset will be lost."); `onLeave` forgets the changes.
 */
export function useUnsavedChangesGuard(dirty: boolean, onLeave: () => void, message: string): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [presentAlert] = useAlert();
  const showing = usePageShowing();
  const question = useLeaveQuestion(onLeave, presentAlert, message);
  useTraversalQuestion(question);
  useTraversalGuardArmed(dirty, showing, question);
  useNavigatorHeld(dirty, showing, navigator, question);
}

/** Whether the form's page is the one in front: Ionic keeps pages it has shown mounted, and only
 *  the page in front may hold navigation up. */
function usePageShowing(): boolean {
  const [showing, setShowing] = useState(true);
  useIonViewDidEnter(() => {
    setShowing(true);
  });
  useIonViewWillLeave(() => {
    setShowing(false);
  });
  return showing;
}

/** The guard, the question and the undoing of the navigator's wrapping, for the form's life. */
function useLeaveQuestion(
  onLeave: () => void,
  presentAlert: LatestAsk['presentAlert'],
  message: string,
): LeaveQuestion {
  const guardRef = useRef<TraversalGuard>(idleTraversalGuard);
  const latest = useRef<LatestAsk>({ onLeave, presentAlert, message });
  useEffect(() => {
    latest.current = { onLeave, presentAlert, message };
  }, [onLeave, presentAlert, message]);
  const unwrapRef = useRef<() => void>(() => undefined);
  const askRef = useRef((proceed: Proceed) => {
    askLeaveOrStay(guardRef, latest, unwrapRef, proceed);
  });
  return { guardRef, unwrapRef, askRef };
}

/** Leave or Stay: Leave unwraps the navigator, forgets the changes and goes on with `proceed`. */
function askLeaveOrStay(
  guardRef: RefObject<TraversalGuard>,
  latest: RefObject<LatestAsk>,
  unwrapRef: RefObject<() => void>,
  proceed: Proceed,
): void {
  const started = startAsking(guardRef.current);
  guardRef.current = started.guard;
  if (!started.ask) return;
  latest.current
    .presentAlert({
      header: LEAVE_HEADER,
      message: latest.current.message,
      backdropDismiss: false,
      buttons: [
        {
          text: 'Stay',
          role: 'cancel',
          handler: () => {
            guardRef.current = stay(guardRef.current);
          },
        },
        {
          text: 'Leave',
          role: 'destructive',
          handler: () => {
            const left = leave(guardRef.current);
            guardRef.current = left.guard;
            unwrapRef.current();
            latest.current.onLeave();
            proceed(left.move);
          },
        },
      ],
      onDidDismiss: () => {
        guardRef.current = stopAsking(guardRef.current);
      },
    })
    .catch((error: unknown) => {
      guardRef.current = stopAsking(guardRef.current);
      console.error('Could not ask before leaving the form', error);
    });
}

/**
 * Back and Forward: one listener for the form's whole life, which reads the guard from the
 * ref. It runs ahead of React Router's own (history-traversal-listener.ts), so a hidden event
 * never reaches the router (nor Ionic, which learns of moves from the router) and both still
 * stand on the form's entry when the browser returns to it.
 */
function useTraversalQuestion({ guardRef, askRef }: LeaveQuestion): void {
  useEffect(
    () =>
      listenForTraversals((event) => {
        const step = onTraversal(guardRef.current, historyIndex(event.state));
        guardRef.current = step.guard;
        const { decision } = step;
        if (decision.kind === 'pass') return false;
        if (decision.go !== null) window.history.go(decision.go);
        // Asked only once the browser is home, so Stay has nothing left to undo and Leave's
        // move starts from the entry the router believes it is on.
        if (decision.ask) {
          askRef.current((move) => {
            if (move !== null) window.history.go(move);
          });
        }
        return true;
      }),
    [guardRef, askRef],
  );
}

/**
 * The guard armed while the form is dirty and showing: switched on and off only when that
 * changes, so the form's entry is read while the browser stands on it.
 */
function useTraversalGuardArmed(
  dirty: boolean,
  showing: boolean,
  { guardRef }: LeaveQuestion,
): void {
  useEffect(() => {
    if (!dirty || !showing) return;
    guardRef.current = armTraversalGuard(guardRef.current, historyIndex(window.history.state));
    return () => {
      guardRef.current = disarmTraversalGuard(guardRef.current);
    };
  }, [dirty, showing, guardRef]);
}

/**
 * While the form is dirty and showing, the router's navigator asks before it moves, and closing
 * or reloading the tab gets the browser's own prompt.
 */
function useNavigatorHeld(
  dirty: boolean,
  showing: boolean,
  navigator: Navigator,
  { unwrapRef, askRef }: LeaveQuestion,
): void {
  useEffect(() => {
    if (!dirty || !showing) return;
    const restore = holdNavigator(navigator, (proceed) => {
      askRef.current(proceed);
    });
    unwrapRef.current = restore;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      unwrapRef.current = () => undefined;
      restore();
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [dirty, showing, navigator, unwrapRef, askRef]);
}

/**
 * Wraps the navigator's push, replace and go so that each goes through `held`, which carries it
 * on or not; returns what puts the navigator's own back.
 */
function holdNavigator(navigator: Navigator, held: (proceed: () => void) => void): () => void {
  const slots = navigator as unknown as Record<'push' | 'replace' | 'go', unknown>;
  const saved = { push: slots.push, replace: slots.replace, go: slots.go };
  const original = {
    push: navigator.push.bind(navigator),
    replace: navigator.replace.bind(navigator),
    go: navigator.go.bind(navigator),
  };
  Object.assign(slots, {
    push: (...args: Parameters<Navigator['push']>) => {
      held(() => {
        original.push(...args);
      });
    },
    replace: (...args: Parameters<Navigator['replace']>) => {
      held(() => {
        original.replace(...args);
      });
    },
    go: (delta: number) => {
      held(() => {
        original.go(delta);
      });
    },
  });
  return () => {
    Object.assign(slots, saved);
  };
}
