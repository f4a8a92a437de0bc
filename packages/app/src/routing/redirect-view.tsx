import { useIonRouter } from '@ionic/react';
import { useEffect } from 'react';
import { useLocation, useResolvedPath } from 'react-router-dom';

/**
 * Replaces the current history entry with `to` each time the location enters this route.
 * Unlike <Navigate>, which navigates on every render, it stays quiet while Ionic keeps its
 * page cached and the location is elsewhere.
 */
export function RedirectView({ to }: { readonly to: string }) {
  const routePath = useResolvedPath('.').pathname;
  const { pathname, key } = useLocation();
  const ionRouter = useIonRouter();
  const here = pathname === routePath || pathname === `${routePath}/`;
  useEffect(() => {
    if (here) ionRouter.push(to, 'none', 'replace');
    // ionRouter is a new object on each render; re-running for it would redirect twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [here, key, to]);
  return null;
}
