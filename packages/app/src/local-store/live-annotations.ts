import type { Annotation } from '@docket/core/store';
import { useLiveRead } from './live-database.ts';

// Live reads of the annotations table. An import rewriting a bill's text re-runs them too, with
// the bill's own read, so highlights re-anchor (or become orphans) as soon as it lands.

/** Every annotation of a bill, oldest first; undefined while loading. */
export function useBillAnnotations(billId: string | null): Annotation[] | undefined {
  return useLiveRead(
    async (store) => {
      if (billId === null) return [];
      const rows = await store.read(['annotations'], (tx) =>
        tx.where('annotations', 'billId', billId),
      );
      return rows.sort(
        (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
      );
    },
    [billId],
  );
}
