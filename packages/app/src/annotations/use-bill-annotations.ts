import type { Annotation, StoredBill } from '@docket/core/store';
import { useLiveQuery } from 'dexie-react-hooks';
import { liveDatabase } from '../jobs/live-tables.ts';

// Live reads for the annotation screen. An import worker rewriting a bill's text commits through
// its own connection; these queries re-run on that commit, so highlights re-anchor (or become
// orphans) on screen as soon as a re-import lands.

/** A bill: undefined while loading, null when there is none with that id. */
export function useStoredBill(billId: string | null): StoredBill | null | undefined {
  return useLiveQuery(
    async () =>
      billId === null
        ? null
        : ((await liveDatabase().table<StoredBill, string>('bills').get(billId)) ?? null),
    [billId],
  );
}

/** Every annotation of a bill, oldest first; undefined while loading. */
export function useBillAnnotations(billId: string | null): Annotation[] | undefined {
  return useLiveQuery(async () => {
    if (billId === null) return [];
    const rows = await liveDatabase()
      .table<Annotation, string>('annotations')
      .where('billId')
      .equals(billId)
      .toArray();
    return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }, [billId]);
}
