import { IonButton } from '@ionic/react';
import type { Dataset, Job } from '@docket/core/store';
import { DeleteDatasetButton } from './dataset-delete.tsx';

// A files dataset whose files never reached this device and that no device will send (core's
// sync-dataset-files-unavailable.ts marks it, `filesUnavailable`): its row and its page say why
// (dataset-words.ts) and offer the two ways out instead of waiting for ever. "Remove" deletes it
// as "Delete dataset" does (asking first; the user's tags and notes on its bills are kept);
// "Import again" has the user pick its files again on the dataset's page, whose Import replaces
// the files it lists and imports them (the way a files dataset's files are always replaced).

/** The dataset's page, where its files are picked again. */
export function datasetPageHref(dataset: Pick<Dataset, 'id'>): string {
  return `/add-dataset/${encodeURIComponent(dataset.id)}`;
}

export function FilesUnavailableActions({
  dataset,
  lastJob,
  onImportAgain,
  onRemoved,
}: {
  readonly dataset: Dataset;
  readonly lastJob: Job | undefined;
  /** On the dataset's page: takes the user to its file picker. Else a link to the page. */
  readonly onImportAgain?: () => void;
  readonly onRemoved?: () => void;
}) {
  return (
    <>
      <IonButton
        size="small"
        aria-label={`Import again ${dataset.name}`}
        {...(onImportAgain === undefined
          ? { routerLink: datasetPageHref(dataset) }
          : { onClick: onImportAgain })}
      >
        Import again
      </IonButton>
      <DeleteDatasetButton
        dataset={dataset}
        lastJob={lastJob}
        label="Remove"
        {...(onRemoved === undefined ? {} : { onDeleted: onRemoved })}
      />
    </>
  );
}
