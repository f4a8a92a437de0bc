import { IonIcon, IonLabel, IonRouterOutlet, IonTabBar, IonTabButton, IonTabs } from '@ionic/react';
import {
  albumsOutline,
  bookmarkOutline,
  cloudUploadOutline,
  ellipsisHorizontal,
  layersOutline,
} from 'ionicons/icons';
import { Route } from 'react-router-dom';
import { RedirectView } from '../routing/redirect-view.tsx';
import { openRoute } from '../routing/route-page.tsx';
import { BackupsScreen } from './backups-screen.tsx';
import { DatasetsScreen } from './datasets-screen.tsx';
import { MoreScreen } from './more-screen.tsx';
import { NotFoundScreen } from './not-found-screen.tsx';
import { SwipeableBillsScreen } from './swipeable-bills-screen.tsx';
import { TrackedBillsScreen } from './tracked-bills-screen.tsx';

const tabs = [
  { tab: 'bills', label: 'Bills', icon: albumsOutline },
  { tab: 'tracked', label: 'Tracked', icon: bookmarkOutline },
  { tab: 'datasets', label: 'Datasets', icon: layersOutline },
  { tab: 'backups', label: 'Backups', icon: cloudUploadOutline },
  { tab: 'more', label: 'More', icon: ellipsisHorizontal },
] as const;

/**
 * /tabs/*: the five tabs. The whole route is behind the access guard, so the tabs themselves
 * are open routes inside it.
 */
export function TabsScreen() {
  return (
    <IonTabs>
      <IonRouterOutlet>
        {openRoute('bills', <SwipeableBillsScreen />)}
        {openRoute('tracked', <TrackedBillsScreen />)}
        {openRoute('datasets', <DatasetsScreen />)}
        {openRoute('backups', <BackupsScreen />)}
        {openRoute('more', <MoreScreen />)}
        <Route index element={<RedirectView to="/tabs/bills" />} />
        {openRoute('*', <NotFoundScreen />)}
      </IonRouterOutlet>
      <IonTabBar slot="bottom">
        {tabs.map(({ tab, label, icon }) => (
          <IonTabButton key={tab} tab={tab} href={`/tabs/${tab}`}>
            <IonIcon aria-hidden="true" icon={icon} />
            <IonLabel>{label}</IonLabel>
          </IonTabButton>
        ))}
      </IonTabBar>
    </IonTabs>
  );
}
