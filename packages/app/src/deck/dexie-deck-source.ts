import Dexie from 'dexie';
import type { DeckSource } from '@docket/core/bill-deck';
import type { IndexedCriterion } from '@docket/core/bill-deck-filter';
import type { Decision, StoredBill } from '@docket/core/local-records';

// The deck's reads on the page's Dexie connection. Ids come from primary keys and index keys
// only (IndexedDB's getAllKeys: no bill is read or cloned), and bills are fetched by id in the
// small batches core's readDeckPage asks for. Run inside useLiveQuery, every read here is
// observed, so the deck moves on when a decision or an import commits, in any tab or the worker.

/** Cards read at a time: the one shown and the next few, so a decision shows the next at once. */
export const DECK_PAGE_SIZE = 4;

/** A list of ids read from its start, longer each time it falls short. */
interface ListPrefix {
  ids: string[];
  /** The read returned fewer than asked: this is the whole list. */
  whole: boolean;
}

export function dexieDeckSource(db: Dexie): DeckSource {
  const bills = db.table<StoredBill, string>('bills');
  const decisions = db.table<Decision, string>('decisions');
  // A multiEntry index cannot be part of a compound one, so a dataset's list cannot be entered
  // in the middle: its prefix is read again, twice as long, until it reaches the id sought
  // (getAllKeys of a prefix is several times cheaper than stepping a cursor past an offset).
  // Kept per source, which lives for one run of a live query.
  const prefixes = new Map<string, ListPrefix>();

  async function datasetPage(datasetId: string, atLeast: string | null, limit: number) {
    let prefix = prefixes.get(datasetId) ?? { ids: [], whole: false };
    for (;;) {
      const start = atLeast === null ? 0 : prefix.ids.findIndex((id) => id >= atLeast);
      if (start >= 0 && (prefix.whole || start + limit <= prefix.ids.length)) {
        return prefix.ids.slice(start, start + limit);
      }
      if (prefix.whole) return [];
      const wanted = Math.max(
        prefix.ids.length * 2,
        (start < 0 ? prefix.ids.length : start) + limit,
        256,
      );
      const ids = await bills.where('datasetIds').equals(datasetId).limit(wanted).primaryKeys();
      prefix = { ids, whole: ids.length < wanted };
      prefixes.set(datasetId, prefix);
    }
  }

  async function page(criterion: IndexedCriterion | null, atLeast: string | null, limit: number) {
    if (criterion === null) {
      // A key range seeks straight to the id.
      const rest =
        atLeast === null ? bills.orderBy(':id') : bills.where(':id').aboveOrEqual(atLeast);
      return await rest.limit(limit).primaryKeys();
    }
    if (criterion.index === 'datasetIds') return await datasetPage(criterion.value, atLeast, limit);
    // [status+id] and [jurisdiction+id] hold the field's bills in id order as one key: a range
    // from [value, atLeast] seeks into the middle of them (schema version 3).
    return await bills
      .where(`[${criterion.index}+id]`)
      .between([criterion.value, atLeast ?? ''], [criterion.value, Dexie.maxKey], true, true)
      .limit(limit)
      .primaryKeys();
  }

  return {
    billIds: async (criterion) =>
      criterion === null
        ? await bills.toCollection().primaryKeys()
        : await bills.where(criterion.index).equals(criterion.value).primaryKeys(),
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
  };
}
