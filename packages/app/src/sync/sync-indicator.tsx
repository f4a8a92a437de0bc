import { IonButton, IonSpinner } from '@ionic/react';
import { useAppServices } from '../services/app-services.ts';
import { useSyncState } from './use-sync-state.ts';
import { syncLabel, syncSentence } from './sync-words.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import type { SyncRunnerApi } from './lazy-sync-runner.ts';
import type { SyncView } from './sync-runner-types.ts';

/** The alert's button for a repair the error offers, if it offers one; a failure is logged. */
function repairButton(
  offered: boolean,
  text: string,
  repair: () => Promise<unknown>,
  failure: string,
): { text: string; handler: () => void }[] {
  if (!offered) return [];
  return [
    {
      text,
      handler: () => {
        repair().catch((error: unknown) => {
          console.error(failure, error);
        });
      },
    },
  ];
}

/** A sync error, as the header shows it. */
type SyncErrorView = Extract<SyncView, { readonly kind: 'error' }>;

/** What the error alert adds about the repair it offers (skipping a change), if any. */
export function repairWords(view: SyncErrorView): string {
  return view.skippable !== undefined
    ? ' "Skip this change" lets the changes after it sync; what it held is lost to this device.'
    : view.unsendable !== undefined
      ? ' "Skip this change" lets the changes after it sync; this device keeps the row as it is, but your other devices never get this change.'
      : '';
}

/** The "Sync error" alert: what went wrong, the repairs on offer, and Sync now. */
function presentSyncError(
  presentAlert: ReturnType<typeof useAlert>[0],
  sync: SyncRunnerApi,
  view: SyncErrorView,
  sentence: string,
): void {
  const skippable = view.skippable ?? 0;
  const unsendable = view.unsendable ?? '';
  presentAlert({
    header: 'Sync error',
    message: `${sentence}${repairWords(view)}`,
    buttons: [
      { text: 'OK', role: 'cancel' },
      ...repairButton(
        view.handOver !== undefined,
        'Start afresh',
        () => sync.handOverDevice(),
        '[docket] Could not start afresh:',
      ),
      ...repairButton(
        view.skippable !== undefined,
        'Skip this change',
        () => sync.skipChange(skippable),
        '[docket] Could not skip the change:',
      ),
      ...repairButton(
        view.unsendable !== undefined,
        'Skip this change',
        () => sync.skipUnsendable(unsendable),
        '[docket] Could not skip the change:',
      ),
      {
        text: 'Sync now',
        handler: () => {
          sync.syncNow();
        },
      },
    ],
  }).catch((error: unknown) => {
    console.error('[docket] Could not show the sync error:', error);
  });
}

/** The header's sync state (PRODUCT.md: the header always shows it). */
export function SyncIndicator() {
  const { sync } = useAppServices();
  const { view } = useSyncState();
  const [presentAlert] = useAlert();
  const label = syncLabel(view);
  if (label === null) return null;
  const sentence = syncSentence(view);

  if (view.kind === 'needs-terms') {
    return (
      <IonButton
        size="small"
        fill="outline"
        title={sentence}
        onClick={() => {
          sync.askForTerms();
        }}
      >
        {label}
      </IonButton>
    );
  }
  if (view.kind === 'needs-password') {
    return (
      <IonButton routerLink="/tabs/more" size="small" fill="outline" title={sentence}>
        {label}
      </IonButton>
    );
  }
  if (view.kind === 'error') {
    return (
      <IonButton
        size="small"
        color="danger"
        title={sentence}
        onClick={() => {
          presentSyncError(presentAlert, sync, view, sentence);
        }}
      >
        {label}
      </IonButton>
    );
  }
  return (
    <span className="sync-indicator" title={sentence}>
      {view.kind === 'syncing' && <IonSpinner name="dots" aria-hidden="true" />}
      {label}
    </span>
  );
}
