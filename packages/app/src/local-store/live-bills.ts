import type { StoredBill } from '@docket/core/store';
import { liveDatabase, useLiveRead, useLiveRow } from './live-database.ts';

// Live reads of the bills table. An import landing from the worker re-runs them.

/** The bill: undefined while loading, null when this device has no bill with that id. */
export function useStoredBill(billId: string | null): StoredBill | null | undefined {
  return useLiveRow('bills', billId);
}

/** The jurisdictions of the bills on this device, for the deck's filter; undefined while loading. */
export function useJurisdictions(): string[] | undefined {
  // One walk of the index's unique keys, no bill read: core's store interface has no such read,
  // and reading 50,000 bills (megabytes of text each) to learn a dozen names would not do.
  return useLiveRead(async () => {
    const keys = await liveDatabase()
      .table<StoredBill, string>('bills')
      .orderBy('jurisdiction')
      .uniqueKeys();
    return keys.filter((key): key is string => typeof key === 'string');
  }, []);
}
