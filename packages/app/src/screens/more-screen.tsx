import { IonButton, IonLabel, useIonRouter } from '@ionic/react';
import type { MouseEvent } from 'react';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useSignOutChoice } from '../device-data/sign-out-choice.ts';
import { useAppState } from '../state/use-app-state.ts';
import { ServerSpacePanel } from '../sync/server-space-panel.tsx';
import { SyncPanel } from '../sync/sync-panel.tsx';
import { DeviceSettingsPanel } from '../settings/device-settings-panel.tsx';
import { ApiKeysPanel } from '../settings/api-keys-panel.tsx';
import { IonItem } from '../ui/ionic/ion-item.ts';
import { IonList } from '../ui/ionic/ion-list.ts';
import { SkipToTabs } from '../layout/skip-links.tsx';

const links = [
  { label: 'Workspaces', href: '/tabs/more/workspaces' },
  { label: 'Activity', href: '/tabs/more/activity' },
  { label: 'Tags', href: '/bill-tags' },
  { label: 'Jobs', href: '/jobs' },
  { label: 'Import', href: '/import' },
  { label: 'Export', href: '/export' },
  { label: 'Full backups', href: '/add-full-backup' },
  { label: 'Trace', href: '/trace' },
  { label: 'Terms of service', href: '/terms-of-service' },
] as const;

/** The More tab: the cloud password, the app's other screens and signing out. */
export function MoreScreen() {
  const email = useAppState((state) => state.email);
  const ionRouter = useIonRouter();
  const signOut = useSignOutChoice();
  return (
    <>
      <PageHeader title="More" />
      <PageBody>
        <h1>More</h1>
        <SkipToTabs />
        {email !== null && <p>Signed in as {email}.</p>}
        <section aria-labelledby="more-sync" className="more-sync">
          <h2 id="more-sync">Sync</h2>
          <SyncPanel />
        </section>
        <section aria-labelledby="more-space">
          <h2 id="more-space">Space on the server</h2>
          <ServerSpacePanel />
        </section>
        <section aria-labelledby="more-settings">
          <h2 id="more-settings">Settings</h2>
          <DeviceSettingsPanel />
          <h3 id="more-api-keys">API keys</h3>
          <ApiKeysPanel />
        </section>
        <nav aria-label="More">
          <IonList>
            {links.map(({ label, href }) => (
              <IonItem
                key={href}
                href={href}
                detail
                onClick={(event: MouseEvent) => {
                  // As Ionic's routerLink: a modified click opens a tab; a plain one stays here.
                  if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                  event.preventDefault();
                  ionRouter.push(href);
                }}
              >
                <IonLabel>{label}</IonLabel>
              </IonItem>
            ))}
          </IonList>
        </nav>
        <IonButton
          className="sign-out"
          expand="block"
          fill="outline"
          color="danger"
          onClick={signOut}
        >
          Sign out
        </IonButton>
      </PageBody>
    </>
  );
}
