import { sessionKey } from '@docket/core/lists';
import type { StoredBill } from '@docket/core/store';
import { liveDatabase, useLiveRead } from './live-database.ts';

// Live reads of the bills table. An import landing from the worker re-runs them.

/** The bill: undefined while loading, null when this device has no bill with that id. */
export function useStoredBill(billId: string | null): StoredBill | null | undefined {
  return useLiveRead(
    async (store) =>
      billId === null
        ? null
        : ((await store.read(['bills'], (tx) => tx.get('bills', billId))) ?? null),
    [billId],
  );
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

/**
 * The sessions of the bills on this device, as `sessionKey`s ("us-ak:34"), for the deck's
 * filter; undefined while loading. The unique keys of [jurisdiction+session] (schema version 5):
 * no bill is read.
 */
export function useSessions(): string[] | undefined {
  return useLiveRead(async () => {
    const keys = await liveDatabase()
      .table<StoredBill, string>('bills')
      .orderBy('[jurisdiction+session]')
      .uniqueKeys();
    return keys.flatMap((key) =>
      Array.isArray(key) && typeof key[0] === 'string' && typeof key[1] === 'string'
        ? [sessionKey(key[0], key[1])]
        : [],
    );
  }, []);
}
