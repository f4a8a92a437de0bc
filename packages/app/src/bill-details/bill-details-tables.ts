import { useLiveQuery } from 'dexie-react-hooks';
import type { Annotation, Decision, Position, StoredBill } from '@docket/core/store';
import { liveDatabase } from '../jobs/live-tables.ts';

// Live reads of one bill and the user's own rows about it. An import landing from the worker,
// or a command run here or in another tab, re-runs them.

/** The bill: undefined while loading, null when this device has no bill with that id. */
export function useStoredBill(billId: string | null): StoredBill | null | undefined {
  return useLiveQuery(
    async () =>
      billId === null
        ? null
        : ((await liveDatabase().table<StoredBill, string>('bills').get(billId)) ?? null),
    [billId],
  );
}

/** The position row, null when the user never set one; undefined while loading. */
export function usePosition(billId: string | null): Position | null | undefined {
  return useLiveQuery(
    async () =>
      billId === null
        ? null
        : ((await liveDatabase().table<Position, string>('positions').get(billId)) ?? null),
    [billId],
  );
}

/** The triage decision, null before the bill was triaged; undefined while loading. */
export function useDecision(billId: string | null): Decision | null | undefined {
  return useLiveQuery(
    async () =>
      billId === null
        ? null
        : ((await liveDatabase().table<Decision, string>('decisions').get(billId)) ?? null),
    [billId],
  );
}

/** The bill's annotations, oldest first; undefined while loading. */
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
