import { IonButton } from '@ionic/react';
import { clearDeviceData, deviceHoldsData } from '@docket/core/device';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { plural } from '../ui/formatting.ts';
import { useDeviceDataSummary } from '../local-store/live-device-data.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { deviceDataWords } from './device-data-words.ts';
import './device-data.css';
import { useAlert } from '../ui/lazy-overlays.ts';

// On the sign-in page, signed out: the device still holds the last account's work (Docket keeps
// it after sign-out, so signing in again finds it). On a shared computer the next person should
// know, and be able to keep it as a full backup or clear it.

export function DeviceDataNotice() {
  const summary = useDeviceDataSummary();
  const [presentAlert] = useAlert();
  const toast = useStatusToast();
  const [clearing, setClearing] = useState(false);
  if (summary === undefined || !deviceHoldsData(summary)) return null;

  const clear = () => {
    setClearing(true);
    pageLocalStore()
      .then((store) => clearDeviceData(store))
      .then(
        () => {
          toast.done('This device is cleared.');
        },
        (error: unknown) => {
          toast.failed(
            `The device could not be cleared: ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      )
      .finally(() => {
        setClearing(false);
      });
  };
  const ask = () => {
    presentAlert({
      header: 'Clear this device?',
      message:
        `Everything Docket keeps on this device is deleted: ${deviceDataWords(summary)}, ` +
        'with the trace and drafts. ' +
        (summary.unsynced > 0
          ? `${plural(summary.unsynced, 'change was', 'changes were')} never synced and will be lost. `
          : '') +
        'What was synced stays on the server. This cannot be undone.',
      buttons: [
        { text: 'Cancel', role: 'cancel' },
        { text: 'Clear device', role: 'destructive', handler: clear },
      ],
    }).catch((error: unknown) => {
      console.error('Could not ask before clearing the device', error);
    });
  };

  return (
    <section className="device-data-notice" aria-labelledby="device-data-heading">
      <h2 id="device-data-heading">This device still holds the last account’s data</h2>
      <p>
        It holds {deviceDataWords(summary)}
        {summary.unsynced > 0 ? `, with ${plural(summary.unsynced, 'unsynced change')}` : ''}. On a
        shared computer, <Link to="/add-full-backup">make a full backup</Link> to keep it, or clear
        it.
      </p>
      <IonButton size="small" fill="outline" color="danger" disabled={clearing} onClick={ask}>
        Clear this device
      </IonButton>
    </section>
  );
}
