import { IonIcon, IonLabel, IonRouterOutlet, IonTabBar, IonTabButton, IonTabs } from '@ionic/react';
import {
  albumsOutline,
  bookmarkOutline,
  cloudUploadOutline,
  ellipsisHorizontal,
  layersOutline,
} from 'ionicons/icons';
import { lazy, Suspense, use, type KeyboardEvent, type ReactNode } from 'react';
import { RedirectView } from '../routing/redirect-view.tsx';
import { guardedIndexRoute, guardedRoute, lazyScreen } from '../routing/route-page.tsx';
import { useAppServices } from '../services/app-services.ts';
import { NotFoundScreen } from './not-found-screen.tsx';

const BackupsScreen = lazyScreen(() => import('./backups-screen.tsx').then((m) => m.BackupsScreen));
const DatasetsScreen = lazyScreen(() =>
  import('./datasets-screen.tsx').then((m) => m.DatasetsScreen),
);
const MoreScreen = lazyScreen(() => import('./more-screen.tsx').then((m) => m.MoreScreen));
const SwipeableBillsScreen = lazyScreen(() =>
  import('./swipeable-bills-screen.tsx').then((m) => m.SwipeableBillsScreen),
);
const WorkspacesScreen = lazyScreen(() =>
  import('./workspaces-screen.tsx').then((m) => m.WorkspacesScreen),
);
const WorkspaceScreen = lazyScreen(() =>
  import('./workspace-screen.tsx').then((m) => m.WorkspaceScreen),
);
const ActivityScreen = lazyScreen(() =>
  import('./activity-screen.tsx').then((m) => m.ActivityScreen),
);
const TrackedBillsScreen = lazyScreen(() =>
  import('./tracked-bills-screen.tsx').then((m) => m.TrackedBillsScreen),
);
// The watcher and the badge read the device's database: loaded once the first screen had its turn
// (AfterStart), so their code is not in the script a first visit needs before its first paint,
// and their chunks and reads do not queue in front of the first card's on a cold start.
const FreshDataWatcher = lazy(() =>
  import('../changes/fresh-data-watcher.tsx').then((m) => ({ default: m.FreshDataWatcher })),
);
const UnseenChangesBadge = lazy(() =>
  import('../changes/what-changed.tsx').then((m) => ({ default: m.UnseenChangesBadge })),
);
const UnseenActivityBadge = lazy(() => import('../activity/unseen-activity-badge.tsx'));

/** Renders `children` once the first screen had its turn (AppServices.started); nothing before. */
function AfterStart({ children }: { children: ReactNode }) {
  use(useAppServices().started);
  return children;
}

const tabs = [
  { tab: 'bills', label: 'Bills', icon: albumsOutline },
  { tab: 'tracked', label: 'Tracked', icon: bookmarkOutline, Badge: UnseenChangesBadge },
  { tab: 'datasets', label: 'Datasets', icon: layersOutline },
  { tab: 'backups', label: 'Backups', icon: cloudUploadOutline },
  // Teammates' changes not yet seen: nothing in the personal space.
  { tab: 'more', label: 'More', icon: ellipsisHorizontal, Badge: UnseenActivityBadge },
] as const;

/**
 * Arrow keys between the tabs, as a tab list's keys go (WAI-ARIA's tabs pattern): Right and Left
 * to the next and previous tab, wrapping, Home and End to the first and last. Enter opens one.
 */
function moveBetweenTabs(event: KeyboardEvent<HTMLIonTabBarElement>): void {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const buttons = Array.from(event.currentTarget.querySelectorAll('ion-tab-button'));
  const from = buttons.findIndex((button) => button.contains(event.target as Node));
  if (from < 0) return;
  const last = buttons.length - 1;
  const to =
    event.key === 'ArrowRight'
      ? (from + 1) % buttons.length
      : event.key === 'ArrowLeft'
        ? (from + last) % buttons.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? last
            : null;
  if (to === null) return;
  event.preventDefault();
  buttons[to]?.shadowRoot?.querySelector<HTMLElement>('a')?.focus();
}

/**
 * /tabs/*: the five tabs. IonTabs is a page of its own, shown at once; each tab, /tabs itself and
 * any unknown tab are behind the access guard inside it (see pageRoute for why not around it).
 */
export function TabsScreen() {
  return (
    <>
      {/* Renders nothing: refreshes and alerts while the tabs are open. */}
      <Suspense fallback={null}>
        <AfterStart>
          <FreshDataWatcher />
        </AfterStart>
      </Suspense>
      <IonTabs>
        <IonRouterOutlet>
          {guardedRoute('bills', <SwipeableBillsScreen />, '/tabs/bills')}
          {guardedRoute('tracked', <TrackedBillsScreen />, '/tabs/tracked')}
          {guardedRoute('datasets', <DatasetsScreen />, '/tabs/datasets')}
          {guardedRoute('backups', <BackupsScreen />, '/tabs/backups')}
          {guardedRoute('more', <MoreScreen />, '/tabs/more')}
          {guardedRoute('more/workspaces', <WorkspacesScreen />, '/tabs/more/workspaces')}
          {guardedRoute('more/activity', <ActivityScreen />, '/tabs/more/activity')}
          {guardedRoute(
            'more/workspaces/:workspaceId',
            <WorkspaceScreen />,
            '/tabs/more/workspaces/:workspaceId',
          )}
          {guardedIndexRoute('/tabs', <RedirectView to="/tabs/bills" />)}
          {guardedRoute('*', <NotFoundScreen />, '/tabs/*')}
        </IonRouterOutlet>
        <IonTabBar slot="bottom" onKeyDown={moveBetweenTabs}>
          {tabs.map(({ tab, label, icon, ...rest }) => {
            const Badge = 'Badge' in rest ? rest.Badge : null;
            return (
              <IonTabButton key={tab} tab={tab} href={`/tabs/${tab}`}>
                <IonIcon aria-hidden="true" icon={icon} />
                <IonLabel>{label}</IonLabel>
                {Badge !== null && (
                  <Suspense fallback={null}>
                    <AfterStart>
                      <Badge />
                    </AfterStart>
                  </Suspense>
                )}
              </IonTabButton>
            );
          })}
        </IonTabBar>
      </IonTabs>
    </>
  );
}
