import type Dexie from 'dexie';
import type { DeckSource } from '@docket/core/bill-deck';
import type { Decision, StoredBill } from '@docket/core/local-records';

// The deck's reads on the page's Dexie connection. Ids come from primary keys and index keys
// only (IndexedDB's getAllKeys: no bill is read or cloned), and bills are fetched by id in the
// small batches core's readDeckPage asks for. Run inside useLiveQuery, every read here is
// observed, so the deck moves on when a decision or an import commits, in any tab or the worker.

/** Cards read at a time: the one shown and the next few, so a decision shows the next at once. */
export const DECK_PAGE_SIZE = 4;

export function dexieDeckSource(db: Dexie): DeckSource {
  const bills = db.table<StoredBill, string>('bills');
  return {
    billIds: async (criterion) =>
      criterion === null
        ? await bills.toCollection().primaryKeys()
        : await bills.where(criterion.index).equals(criterion.value).primaryKeys(),
    billIdPage: async (criterion, from, limit) => {
      if (criterion !== null) {
        return await bills
          .where(criterion.index)
          .equals(criterion.value)
          .offset(from.offset)
          .limit(limit)
          .primaryKeys();
      }
      // A key range seeks straight past the ids already walked.
      const rest =
        from.afterId === null ? bills.orderBy(':id') : bills.where(':id').above(from.afterId);
      return await rest.limit(limit).primaryKeys();
    },
    bills: async (ids) => await bills.bulkGet([...ids]),
    decisions: async () => await db.table<Decision, string>('decisions').toArray(),
    datasetCount: async () => await db.table('datasets').count(),
  };
}
