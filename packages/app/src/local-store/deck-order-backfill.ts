import type Dexie from 'dexie';
import {
  DECK_ORDER_FILLING_SETTING,
  deckOrderListPrefix,
  DECK_ORDER_RANGE_END,
  type Decision,
  type StoredBill,
} from '@docket/core/store';
import { withDerivedFields } from '@docket/core/store';
import { liveDatabase } from './live-database.ts';

// Gives the bills stored before the deck's recent order existed (store version 7), or before
// its keys depended on the bill's decision (version 8), their keys in that order, in the
// background, a few hundred at a time: the upgrades themselves rewrite nothing, since rewriting
// 50,000 bills while the database opens would hold the app for minutes. Only the bills missing
// from the order and the decided ones are read (the ids of each list are keys, cheap); each batch is its own short transaction, so an import or a decision waits at most one
// batch. The upgrade leaves a `device:` setting (DECK_ORDER_FILLING_SETTING) on a device that
// held bills; until the last batch removes it, the deck deals in id order.

/** Bills given their keys per transaction. */
export const DECK_ORDER_BATCH = 250;

export interface DeckOrderBackfillOptions {
  readonly batch?: number;
  /** Waits between two batches (the page's idle time; nothing in tests). */
  readonly pause?: () => Promise<void>;
}

/**
 * Gives every stored bill its keys in the recent order as its decision has them (none for a
 * tracked or dismissed bill), then says the order is whole; resolves with how many bills it
 * rewrote. Nothing to do (and nothing read) on a device the
 * upgrade did not mark.
 */
export async function fillDeckOrder(
  db: Dexie,
  options: DeckOrderBackfillOptions = {},
): Promise<number> {
  const batch = options.batch ?? DECK_ORDER_BATCH;
  const settings = db.table<{ key: string; value: unknown }, string>('settings');
  if ((await settings.get(DECK_ORDER_FILLING_SETTING)) === undefined) return 0;
  const bills = db.table<StoredBill, string>('bills');
  const decisions = db.table<Decision, string>('decisions');
  // Every bill but a tracked or dismissed one is in this list; none stored before version 8 is.
  const prefix = deckOrderListPrefix({ index: 'all', withLater: true });
  const [all, ordered, decided] = await Promise.all([
    bills.toCollection().primaryKeys(),
    bills
      .where('deckKeys')
      .between(prefix, `${prefix}${DECK_ORDER_RANGE_END}`, true, false)
      .primaryKeys(),
    decisions.toCollection().primaryKeys(),
  ]);
  const inOrder = new Set(ordered);
  // The bills missing from the order, and the decided ones, which may be in it and should not.
  const missing = [...new Set([...all.filter((id) => !inOrder.has(id)), ...decided])].sort();
  let filled = 0;
  for (let start = 0; start < missing.length; start += batch) {
    const ids = missing.slice(start, start + batch);
    filled += await db.transaction('rw', bills, decisions, async () => {
      // Read again inside the transaction: a bill deleted or rewritten since the ids were read
      // is left as it now is, with the decision it now has.
      const [found, made] = await Promise.all([bills.bulkGet(ids), decisions.bulkGet(ids)]);
      const stale: StoredBill[] = [];
      found.forEach((row, index) => {
        if (row === undefined) return;
        const derived = withDerivedFields(row, made[index]?.decision);
        if (derived !== row) stale.push(derived);
      });
      if (stale.length > 0) await bills.bulkPut(stale);
      return stale.length;
    });
    if (start + batch < missing.length) await options.pause?.();
  }
  await settings.delete(DECK_ORDER_FILLING_SETTING);
  return filled;
}

/** The page's idle time, or a short timer where the browser has no requestIdleCallback. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(
        () => {
          resolve();
        },
        { timeout: 1_000 },
      );
    } else {
      setTimeout(resolve, 20);
    }
  });
}

/**
 * Runs the backfill on the page's connection, in one tab at a time where the browser has Web
 * Locks (another tab holding the lock is already doing it).
 */
export async function fillDeckOrderInBackground(): Promise<void> {
  const run = async () => {
    await fillDeckOrder(liveDatabase(), { pause: idle });
  };
  if (typeof navigator !== 'undefined' && 'locks' in navigator) {
    await navigator.locks.request('docket-deck-order-backfill', { ifAvailable: true }, (lock) =>
      lock === null ? undefined : run(),
    );
    return;
  }
  await run();
}
