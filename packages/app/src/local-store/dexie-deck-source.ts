import Dexie from 'dexie';
import type { DeckSource, IndexedCriterion, RecentOrderSource } from '@docket/core/deck';
import {
  DECK_ORDER_FILLING_SETTING,
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

/** Steps to the next entry a join's cursor takes before it seeks to the place it wants. */
const PLAIN_STEPS = 8;

/** A cursor's key as the recent order writes it (strings only; anything else ends a list). */
function keyText(cursor: IDBCursor): string {
  return typeof cursor.key === 'string' ? cursor.key : '';
}

/**
 * One run of sharedIdsFrom: a key cursor per list on the `deckKeys` index, the place every list
 * must reach, and the ids found so far; `done` and `failed` settle the run.
 */
interface Leapfrog {
  readonly index: IDBIndex;
  readonly prefixes: readonly string[];
  readonly limit: number;
  readonly skip: ReadonlySet<string>;
  readonly cursors: IDBCursor[];
  readonly ids: string[];
  /** The place every list must reach; a list that lands on it agrees. */
  target: string;
  /** How many lists in a row have landed on the target. */
  agreeing: number;
  /** Plain steps taken toward the target in the current seek of each list. */
  readonly steps: number[];
  readonly done: (answer: { ids: string[]; last: string | null }) => void;
  readonly failed: (error: unknown) => void;
}

function prefixOf(join: Leapfrog, list: number): string {
  return join.prefixes[list] ?? '';
}

/**
 * A list's cursor at the target or past it: the run ends where a list does; a place every list
 * agrees on is an id found; then the next list seeks the target.
 */
function landed(join: Leapfrog, list: number, cursor: IDBCursor | null): void {
  const key = cursor === null ? null : keyText(cursor);
  // Past the list's range (its keys all start with its prefix), or past the index: ended.
  if (cursor === null || key === null || !key.startsWith(prefixOf(join, list))) {
    join.done({ ids: join.ids, last: null });
    return;
  }
  const place = key.slice(prefixOf(join, list).length);
  if (place === join.target) join.agreeing++;
  else {
    join.target = place;
    join.agreeing = 1;
  }
  if (join.agreeing === join.prefixes.length) {
    // A place is the turned day, a NUL, then the bill's id.
    const id = place.slice(place.indexOf('\u0000') + 1);
    if (!join.skip.has(id)) join.ids.push(id);
    if (join.ids.length >= join.limit) {
      join.done({ ids: join.ids, last: place });
      return;
    }
    join.target = `${place}\u0000`;
    join.agreeing = 0;
  }
  seek(join, (list + 1) % join.prefixes.length);
}

/**
 * One move toward the target: the next entry (Chromium reads ahead for a cursor stepped
 * without a key, so a run of such steps costs little) while the target may be near, then
 * one seek to it (a lookup of its own, slower than a step on disk, but it skips any run).
 */
function step(join: Leapfrog, list: number, cursor: IDBCursor): void {
  const { steps } = join;
  if ((steps[list] ?? 0) < PLAIN_STEPS) {
    steps[list] = (steps[list] ?? 0) + 1;
    cursor.continue();
  } else {
    cursor.continue(`${prefixOf(join, list)}${join.target}`);
  }
}

/** Where a list's cursor arrived: short of the target it moves on, else it has landed. */
function arrived(join: Leapfrog, list: number, cursor: IDBCursor | null): void {
  if (cursor !== null) join.cursors[list] = cursor;
  if (cursor !== null && keyText(cursor) < `${prefixOf(join, list)}${join.target}`) {
    step(join, list, cursor);
  } else landed(join, list, cursor);
}

/** Moves the list's cursor to the first key at or after the target, or counts it there. */
function seek(join: Leapfrog, list: number): void {
  const cursor = join.cursors[list];
  if (cursor !== undefined) {
    join.steps[list] = 0;
    arrived(join, list, cursor);
    return;
  }
  // A cursor over the whole index, which then seeks to the target at once: no key range,
  // which fake-indexeddb's tests lack.
  join.steps[list] = PLAIN_STEPS;
  const request = join.index.openKeyCursor();
  request.onerror = () => {
    join.failed(request.error ?? new Error('The deck could not read the recent order.'));
  };
  request.onsuccess = () => {
    arrived(join, list, request.result);
  };
}

/**
 * Up to `limit` ids that every list holds and `skip` does not, in the recent order, from the
 * place `from` on: a leapfrog over one key cursor per list on the `deckKeys` index, each seeking
 * (continue to a key) to the place the others reached, in one read-only transaction of its own,
 * so a run of places only one list holds is skipped without being read, and nothing is counted.
 * Answers with a Dexie promise, as datasetIdsFrom does.
 */
function sharedIdsFrom(
  idb: IDBDatabase,
  prefixes: readonly string[],
  from: string,
  limit: number,
  skip: ReadonlySet<string>,
): Promise<{ ids: string[]; last: string | null }> {
  return new Dexie.Promise<{ ids: string[]; last: string | null }>((resolve, reject) => {
    seek(
      {
        index: idb.transaction('bills', 'readonly').objectStore('bills').index('deckKeys'),
        prefixes,
        limit,
        skip,
        cursors: [],
        ids: [],
        target: from,
        agreeing: 0,
        steps: prefixes.map(() => 0),
        done: resolve,
        failed: reject,
      },
      0,
    );
  });
}

/**
 * The recent order (core's deck-order-keys.ts). One list is one range of the `deckKeys` index,
 * read a page of ids at a time (getAllKeys, through Dexie's primaryKeys); the next page starts
 * after the last id's place, read from that one bill. Several are joined by sharedIdsFrom, after
 * a one-key Dexie read of each range that keeps it observed by the live query running it.
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
    // One row, not a count: counting 50,000 bills on disk takes seconds.
    ready: async () => (await db.table('settings').get(DECK_ORDER_FILLING_SETTING)) === undefined,
    page: async (list, after, limit) => {
      const ids = await range(list, after).limit(limit).primaryKeys();
      const lastId = ids.at(-1);
      if (ids.length < limit || lastId === undefined) return { ids, last: null };
      // Gone since (deleted between the two reads): the walk ends here, and the live query that
      // runs it runs again for that very change.
      const lastBill = await bills.get(lastId);
      return { ids, last: lastBill === undefined ? null : recentOrderPlace(lastBill) };
    },
    shared: async (lists, after, limit, skip) => {
      const observed = await Promise.all(
        lists.map(async (list) => await range(list, after).limit(1).primaryKeys()),
      );
      if (observed.some((ids) => ids.length === 0)) return { ids: [], last: null };
      return await sharedIdsFrom(
        db.backendDB(),
        lists.map(deckOrderListPrefix),
        after === null ? '' : `${after}\u0000`,
        limit,
        skip,
      );
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
      if (!includeLater) return await decisions.toCollection().primaryKeys();
      // Both at once: each is tens of ms with thousands of decisions, and the first card waits.
      const [decided, laterIds] = await Promise.all([
        decisions.toCollection().primaryKeys(),
        decisions.where('decision').equals('later').primaryKeys(),
      ]);
      const later = new Set(laterIds);
      return decided.filter((id) => !later.has(id));
    },
    decisions: async () => await decisions.toArray(),
    datasetCount: async () => await db.table('datasets').count(),
    recent: recentOrder(db),
  };
}
