import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppServices } from '../app-services.ts';
import { HOME_PATH } from '../routing/route-paths.ts';
import { watchConnectivity } from './connectivity.ts';

/** Wires the browser's online/offline events to the app state and the router. */
export function ConnectivityWatcher() {
  const { appStore } = useAppServices();
  const navigate = useNavigate();
  useEffect(
    () =>
      watchConnectivity(
        window,
        {
          setOnline: (online) => {
            appStore.update({ online });
          },
          navigateHome: () => {
            navigate(HOME_PATH);
          },
          reloadPage: () => {
            window.location.reload();
          },
        },
        !navigator.onLine,
      ),
    [appStore, navigate],
  );
  return null;
}
