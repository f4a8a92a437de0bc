// Back and Forward reach the page as a popstate event on the window, and React Router learns of
// them from a popstate listener of its own. To hide a move from the router, a listener has to
// run before the router's and stop the event there. On the window, listeners run in the order
// they were added, capture or not (Chromium dispatches popstate at the window alone, so there is
// no capture phase ahead of it); a listener added by a form that mounts later runs after the
// router's and cannot hide anything. So one listener is added when this module is first
// imported, which is before the app renders its router, and forms register with it.

/** Returns true to hide the event from the router (and from the listeners after it). */
type TraversalListener = (event: PopStateEvent) => boolean;

const listeners = new Set<TraversalListener>();
let installed = false;

/** Adds the window's popstate listener once. Called on import; the app may call it earlier. */
export function installTraversalListener(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('popstate', (event) => {
    for (const listener of [...listeners]) {
      if (listener(event)) {
        event.stopImmediatePropagation();
        return;
      }
    }
  });
}

installTraversalListener();

/** Hears each Back and Forward before the router does; returns the way to stop hearing them. */
export function listenForTraversals(listener: TraversalListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
