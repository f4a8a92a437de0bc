import { IonButton } from '@ionic/react';
import { NO_CLOUD_KEYS } from './workspace-words.ts';
import type { WorkspaceAccess } from './use-workspace-service.ts';

/** What a workspace screen shows instead of its contents while this device cannot use them. */
export function WorkspaceNotice({ access }: { readonly access: WorkspaceAccess }) {
  switch (access.status) {
    case 'ready':
      return null;
    case 'loading':
      return <p role="status">Loading…</p>;
    case 'signed-out':
      return <p role="status">Sign in to use workspaces.</p>;
    case 'no-password':
      return (
        <div className="workspace-notice" role="status">
          <p>{NO_CLOUD_KEYS}.</p>
          <p>
            Your workspace key is kept sealed under your cloud password’s key, so this device needs
            it first. Set or enter it under More, then come back.
          </p>
          <IonButton routerLink="/tabs/more" fill="outline" size="small">
            Go to Cloud password
          </IonButton>
        </div>
      );
  }
}
