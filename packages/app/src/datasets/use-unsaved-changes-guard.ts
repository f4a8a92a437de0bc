import { useIonAlert, useIonViewDidEnter, useIonViewWillLeave } from '@ionic/react';
import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';

// Warns before a form with unsaved changes is left. React Router 6's useBlocker needs a data
// router, and IonReactRouter is a plain BrowserRouter whose history has no `block`; so while
// the form is dirty and its page is the one showing, the router's navigator is wrapped: a
// push, replace or go (which is how Ionic's links, tabs and back button navigate) first asks
// "Leave without saving?". Closing or reloading the tab gets the browser's own prompt.

type Navigator = React.ContextType<typeof UNSAFE_NavigationContext>['navigator'];
type Proceed = () => void;

export const LEAVE_HEADER = 'Leave without saving?';

export function useUnsavedChangesGuard(dirty: boolean, onLeave: () => void): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [presentAlert] = useIonAlert();
  // Ionic keeps pages it has shown mounted; only the page in front may hold navigation up.
  const [showing, setShowing] = useState(true);
  useIonViewDidEnter(() => {
    setShowing(true);
  });
  useIonViewWillLeave(() => {
    setShowing(false);
  });
  const onLeaveRef = useRef(onLeave);
  useEffect(() => {
    onLeaveRef.current = onLeave;
  }, [onLeave]);

  useEffect(() => {
    if (!dirty || !showing) return;
    const slots = navigator as unknown as Record<'push' | 'replace' | 'go', unknown>;
    const saved = { push: slots.push, replace: slots.replace, go: slots.go };
    const original = {
      push: navigator.push.bind(navigator),
      replace: navigator.replace.bind(navigator),
      go: navigator.go.bind(navigator),
    };
    let asking = false;
    const restore = () => {
      Object.assign(slots, saved);
    };
    const ask = (proceed: Proceed) => {
      if (asking) return;
      asking = true;
      void presentAlert({
        header: LEAVE_HEADER,
        message: 'The changes you made to this dataset will be lost.',
        backdropDismiss: false,
        buttons: [
          { text: 'Stay', role: 'cancel' },
          {
            text: 'Leave',
            role: 'destructive',
            handler: () => {
              restore();
              onLeaveRef.current();
              proceed();
            },
          },
        ],
        onDidDismiss: () => {
          asking = false;
        },
      });
    };
    Object.assign(slots, {
      push: (...args: Parameters<Navigator['push']>) => {
        ask(() => {
          original.push(...args);
        });
      },
      replace: (...args: Parameters<Navigator['replace']>) => {
        ask(() => {
          original.replace(...args);
        });
      },
      go: (delta: number) => {
        ask(() => {
          original.go(delta);
        });
      },
    });
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      restore();
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [dirty, showing, navigator, presentAlert]);
}
