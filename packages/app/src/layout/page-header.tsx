import { IonBackButton, IonBadge, IonButtons, IonHeader, IonTitle, IonToolbar } from '@ionic/react';
import { lazy, Suspense, useRef } from 'react';
import { isOffline } from '../state/app-store.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useScreenEntry } from './screen-entry.ts';
import { SyncIndicator } from '../sync/sync-indicator.tsx';
import { waitingWords } from '../sync/sync-words.ts';

// The space switcher (issue 39) loads after the first paint: the first screens' script has a
// budget (scripts/check-bundle-budget.mjs), and most accounts never enter a workspace.
const SpaceSwitcher = lazy(() => import('../workspaces/space-switcher.tsx'));

export interface PageHeaderProps {
  readonly title: string;
  /** Where the back button leads when there is no history to go back to. */
  readonly backHref?: string;
}

/**
 * The toolbar every page shows: its title, the space it works in (once the account entered a
 * team workspace here), the app's connection and the sync state. Entering the
 * page names it in the document's title and moves focus to its heading (screen-entry.ts).
 */
export function PageHeader({ title, backHref }: PageHeaderProps) {
  const offline = useAppState(isOffline);
  const waiting = useAppState((state) => state.waitingChanges);
  const anchor = useRef<HTMLIonHeaderElement>(null);
  useScreenEntry(title, anchor);
  return (
    <IonHeader ref={anchor}>
      <IonToolbar>
        {backHref !== undefined && (
          <IonButtons slot="start">
            <IonBackButton defaultHref={backHref} />
          </IonButtons>
        )}
        <IonTitle>{title}</IonTitle>
        <IonButtons slot="end" className="page-status">
          <Suspense fallback={null}>
            <SpaceSwitcher />
          </Suspense>
          {offline && (
            <IonBadge color="warning" role="status">
              Offline
            </IonBadge>
          )}
          {offline && waiting > 0 && (
            <IonBadge color="light" role="status" className="waiting-changes">
              {waitingWords(waiting)}
            </IonBadge>
          )}
          <SyncIndicator />
        </IonButtons>
      </IonToolbar>
    </IonHeader>
  );
}
