import { IonApp } from '@ionic/react';
import { IonReactRouter } from '@ionic/react-router';
import { useEffect } from 'react';
import { AppServicesContext, type AppServices } from './services/app-services.ts';
import { ConnectivityWatcher } from './connectivity/connectivity-watcher.tsx';
import { AppRoutes } from './screens/app-routes.tsx';
import { SyncNotice } from './sync/sync-notice.tsx';
import { TermsPrompt } from './sync/sync-terms-prompt.tsx';

export interface AppProps {
  readonly services: AppServices;
  /** Called once the first render is committed (part of "the app is stable"). */
  readonly onFirstCommit: () => void;
}

export function App({ services, onFirstCommit }: AppProps) {
  useEffect(() => {
    onFirstCommit();
  }, [onFirstCommit]);
  return (
    <AppServicesContext value={services}>
      <IonApp>
        <IonReactRouter>
          <ConnectivityWatcher />
          <SyncNotice />
          <TermsPrompt />
          <AppRoutes />
        </IonReactRouter>
      </IonApp>
    </AppServicesContext>
  );
}
