import { legiscanKeyId, queryMonth, readLegiscanQueries } from '@docket/core/sources';
import type { ApiKey } from '@docket/core/store';
import { useLiveRead, useLiveRow } from './live-database.ts';

// Live reads of the user's API keys (core's sources/api-keys.ts), one per source, and of the
// LegiScan queries this device counted for a key (core's sources/legiscan-quota.ts).

/** The saved key of a source: null when there is none, undefined while loading. */
export function useApiKey(source: ApiKey['source']): ApiKey | null | undefined {
  return useLiveRow('apiKeys', source);
}

/** This month's LegiScan queries this device counted for a key, live; undefined while loading. */
export function useLegiscanQueries(key: string): number | undefined {
  return useLiveRead(
    (store) =>
      store.read(['settings'], (tx) =>
        readLegiscanQueries(tx, legiscanKeyId(key), queryMonth(new Date().toISOString())),
      ),
    [key],
  );
}
