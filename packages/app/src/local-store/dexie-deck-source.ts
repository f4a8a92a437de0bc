import type Dexie from 'dexie';
import { billIdOfOrderKey, billOrderFields } from '@docket/core/bills';
import type { DeckSource, IndexedCriterion } from '@docket/core/deck';
import type { Decision, StoredBill } from '@docket/core/store';

// The deck's reads on the page's Dexie connection, keys only until the cards: pages of the
// order's index (schema version 5) as primary keys, which IndexedDB hands over in one request
// (getAllKeys), where index keys would need a cursor step each; the key a page ends at from one
// cursor that skips to it; and each criterion's ids whole (a dataset, a jurisdiction, a status,
// a session through [jurisdiction+session]). Bills are fetched by id in the small batches core's
// readDeckPage asks for. Run inside useLiveQuery, every read here is observed, so the deck moves
// on when a decision or an import commits, in any tab or the worker.

/** Cards read at a time: the one shown and the next few, so a decision shows the next at once. */
export const DECK_PAGE_SIZE = 4;

export function dexieDeckSource(db: Dexie): DeckSource {
  const bills = db.table<StoredBill, string>('bills');
  const decisions = db.table<Decision, string>('decisions');

  async function billIds(criterion: IndexedCriterion | null): Promise<string[]> {
    if (criterion === null) return await bills.toCollection().primaryKeys();
    if (criterion.index === 'session') {
      return await bills
        .where('[jurisdiction+session]')
        .equals([criterion.jurisdiction, criterion.session])
        .primaryKeys();
    }
    return await bills.where(criterion.index).equals(criterion.value).primaryKeys();
  }

  return {
    billIds,
    orderPage: async (order, after, limit) => {
      const field = billOrderFields[order];
      const range = () => (after === null ? bills.orderBy(field) : bills.where(field).above(after));
      for (;;) {
        const ids = await range().limit(limit).primaryKeys();
        if (ids.length < limit) return { ids, last: null };
        // The page's last key, where the next page starts: one cursor, advanced to it natively.
        const [last] = await range()
          .offset(limit - 1)
          .limit(1)
          .keys();
        // The key ends with its bill's id: it agrees with the page unless a write landed between
        // the two reads, and then the page is read again.
        if (typeof last === 'string' && billIdOfOrderKey(last) === ids[ids.length - 1]) {
          return { ids, last };
        }
      }
    },
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
