import { IonPage } from '@ionic/react';
import { lazy, Suspense, useEffect, type ComponentType, type ReactElement } from 'react';
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
): ComponentType<Props> & Preloadable {
  let loading: Promise<ComponentType<Props>> | null = null;
  let loaded: ComponentType<Props> | null = null;
  const start = () => {
    loading ??= load().then(
      (screen) => {
        loaded = screen;
        return screen;
      },
      (error: unknown) => {
        // A failed load (offline, a new deploy) is tried again by the next caller.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return Object.assign(
    lazy(() =>
      loaded === null
        ? start().then((screen) => ({ default: screen }))
        : settledModule({ default: loaded }),
    ),
    {
      preload: () => {
        // The screen's own render reports a failure; a preload only starts the fetch early.
        start().catch(() => undefined);
      },
    },
  );
}

/**
 * A module already loaded, as a thenable that calls back at once. React's `lazy` renders its
 * component in the same pass when its loader's thenable settles synchronously; a promise, even
 * a resolved one, makes it suspend, and React then holds the revealed screen back for its
 * Suspense throttle (300 ms): on a cold start the deck, preloaded while the guard waited,
 * painted 300 ms after the guard let it in (cold-start-bench's trace).
 */
function settledModule<T>(module: T): Promise<T> {
  const thenable: PromiseLike<T> = {
    then: (onFulfilled) => {
      const value = onFulfilled ? onFulfilled(module) : module;
      return settledModule(value) as never;
    },
  };
  // React reads only `then`; the type of `lazy`'s loader asks for a Promise.
  return thenable as Promise<T>;
}

/** A lazy screen whose code can start loading before it renders. */
interface Preloadable {
  preload(): void;
}

function isPreloadable(type: unknown): type is Preloadable {
  return (
    (typeof type === 'object' || typeof type === 'function') &&
    type !== null &&
    typeof (type as Partial<Preloadable>).preload === 'function'
  );
}

/**
 * While the guard waits (500 ms at least, spec §4, then the session check), the screen's code
 * and the device's database get ready, so once it allows the screen the first card is a read
 * away rather than a chunk's fetch, a database's opening and then the read (cold-start-bench).
 * The database's code stays out of the first script: it loads here, after the first paint.
 */
function useReadyWhileGuarded(screen: ReactElement, guarded: boolean) {
  useEffect(() => {
    if (!guarded) return;
    if (isPreloadable(screen.type)) screen.type.preload();
    import('../local-store/live-database.ts')
      .then(({ warmLiveDatabase }) => warmLiveDatabase())
      .catch(() => undefined);
    // Once, when the route's page mounts: Ionic keeps the page (and this effect) afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
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
  useReadyWhileGuarded(children, guardPattern !== undefined);
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
