import { IonButton } from '@ionic/react';
import { useAppServices } from '../services/app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useCloudPassword } from './use-cloud-password.tsx';
import { CHECKING_SIGN_IN, syncSentence, waitingWords } from './sync-words.ts';
import { useSyncState } from './use-sync-state.ts';
import './sync-panel.css';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';

/**
 * The More tab's sync section: where sync stands (and how far a run has come), "Sync now" and
 * "Cloud password". Before any cloud password exists, "Set up sync" is the primary button. When
 * sync waits for the password, "Sync now" opens the cloud password modal (spec §4's waiting for
 * the password is that modal waiting); when it waits for the terms, it puts them in front of
 * the user.
 */
export function SyncPanel() {
  const { sync, authSync } = useAppServices();
  const { view } = useSyncState();
  const online = useAppState((state) => state.online);
  const email = useAppState((state) => state.email);
  const confirmed = useAppState((state) => state.user !== null);
  const cloudPassword = useCloudPassword();

  // A user this device knows whom the server has not confirmed yet (it could not be reached):
  // still signed in, never told to sign in.
  const checking = online && email !== null && !confirmed;
  const sentence = !online
    ? syncSentence({ kind: 'offline' })
    : checking
      ? CHECKING_SIGN_IN
      : syncSentence(view);
  // What has not reached the server, said while nothing is sending it (once sync was set up:
  // before, the sentence already says the work stays on this device until then).
  const waiting = useAppState((state) => state.waitingChanges);
  const neverSetUp = view.kind === 'needs-password' && view.mode === 'set';
  const held =
    waiting > 0 &&
    !neverSetUp &&
    (!online || (view.kind !== 'syncing' && view.kind !== 'up-to-date'))
      ? ` ${waitingWords(waiting)}.`
      : '';
  const setUp = !checking && view.kind === 'needs-password' && view.mode === 'set';
  const disabled = !online || email === null || view.kind === 'syncing' || cloudPassword.opening;

  const openCloudPassword = () => {
    cloudPassword.open().catch((error: unknown) => {
      console.error('[docket] Cloud password:', error);
    });
  };
  const syncNow = () => {
    if (checking) authSync.recheck();
    else if (view.kind === 'needs-password') openCloudPassword();
    else if (view.kind === 'needs-terms') sync.askForTerms();
    else sync.syncNow();
  };

  return (
    <div className="sync-panel">
      <p role="status" className="sync-sentence">
        {sentence}
        {held}
      </p>
      {online && <SyncProgress view={view} />}
      {setUp && (
        <IonButton expand="block" disabled={disabled} onClick={openCloudPassword}>
          Set up sync
        </IonButton>
      )}
      <IonButton
        expand="block"
        {...(setUp ? { fill: 'outline' } : {})}
        disabled={disabled}
        onClick={syncNow}
      >
        Sync now
      </IonButton>
      <IonButton
        expand="block"
        fill="outline"
        disabled={cloudPassword.opening}
        onClick={openCloudPassword}
      >
        Cloud password
      </IonButton>
      {cloudPassword.element}
    </div>
  );
}

/** How far a run has come, while one runs: a bar for the eye (the sentence says it in words). */
function SyncProgress({ view }: { readonly view: ReturnType<typeof useSyncState>['view'] }) {
  if (view.kind !== 'syncing') return null;
  const progress =
    view.total !== null && view.total > 0 ? Math.min(view.done, view.total) / view.total : null;
  return (
    <IonProgressBar
      className="sync-progress"
      aria-hidden="true"
      {...(progress === null ? { type: 'indeterminate' } : { value: progress })}
    />
  );
}
