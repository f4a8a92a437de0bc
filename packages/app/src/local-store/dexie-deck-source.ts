import Dexie from 'dexie';
import type { DeckSource, IndexedCriterion, RecentOrderSource } from '@docket/core/deck';
import {
  DECK_ORDER_RANGE_END,
  deckOrderListPrefix,
  type Decision,
  type DeckOrderList,
  recentOrderPlace,
  type StoredBill,
} from '@docket/core/store';

// The deck's reads on the page's Dexie connection. Ids come from primary keys and index keys
// only (IndexedDB's getAllKeys, or a key cursor for a dataset: no bill is read or cloned), and
// bills are fetched by id in the small batches core's readDeckPage asks for. Run inside
// useLiveQuery, every read here is observed (the dataset cursor through a read of the same
// range beside it), so the deck moves on when a decision or an import commits, in any tab or
// the worker.

/** Cards read at a time: the one shown and the next few, so a decision shows the next at once. */
export const DECK_PAGE_SIZE = 4;

/**
 * Up to `limit` ids of a dataset's bills, in id order, from `atLeast` on. The dataset index is
 * multiEntry, which IndexedDB cannot put in a compound index, so no key range enters its ids in
 * the middle; a key cursor can, with continuePrimaryKey (entries are ordered by dataset id, then
 * bill id). Dexie does not offer that call, so this reads IndexedDB itself, in a read-only
 * transaction of its own, and answers with a Dexie promise so that a live query calling it keeps
 * its context for the reads that follow.
 */
function datasetIdsFrom(
  idb: IDBDatabase,
  datasetId: string,
  atLeast: string | null,
  limit: number,
): Promise<string[]> {
  return new Dexie.Promise<string[]>((resolve, reject) => {
    const ids: string[] = [];
    if (limit <= 0) {
      resolve(ids);
      return;
    }
    const start = atLeast ?? '';
    const request = idb
      .transaction('bills', 'readonly')
      .objectStore('bills')
      .index('datasetIds')
      .openKeyCursor();
    let positioned = false;
    request.onerror = () => {
      reject(request.error ?? new Error('The deck could not read the dataset’s bills.'));
    };
    request.onsuccess = () => {
      const cursor = request.result;
      if (cursor === null) {
        resolve(ids);
        return;
      }
      const key: unknown = cursor.key;
      const id: unknown = cursor.primaryKey;
      if (!positioned) {
        positioned = true;
        // The first entry of the whole index: seek to the dataset at the id, unless the cursor
        // is already there or past it (continuePrimaryKey may not move backwards). Numbers and
        // dates sort before every string in IndexedDB; there are none here, but a seek from
        // them is still forward.
        const before =
          typeof key === 'string'
            ? key < datasetId || (key === datasetId && typeof id === 'string' && id < start)
            : typeof key === 'number' || key instanceof Date;
        if (before) {
          cursor.continuePrimaryKey(datasetId, start);
          return;
        }
      }
      if (key !== datasetId || typeof id !== 'string') {
        resolve(ids);
        return;
      }
      ids.push(id);
      if (ids.length >= limit) resolve(ids);
      else cursor.continue();
    };
  });
}

/** Connections whose every bill is in the recent order: once true, it stays true (the store
 *  gives every bill it writes its keys; a build without them cannot open this version). */
const recentOrderReady = new WeakSet<Dexie>();

/**
 * The recent order (core's deck-order-keys.ts): a list is one range of the `deckKeys` index, read
 * a page of ids at a time (getAllKeys, through Dexie's primaryKeys); the next page starts after
 * the last id's place, which is read from that one bill.
 */
function recentOrder(db: Dexie): RecentOrderSource {
  const bills = db.table<StoredBill, string>('bills');
  const range = (list: DeckOrderList, after: string | null) => {
    const prefix = deckOrderListPrefix(list);
    return bills
      .where('deckKeys')
      .between(
        after === null ? prefix : `${prefix}${after}`,
        `${prefix}${DECK_ORDER_RANGE_END}`,
        after === null,
        false,
      );
  };
  return {
    ready: async () => {
      if (recentOrderReady.has(db)) return true;
      const [all, ordered] = await Promise.all([
        bills.count(),
        range({ index: 'all' }, null).count(),
      ]);
      if (all !== ordered) return false;
      recentOrderReady.add(db);
      return true;
    },
    count: async (list) => await range(list, null).count(),
    page: async (list, after, limit) => {
      const ids = await range(list, after).limit(limit).primaryKeys();
      const lastId = ids.at(-1);
      if (ids.length < limit || lastId === undefined) return { ids, last: null };
      // Gone since (deleted between the two reads): the walk ends here, and the live query that
      // runs it runs again for that very change.
      const lastBill = await bills.get(lastId);
      return { ids, last: lastBill === undefined ? null : recentOrderPlace(lastBill) };
    },
  };
}

export function dexieDeckSource(db: Dexie): DeckSource {
  const bills = db.table<StoredBill, string>('bills');
  const decisions = db.table<Decision, string>('decisions');

  async function datasetPage(datasetId: string, atLeast: string | null, limit: number) {
    // From the dataset's start, Dexie's getAllKeys answers (one request, however many ids). From
    // an id, a read of one key through Dexie first: inside a live query it registers the
    // dataset's whole index range, so the deck moves on when any of its bills changes, and it
    // opens the database if it is not yet; then the cursor seeks.
    const dataset = bills.where('datasetIds').equals(datasetId);
    if (atLeast === null) return await dataset.limit(limit).primaryKeys();
    const first = await dataset.limit(1).primaryKeys();
    if (first.length === 0) return [];
    return await datasetIdsFrom(db.backendDB(), datasetId, atLeast, limit);
  }

  async function page(criterion: IndexedCriterion | null, atLeast: string | null, limit: number) {
    if (criterion === null) {
      // A key range seeks straight to the id.
      const rest =
        atLeast === null ? bills.orderBy(':id') : bills.where(':id').aboveOrEqual(atLeast);
      return await rest.limit(limit).primaryKeys();
    }
    if (criterion.index === 'datasetIds') return await datasetPage(criterion.value, atLeast, limit);
    if (criterion.index === 'idPrefix') {
      // A session's bills are one range of the primary key (bill ids start with it).
      const from = atLeast !== null && atLeast > criterion.value ? atLeast : criterion.value;
      return await bills
        .where(':id')
        .between(from, `${criterion.value}\uffff`, true, false)
        .limit(limit)
        .primaryKeys();
    }
    // [status+id] and [jurisdiction+id] hold the field's bills in id order as one key: a range
    // from [value, atLeast] seeks into the middle of them (schema version 3).
    return await bills
      .where(`[${criterion.index}+id]`)
      .between([criterion.value, atLeast ?? ''], [criterion.value, Dexie.maxKey], true, true)
      .limit(limit)
      .primaryKeys();
  }

  return {
    billIds: async (criterion) => {
      if (criterion === null) return await bills.toCollection().primaryKeys();
      if (criterion.index === 'idPrefix') {
        return await bills.where(':id').startsWith(criterion.value).primaryKeys();
      }
      return await bills.where(criterion.index).equals(criterion.value).primaryKeys();
    },
    billIdPage: page,
    bills: async (ids) => await bills.bulkGet([...ids]),
    decidedIds: async (includeLater) => {
      const decided = await decisions.toCollection().primaryKeys();
      if (!includeLater) return decided;
      const later = new Set(await decisions.where('decision').equals('later').primaryKeys());
      return decided.filter((id) => !later.has(id));
    },
    decisions: async () => await decisions.toArray(),
    datasetCount: async () => await db.table('datasets').count(),
    recent: recentOrder(db),
  };
}
