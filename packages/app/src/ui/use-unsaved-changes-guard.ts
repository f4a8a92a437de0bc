import { useIonViewDidEnter, useIonViewWillLeave } from '@ionic/react';
import { useContext, useEffect, useRef, useState } from 'react';
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

/**
 * Guards a form while `dirty`. `message` says what would be lost, in the form's own words
 * ("The changes you made to this dataset will be lost."); `onLeave` forgets the changes.
 */
export function useUnsavedChangesGuard(dirty: boolean, onLeave: () => void, message: string): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [presentAlert] = useAlert();
  // Ionic keeps pages it has shown mounted; only the page in front may hold navigation up.
  const [showing, setShowing] = useState(true);
  useIonViewDidEnter(() => {
    setShowing(true);
  });
  useIonViewWillLeave(() => {
    setShowing(false);
  });
  // Held across renders: a render while the browser is on its way back to the form must
  // neither forget that nor take the entry it passes through for the form's.
  const guard = useRef<TraversalGuard>(idleTraversalGuard);
  const latest = useRef({ onLeave, presentAlert, message });
  useEffect(() => {
    latest.current = { onLeave, presentAlert, message };
  }, [onLeave, presentAlert, message]);

  /** Undoes the navigator wrapping while it is in place. */
  const unwrap = useRef<() => void>(() => undefined);
  /** Leave or Stay, one question at a time, for a link and for Back or Forward alike. */
  const ask = useRef((proceed: Proceed) => {
    const started = startAsking(guard.current);
    guard.current = started.guard;
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
              guard.current = stay(guard.current);
            },
          },
          {
            text: 'Leave',
            role: 'destructive',
            handler: () => {
              const left = leave(guard.current);
              guard.current = left.guard;
              unwrap.current();
              latest.current.onLeave();
              proceed(left.move);
            },
          },
        ],
        onDidDismiss: () => {
          guard.current = stopAsking(guard.current);
        },
      })
      .catch((error: unknown) => {
        guard.current = stopAsking(guard.current);
        console.error('Could not ask before leaving the form', error);
      });
  });

  // Back and Forward: one listener for the form's whole life, which reads the guard from the
  // ref. It runs ahead of React Router's own (history-traversal-listener.ts), so a hidden event
  // never reaches the router (nor Ionic, which learns of moves from the router) and both still
  // stand on the form's entry when the browser returns to it.
  useEffect(
    () =>
      listenForTraversals((event) => {
        const step = onTraversal(guard.current, historyIndex(event.state));
        guard.current = step.guard;
        const { decision } = step;
        if (decision.kind === 'pass') return false;
        if (decision.go !== null) window.history.go(decision.go);
        // Asked only once the browser is home, so Stay has nothing left to undo and Leave's
        // move starts from the entry the router believes it is on.
        if (decision.ask) {
          ask.current((move) => {
            if (move !== null) window.history.go(move);
          });
        }
        return true;
      }),
    [],
  );

  // Switched on and off only when the form's dirtiness or visibility changes, so the form's
  // entry is read while the browser stands on it.
  useEffect(() => {
    if (!dirty || !showing) return;
    guard.current = armTraversalGuard(guard.current, historyIndex(window.history.state));
    return () => {
      guard.current = disarmTraversalGuard(guard.current);
    };
  }, [dirty, showing]);

  useEffect(() => {
    if (!dirty || !showing) return;
    const slots = navigator as unknown as Record<'push' | 'replace' | 'go', unknown>;
    const saved = { push: slots.push, replace: slots.replace, go: slots.go };
    const original = {
      push: navigator.push.bind(navigator),
      replace: navigator.replace.bind(navigator),
      go: navigator.go.bind(navigator),
    };
    const restore = () => {
      Object.assign(slots, saved);
    };
    const held = (proceed: () => void) => {
      ask.current(proceed);
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
    unwrap.current = restore;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      unwrap.current = () => undefined;
      restore();
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [dirty, showing, navigator]);
}
