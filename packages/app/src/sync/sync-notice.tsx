import { useEffect } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { useSyncState } from './use-sync-state.ts';
import { alertOpenOrOpening, useAlert } from '../ui/lazy-overlays.ts';

/** An alert on screen, or asked for and still being made (not yet in the page). */
function anotherAlertOpen(): boolean {
  return alertOpenOrOpening() || document.querySelector('ion-alert:not(.overlay-hidden)') !== null;
}

/**
 * Tells the user, once, what sync did that they must know (a revert after a reset). It waits
 * for an alert already on screen (say, the cloud password's own answer) to close, so the two
 * never stack with the older one hiding the newer.
 */
export function SyncNotice() {
  const { sync } = useAppServices();
  const { notice, bringBackFrom } = useSyncState();
  const [presentAlert] = useAlert();
  useEffect(() => {
    if (notice === null) return;
    // Set once presented, or when the effect ends.
    let done = false;
    const present = () => {
      if (done) return;
      if (anotherAlertOpen()) return;
      done = true;
      let bring = false;
      presentAlert({
        header: 'Sync',
        message: notice,
        // After a revert: bringing the device's own work back is the default (the first
        // button, focused first); "Not now" leaves it in the full backup, whose Merge does it.
        buttons:
          bringBackFrom === null
            ? [{ text: 'OK', role: 'cancel' }]
            : [
                {
                  text: 'Bring back my changes',
                  role: 'confirm',
                  handler: () => {
                    bring = true;
                  },
                },
                { text: 'Not now', role: 'cancel' },
              ],
        // Once the alert is gone, so the notice of what came back is a new alert, never one
        // dismissed with this.
        onDidDismiss: () => {
          if (bring) void sync.bringBackChanges();
          else sync.dismissNotice();
        },
      }).catch((error: unknown) => {
        console.error('[docket] Could not show the sync notice:', error);
      });
    };
    // The closing alert may still be marked open while its event runs: look again just after.
    const afterDismiss = () => {
      window.setTimeout(present, 50);
    };
    document.addEventListener('ionAlertDidDismiss', afterDismiss);
    present();
    return () => {
      done = true;
      document.removeEventListener('ionAlertDidDismiss', afterDismiss);
    };
  }, [notice, bringBackFrom, presentAlert, sync]);
  return null;
}
