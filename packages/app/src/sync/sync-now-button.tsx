import { IonButton } from '@ionic/react';
import { useAppServices } from '../app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { syncSentence } from './sync-words.ts';
import { useSyncState } from './use-sync-state.ts';

/** The More tab's sync line: where sync stands, and "Sync now". */
export function SyncNowButton() {
  const { sync } = useAppServices();
  const { view } = useSyncState();
  const online = useAppState((state) => state.online);
  const signedIn = useAppState((state) => state.user !== null);
  return (
    <>
      <p role="status" className="sync-sentence">
        {syncSentence(online ? view : { kind: 'offline' })}
      </p>
      <IonButton
        expand="block"
        disabled={!online || !signedIn || view.kind === 'syncing'}
        onClick={() => {
          sync.syncNow();
        }}
      >
        Sync now
      </IonButton>
    </>
  );
}
