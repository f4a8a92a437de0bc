import type { Dataset } from '@docket/core/store';
import { useLiveRead, useLiveRow } from './live-database.ts';

// Live reads of the datasets table.

/** Every dataset, oldest first; undefined while loading. */
export function useDatasets(): Dataset[] | undefined {
  return useLiveRead(
    (store) =>
      store.read(['datasets'], async (tx) =>
        (await tx.all('datasets')).sort(
          (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
        ),
      ),
    [],
  );
}

/** One dataset: undefined while loading, null when there is none with that id. */
export function useDataset(id: string | undefined): Dataset | null | undefined {
  return useLiveRow('datasets', id ?? null);
}
