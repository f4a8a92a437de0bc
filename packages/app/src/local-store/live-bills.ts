import { sessionKey } from '@docket/core/bills';
import { sessionIdPrefix } from '@docket/core/deck';
import type { StoredBill } from '@docket/core/store';
import { distinctIndexKeys } from './distinct-index-keys.ts';
import { liveDatabase, useLiveRead, useLiveRow } from './live-database.ts';

// Live reads of the bills table. An import landing from the worker re-runs them.

/** The bill: undefined while loading, null when this device has no bill with that id. */
export function useStoredBill(billId: string | null): StoredBill | null | undefined {
  return useLiveRow('bills', billId);
}

/** The jurisdictions of the bills on this device, for the deck's filter; undefined while loading. */
export function useJurisdictions(): string[] | undefined {
  // One short read a jurisdiction, no bill read: core's store interface has no such read, and
  // reading 50,000 bills (megabytes of text each) to learn a dozen names would not do.
  return useLiveRead(
    () => distinctIndexKeys(liveDatabase().table<StoredBill, string>('bills'), 'jurisdiction'),
    [],
  );
}

/**
 * The sessions of the bills on this device, as `sessionKey`s ("us-ak:34"), for the deck's
 * filter; undefined while loading. A bill's id starts with its jurisdiction and session, so the
 * primary key holds each session's bills together: one bill is read per session, then the walk
 * seeks past the session's range. A few dozen reads, whatever the number of bills.
 */
export function useSessions(): string[] | undefined {
  return useLiveRead(async () => {
    const bills = liveDatabase().table<StoredBill, string>('bills');
    const keys: string[] = [];
    let bill = await bills.orderBy(':id').first();
    while (bill !== undefined) {
      keys.push(sessionKey(bill.jurisdiction, bill.session));
      const prefix = sessionIdPrefix(bill.jurisdiction, bill.session);
      // Every stored id starts with its prefix (the bill schema checks it); past the range, or
      // past this bill should one ever not, so the walk always moves on.
      const next = bill.id.startsWith(prefix) ? `${prefix}\uffff` : bill.id;
      bill = await bills.where(':id').above(next).first();
    }
    return keys;
  }, []);
}
