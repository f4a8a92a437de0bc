import Dexie from 'dexie';
import { billOrderFields } from '@docket/core/bills';
import type { DeckSource, IndexedCriterion, OrderedCriterion } from '@docket/core/deck';
import type { Decision, StoredBill } from '@docket/core/store';

// The deck's reads on the page's Dexie connection. Order keys come from index keys only (no bill
// is read or cloned): the order's own index for every bill, or the compound index of a status, a
// jurisdiction or a session of one followed by the order's key (schema version 5), entered at a
// key with a key range. A dataset's ids are read whole from its multiEntry index, keys only.
// Bills are fetched by id in the small batches core's readDeckPage asks for. Run inside
// useLiveQuery, every read here is observed, so the deck moves on when a decision or an import
// commits, in any tab or the worker.

/** Cards read at a time: the one shown and the next few, so a decision shows the next at once. */
export const DECK_PAGE_SIZE = 4;

/** The index of a criterion's bills in an order, and the key range of its bills in it. */
function orderedRange(
  criterion: OrderedCriterion,
  field: string,
  atLeast: string | null,
): { index: string; lower: unknown[]; upper: unknown[] } {
  const from = atLeast ?? '';
  switch (criterion.index) {
    case 'session':
      return {
        index: `[jurisdiction+session+${field}]`,
        lower: [criterion.jurisdiction, criterion.session, from],
        upper: [criterion.jurisdiction, criterion.session, Dexie.maxKey],
      };
    case 'jurisdiction':
    case 'status':
      return {
        index: `[${criterion.index}+${field}]`,
        lower: [criterion.value, from],
        upper: [criterion.value, Dexie.maxKey],
      };
  }
}

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
    billKeyPage: async (criterion, order, atLeast, limit) => {
      const field = billOrderFields[order];
      if (criterion === null) {
        // A key range on the order's index seeks straight to the key.
        const keys = await bills
          .where(field)
          .aboveOrEqual(atLeast ?? '')
          .limit(limit)
          .keys();
        return keys.filter((key): key is string => typeof key === 'string');
      }
      const range = orderedRange(criterion, field, atLeast);
      const keys = await bills
        .where(range.index)
        .between(range.lower, range.upper, true, true)
        .limit(limit)
        .keys();
      // Each key is [value(s)…, order key]: the order key is the last part.
      return keys.flatMap((key) => {
        const last: unknown = Array.isArray(key) ? key[key.length - 1] : undefined;
        return typeof last === 'string' ? [last] : [];
      });
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
