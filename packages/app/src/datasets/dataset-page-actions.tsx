import type { Dataset } from '@docket/core/store';
import { useJob } from '../local-store/live-jobs.ts';
import { DeleteDatasetButton } from './dataset-delete.tsx';
import { FilesUnavailableActions } from './dataset-files-unavailable.tsx';
import { RefreshDatasetButton } from './dataset-refresh.tsx';
import type { DatasetFormState } from './dataset-text-field.tsx';
import { filesUnavailableWords, lastResultWords } from './dataset-words.ts';

/**
 * What an existing dataset's page offers above its form: "Refresh", "Delete dataset" and the last
 * import's result; or, for a files dataset whose files will never arrive, picking them again or
 * removing it.
 */
export function DatasetPageActions({
  dataset,
  form,
  filesId,
  onRemoved,
}: {
  dataset: Dataset;
  form: DatasetFormState;
  /** The form's files input, which "Import again" opens. */
  filesId: string;
  onRemoved: () => void;
}) {
  const lastJob = useJob(dataset.lastJobId);
  const lastResult = lastResultWords(lastJob);
  const unavailable = filesUnavailableWords(dataset);
  if (unavailable !== null) {
    return (
      <div className="screen-actions">
        <p role="status">
          {unavailable} Pick its files again below and import them, or remove the dataset.
        </p>
        <FilesUnavailableActions
          dataset={dataset}
          lastJob={lastJob}
          onImportAgain={() => {
            form.set('sourceKind', 'files-or-url');
            // The picker opens from the button's own click, as browsers require.
            const input = document.getElementById(filesId);
            input?.focus();
            input?.click();
          }}
          onRemoved={onRemoved}
        />
      </div>
    );
  }
  return (
    <div className="screen-actions">
      <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
      <DeleteDatasetButton dataset={dataset} lastJob={lastJob} onDeleted={onRemoved} />
      {dataset.origin.kind !== 'files' && lastResult !== null && (
        <p role="status">Last result: {lastResult}</p>
      )}
    </div>
  );
}

/** A member's own "Refresh" of a team dataset: its bills fetched again on this device. */
export function TeamDatasetRefresh({ dataset }: { dataset: Dataset }) {
  const lastJob = useJob(dataset.lastJobId);
  return (
    <div className="screen-actions">
      <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
    </div>
  );
}
