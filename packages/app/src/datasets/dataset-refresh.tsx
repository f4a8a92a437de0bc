import { IonButton } from '@ionic/react';
import type { Dataset, Job } from '@docket/core/store';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { plural } from '../ui/formatting.ts';

// "Refresh" on a dataset from a URL or an API (its row and its page) and "Refresh all" on Datasets: each
// queues an import job in the import worker, which asks the source whether it changed first.

/** A dataset from a URL or an API refreshes itself; one of picked files cannot (core's
 *  `refreshable`, said here so the screens do not load core's commands for it). */
export const refreshable = (dataset: Dataset): boolean => dataset.origin.kind !== 'files';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether the dataset's newest import is still waiting or running. */
export function isRefreshing(lastJob: Job | undefined): boolean {
  return lastJob?.status === 'queued' || lastJob?.status === 'running';
}

export function RefreshDatasetButton({
  dataset,
  lastJob,
}: {
  readonly dataset: Dataset;
  readonly lastJob: Job | undefined;
}) {
  const toast = useStatusToast();
  if (!refreshable(dataset)) return null;
  const busy = isRefreshing(lastJob);
  return (
    <IonButton
      size="small"
      fill="outline"
      disabled={busy}
      aria-label={`Refresh ${dataset.name}`}
      onClick={() => {
        importJobs()
          .refresh(dataset.id)
          .then(() => {
            toast.done(`Refreshing “${dataset.name}”.`);
          })
          .catch((error: unknown) => {
            toast.failed(messageOf(error));
          });
      }}
    >
      {busy ? 'Refreshing…' : 'Refresh'}
    </IonButton>
  );
}

/**
 * Refreshes every dataset from a URL or an API, saying so in a toast; resolves once the jobs are
 * queued (their progress is on Jobs, their news under What changed).
 */
export function useRefreshAll(): () => Promise<void> {
  const toast = useStatusToast();
  return () =>
    importJobs()
      .refreshAll()
      .then(({ jobIds }) => {
        toast.done(
          jobIds.length === 0
            ? 'Every dataset from a URL or an API is importing already.'
            : `Refreshing ${plural(jobIds.length, 'dataset')}.`,
        );
      })
      .catch((error: unknown) => {
        toast.failed(messageOf(error));
      });
}

export function RefreshAllButton({ datasets }: { readonly datasets: readonly Dataset[] }) {
  const refreshAll = useRefreshAll();
  const fromUrls = datasets.filter(refreshable).length;
  return (
    <IonButton
      fill="outline"
      disabled={fromUrls === 0}
      onClick={() => {
        void refreshAll();
      }}
    >
      Refresh all
    </IonButton>
  );
}
