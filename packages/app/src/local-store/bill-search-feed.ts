import Dexie from 'dexie';
import type { BillTag, Decision, Position, StoredBill } from '@docket/core/store';
import { deviceRowVault, localStoreOn, type RowVault } from './indexeddb-local-store.ts';

// What the search worker's index (search-worker/bill-search-service.ts) reads of the device's
// database, and how it hears of changes: Dexie's `storagemutated` notifications, which reach
// every same-origin context (the import worker's commits, the page's tagging) over a
// BroadcastChannel. A change to a few bills names those bills; an import (Dexie reports bulk
// writes as "the whole table") says 'all'. The service itself never sees Dexie.

/** What changed since the last notification. */
export interface BillSearchChange {
  /** Decisions, tags on bills or positions changed. */
  readonly marks: boolean;
  /** The ids of the bills that changed, or 'all' when a bulk write or a clear covers ranges. */
  readonly bills: readonly string[] | 'all';
}

/** The marks the list shows beside each bill. */
export interface BillSearchMarks {
  readonly decisions: readonly Decision[];
  readonly billTags: readonly BillTag[];
  readonly positions: readonly Position[];
}

export interface BillSearchFeed {
  countBills(): Promise<number>;
  /** Up to `limit` bills in id order, after `after` (from the first when null). */
  billsAfter(after: string | null, limit: number): Promise<StoredBill[]>;
  /** The bills of these ids, in their order; undefined for a bill that is gone. */
  billsOf(ids: readonly string[]): Promise<(StoredBill | undefined)[]>;
  marks(): Promise<BillSearchMarks>;
  /** Calls the listener on every change of bills or marks; the function given back stops it. */
  watch(listener: (change: BillSearchChange) => void): () => void;
}

/** What Dexie sends about a table: a tree of key ranges ({d: 0} when empty). */
interface RangeNode {
  readonly from?: unknown;
  readonly to?: unknown;
  readonly d?: number;
  readonly l?: RangeNode | null;
  readonly r?: RangeNode | null;
}

/** The single keys of a change, or 'all' when it covers ranges (bulk writes, clears). */
export function changedKeys(tree: RangeNode | undefined, limit = 1000): string[] | 'all' {
  const keys: string[] = [];
  const walk = (node: RangeNode | null | undefined): boolean => {
    if (node === null || node === undefined || node.d === 0) return true;
    if (typeof node.from !== 'string' || node.from !== node.to) return false;
    keys.push(node.from);
    return keys.length <= limit && walk(node.l) && walk(node.r);
  };
  return walk(tree) ? keys : 'all';
}

const markTables = new Set(['decisions', 'billTags', 'positions']);

/**
 * The feed over a connection of the worker's own (docket-database.ts); private rows are opened
 * with the database's vault on this browser (another in tests).
 */
export function dexieBillSearchFeed(
  db: Dexie,
  vault: RowVault = deviceRowVault(db.name),
): BillSearchFeed {
  const bills = () => db.table<StoredBill, string>('bills');
  const prefix = `idb://${db.name}/`;
  return {
    countBills: () => bills().count(),
    billsAfter: (after, limit) =>
      (after === null ? bills().orderBy(':id') : bills().where(':id').above(after))
        .limit(limit)
        .toArray(),
    billsOf: (ids) => bills().bulkGet([...ids]),
    marks: async () => {
      const [decisions, billTags, positions] = await Promise.all([
        db.table<Decision, string>('decisions').toArray(),
        db.table<BillTag, string>('billTags').toArray(),
        // Positions are sealed whole, their stance too (issue 38): opened through the store,
        // with the account's vault on this browser.
        localStoreOn(db, vault).read(['positions'], (tx) => tx.all('positions')),
      ]);
      return { decisions, billTags, positions };
    },
    watch: (listener) => {
      const onStorageMutated = (parts: Record<string, RangeNode>): void => {
        let marks = false;
        let changed: Set<string> | 'all' = new Set();
        for (const [part, tree] of Object.entries(parts)) {
          if (!part.startsWith(prefix)) continue;
          const [table, index] = part.slice(prefix.length).split('/');
          // Only the primary-key part says which rows changed; index parts repeat it.
          if (index !== '' || table === undefined) continue;
          const keys = changedKeys(tree);
          if (markTables.has(table)) marks ||= keys === 'all' || keys.length > 0;
          else if (table === 'bills' && changed !== 'all') {
            if (keys === 'all') changed = 'all';
            else for (const key of keys) changed.add(key);
          }
        }
        if (marks || changed === 'all' || changed.size > 0) {
          listener({ marks, bills: changed === 'all' ? 'all' : [...changed] });
        }
      };
      Dexie.on('storagemutated', onStorageMutated);
      return () => {
        Dexie.on('storagemutated').unsubscribe(onStorageMutated);
      };
    },
  };
}
