import { billDeckOrderKeys } from './deck-order-keys.ts';
import type { Decision, StoredBill } from './local-records.ts';
import type { LocalRows, LocalWriteTransaction, TableName } from './local-store.ts';

// What a store derives as it writes, in one place for both stores (IndexedDB's and memory's):
// a bill's deck keys depend on its fields and on its decision (local-records.ts), so a write of
// either keeps the other's derived part true in the same transaction. A bill written is given its
// keys with its decision read beside it; a decision written or removed rewrites its bill's keys.
// No caller has to know: every writer (the deck, sync, a restore, an import) goes through this.
// No schema lives here (types only from local-records.ts): the deck's first card loads this
// module, and building the row schemas costs tens of ms of a cold start's main thread.

/**
 * A bill as a store keeps it: with its derived `deckKeys` set from its fields and its decision
 * (the decision's kind, or undefined when it has none). The same object when they are already
 * right.
 */
export function withDerivedFields(
  bill: StoredBill,
  decision: Decision['decision'] | undefined,
): StoredBill {
  const deckKeys = billDeckOrderKeys(bill, decision);
  const stored = bill.deckKeys;
  if (
    stored !== undefined &&
    stored.length === deckKeys.length &&
    stored.every((key, index) => key === deckKeys[index])
  ) {
    return bill;
  }
  return { ...bill, deckKeys };
}

/** The bill without what a store derives: as a backup or a link carries it off the device. */
export function withoutDerivedFields(bill: StoredBill): StoredBill {
  if (bill.deckKeys === undefined) return bill;
  const copy = { ...bill };
  delete copy.deckKeys;
  return copy;
}

/**
 * The tables a write transaction over `tables` must hold: bills and decisions go together, since
 * writing one rewrites what the other derives.
 */
export function writeScope(tables: readonly TableName[]): TableName[] {
  const scope = new Set(tables);
  if (scope.has('bills') || scope.has('decisions')) {
    scope.add('bills');
    scope.add('decisions');
  }
  return [...scope];
}

/** `tx`'s writes, with the derived fields kept true (the store's own transaction goes in). */
export function derivingWrites(tx: LocalWriteTransaction): LocalWriteTransaction {
  /** The bills with their keys, given each one's decision (none read when there is none). */
  const derivedBills = async (bills: readonly StoredBill[]): Promise<StoredBill[]> => {
    if (bills.length === 0) return [];
    // An import writes thousands of bills before the user has decided any: one count, no reads.
    const rows: readonly (Decision | undefined)[] =
      (await tx.count('decisions')) === 0
        ? []
        : await tx.getMany(
            'decisions',
            bills.map((bill) => bill.id),
          );
    return bills.map((bill, index) => withDerivedFields(bill, rows[index]?.decision));
  };
  /** Rewrites the keys of these bills (after their decisions changed) where they are stale. */
  const refreshBills = async (ids: readonly string[]): Promise<void> => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const [bills, rows] = await Promise.all([
      tx.getMany('bills', unique),
      tx.getMany('decisions', unique),
    ]);
    const stale: StoredBill[] = [];
    bills.forEach((bill, index) => {
      if (bill === undefined) return;
      const derived = withDerivedFields(bill, rows[index]?.decision);
      if (derived !== bill) stale.push(derived);
    });
    if (stale.length > 0) await tx.putMany('bills', stale);
  };
  const billIdsOf = (rows: readonly unknown[]) =>
    (rows as readonly Decision[]).map((row) => row.billId);

  return {
    ...tx,
    put: async <N extends TableName>(table: N, row: LocalRows[N]) => {
      if (table === 'bills') {
        const [bill] = await derivedBills([row as StoredBill]);
        await tx.put('bills', bill ?? (row as StoredBill));
        return;
      }
      await tx.put(table, row);
      if (table === 'decisions') await refreshBills(billIdsOf([row]));
    },
    putMany: async <N extends TableName>(table: N, rows: readonly LocalRows[N][]) => {
      if (table === 'bills') {
        await tx.putMany('bills', await derivedBills(rows as readonly StoredBill[]));
        return;
      }
      await tx.putMany(table, rows);
      if (table === 'decisions') await refreshBills(billIdsOf(rows));
    },
    delete: async (table, key) => {
      await tx.delete(table, key);
      if (table === 'decisions') await refreshBills([key]);
    },
    deleteMany: async (table, keys) => {
      await tx.deleteMany(table, keys);
      if (table === 'decisions') await refreshBills(keys);
    },
    deletePrefix: async (table, prefix) => {
      if (table !== 'decisions') {
        await tx.deletePrefix(table, prefix);
        return;
      }
      // A user's decisions are few next to the bills: their keys are read to know whose change.
      const gone = (await tx.keys('decisions')).filter((key) => key.startsWith(prefix));
      await tx.deletePrefix(table, prefix);
      await refreshBills(gone);
    },
  };
}
