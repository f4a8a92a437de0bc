import { IonPage } from '@ionic/react';
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { Route } from 'react-router-dom';
import { AccessGuardView } from './access-guard-view.tsx';
import { WaitContent } from './wait-content.tsx';

/**
 * A screen whose code loads when it is first shown, in a chunk of its own, so the first screen
 * does not wait for every other one (the service worker precaches them all for offline use).
 * `load` names the export: `lazyScreen(() => import('./x-screen.tsx').then((m) => m.XScreen))`.
 */
export function lazyScreen<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  return lazy(async () => ({ default: await load() }));
}

/**
 * Every route renders one stable IonPage (Ionic animates and caches it); screens render only
 * their header and content inside it, so the guard can swap its spinner for the screen.
 */
function RoutePage({
  guardPattern,
  showWhileAuthenticating = false,
  children,
}: {
  guardPattern?: string;
  showWhileAuthenticating?: boolean;
  children: ReactElement;
}) {
  // The page element itself never waits (Ionic animates it once); only its content does.
  const screen = <Suspense fallback={<WaitContent />}>{children}</Suspense>;
  return (
    <IonPage>
      {guardPattern === undefined ? (
        screen
      ) : (
        <AccessGuardView pattern={guardPattern} showWhileAuthenticating={showWhileAuthenticating}>
          {screen}
        </AccessGuardView>
      )}
    </IonPage>
  );
}

/** A route anyone may open (spec §6). A function, not a component: outlets read Route children. */
export function openRoute(path: string, screen: ReactElement) {
  return <Route key={path} path={path} element={<RoutePage>{screen}</RoutePage>} />;
}

/**
 * A route that requires sign-in, behind the access guard. `guardPattern` is the route's full
 * pattern when `path` is relative to an outer route (the tabs' own routes).
 */
export function guardedRoute(path: string, screen: ReactElement, guardPattern: string = path) {
  return (
    <Route
      key={path}
      path={path}
      element={<RoutePage guardPattern={guardPattern}>{screen}</RoutePage>}
    />
  );
}

/**
 * /login: guarded like the others (a signed-in visitor with a returnToLink is sent on to it), but
 * its form is shown during the 'Authenticating' wait, which the screen announces itself.
 */
export function loginRoute(path: string, screen: ReactElement) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <RoutePage guardPattern={path} showWhileAuthenticating>
          {screen}
        </RoutePage>
      }
    />
  );
}

/** The index route of a nested outlet (e.g. /tabs itself), behind the guard of `guardPattern`. */
export function guardedIndexRoute(guardPattern: string, screen: ReactElement) {
  return (
    <Route
      key={`${guardPattern} index`}
      index
      element={<RoutePage guardPattern={guardPattern}>{screen}</RoutePage>}
    />
  );
}

/**
 * A route whose screen is a page by itself: IonTabs makes its own page element and stays
 * invisible inside another IonPage. It is never swapped for a guard's spinner page: the outlet
 * runs its entering transition once, for the first element it is given, and a page element that
 * replaces it afterwards keeps Ionic's `ion-page-invisible` (opacity 0) for good. The guard sits
 * on the routes inside it instead (see TabsScreen).
 */
export function pageRoute(path: string, page: ReactElement) {
  return <Route key={path} path={path} element={page} />;
}
