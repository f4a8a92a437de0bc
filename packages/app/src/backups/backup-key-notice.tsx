import { IonButton } from '@ionic/react';
import type { BackupKeys } from './backup-keys.ts';
import './backups.css';

/**
 * What a backup screen shows instead of its contents while this device cannot seal or open
 * backups; null when it can.
 */
export function BackupKeyNotice({ keys }: { readonly keys: BackupKeys }) {
  switch (keys.status) {
    case 'ready':
      return null;
    case 'loading':
      return <p role="status">Loading…</p>;
    case 'signed-out':
      return <p role="status">Sign in to use backups.</p>;
    case 'no-password':
      return (
        <div className="backup-notice" role="status">
          <p>
            Backups are encrypted with your cloud password’s key, and this device does not have it
            yet. Set or enter your cloud password under More, then come back.
          </p>
          <IonButton routerLink="/tabs/more" fill="outline" size="small">
            Go to Cloud password
          </IonButton>
        </div>
      );
  }
}
