import { IonPage } from '@ionic/react';
import type { ReactElement } from 'react';
import { Route } from 'react-router-dom';
import { AccessGuardView } from './access-guard-view.tsx';

/**
 * Every route renders one stable IonPage (Ionic animates and caches it); screens render only
 * their header and content inside it, so the guard can swap its spinner for the screen.
 */
function RoutePage({ guardPattern, children }: { guardPattern?: string; children: ReactElement }) {
  return (
    <IonPage>
      {guardPattern === undefined ? (
        children
      ) : (
        <AccessGuardView pattern={guardPattern}>{children}</AccessGuardView>
      )}
    </IonPage>
  );
}

/** A route anyone may open (spec §6). A function, not a component: outlets read Route children. */
export function openRoute(path: string, screen: ReactElement) {
  return <Route key={path} path={path} element={<RoutePage>{screen}</RoutePage>} />;
}

/** A route that requires sign-in, behind the access guard. */
export function guardedRoute(path: string, screen: ReactElement) {
  return (
    <Route key={path} path={path} element={<RoutePage guardPattern={path}>{screen}</RoutePage>} />
  );
}

/**
 * A guarded route whose screen is a page by itself: IonTabs makes its own page element and
 * stays invisible inside another IonPage.
 */
export function guardedPageRoute(path: string, page: ReactElement) {
  return (
    <Route
      key={path}
      path={path}
      element={
        <AccessGuardView pattern={path} standalone>
          {page}
        </AccessGuardView>
      }
    />
  );
}
