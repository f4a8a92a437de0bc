import { IonButton } from '@ionic/react';
import { previewDatasetDeletion } from '@docket/core/commands';
import type { Dataset, Job } from '@docket/core/store';
import { useState } from 'react';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { commandFailureMessage } from '../ui/command-failure.ts';
import { deletionQuestion, deletionDone } from './dataset-words.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { checkManagesDatasets } from '../local-store/dataset-space.ts';

// "Delete dataset" on a dataset's row and its page: it asks first, saying how many bills go with
// the dataset and how many stay because another dataset provides them, then deletes it on this
// device and, through sync, on the user's other devices. "Remove" on a dataset whose files never
// reached this device (dataset-files-unavailable.tsx) is the same button under that name.

export function DeleteDatasetButton({
  dataset,
  lastJob,
  onDeleted,
  label = 'Delete dataset',
}: {
  readonly dataset: Pick<Dataset, 'id' | 'name'>;
  readonly lastJob: Job | undefined;
  /** After the dataset is gone (its page leaves for the list). */
  readonly onDeleted?: () => void;
  /** The button's words, which its accessible name starts with ("Remove"). */
  readonly label?: string;
}) {
  const [presentAlert] = useAlert();
  const toast = useStatusToast();
  const [busy, setBusy] = useState(false);
  const importing = lastJob?.status === 'running';

  const remove = () => {
    setBusy(true);
    Promise.resolve()
      .then(() => {
        checkManagesDatasets();
        return importJobs().deleteDataset(dataset.id);
      })
      .then(
        (removal) => {
          toast.done(deletionDone(removal));
          onDeleted?.();
        },
        (error: unknown) => {
          toast.failed(commandFailureMessage(error, 'delete the dataset'));
        },
      )
      .finally(() => {
        setBusy(false);
      });
  };

  const ask = () => {
    setBusy(true);
    pageLocalStore()
      .then((store) => previewDatasetDeletion(store, dataset.id))
      .then((preview) =>
        presentAlert({
          header: 'Delete dataset?',
          message: deletionQuestion(dataset.name, preview),
          buttons: [
            { text: 'Cancel', role: 'cancel' },
            { text: label, role: 'destructive', handler: remove },
          ],
        }),
      )
      .catch((error: unknown) => {
        toast.failed(commandFailureMessage(error, 'delete the dataset'));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <IonButton
      size="small"
      fill="outline"
      color="danger"
      disabled={busy || importing}
      aria-label={`${label} ${dataset.name}`}
      onClick={ask}
    >
      {label}
    </IonButton>
  );
}
