import { useEffect } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { HOME_PATH } from '../routing/route-paths.ts';
import { watchConnectivity } from './connectivity.ts';

/** Wires the browser's online/offline events to the app state and the router. */
export function ConnectivityWatcher() {
  const { appStore } = useAppServices();
  useEffect(
    () =>
      watchConnectivity(
        window,
        {
          setOnline: (online) => {
            appStore.update({ online });
          },
          // The root becomes the page's address without telling the router: the reload that
          // follows loads it. Routed, the root's redirect would replace or pop the history
          // entry before the page unloads, and a traversal started after a reload cancels it.
          navigateHome: () => {
            window.history.pushState(null, '', HOME_PATH);
          },
          reloadPage: () => {
            window.location.reload();
          },
        },
        !navigator.onLine,
      ),
    [appStore],
  );
  return null;
}
