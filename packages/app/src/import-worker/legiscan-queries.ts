import {
  countLegiscanQueries,
  legiscanKeyId,
  queryMonth,
  readLegiscanQueries,
} from '@docket/core/sources';
import type { LocalStore } from '@docket/core/store';
import type { LegiscanQueries } from './legiscan-download.ts';

// This device's count of a LegiScan key's queries this month (core's sources/legiscan-quota.ts),
// read before each query and counted as it is sent, by the dataset's downloads and "Get text".

export function legiscanQueries(
  store: LocalStore,
  key: string,
  now: () => string,
): LegiscanQueries {
  const keyId = legiscanKeyId(key);
  return {
    used: () => store.read(['settings'], (tx) => readLegiscanQueries(tx, keyId, queryMonth(now()))),
    count: async () => {
      await countLegiscanQueries(store, keyId, queryMonth(now()));
    },
  };
}
