import type { BillChange, BillChangeItem, SeenMark, StoredBill } from '../store/local-records.ts';
import type { LocalReadTransaction } from '../store/local-store.ts';

// The "What changed" list: the changes recorded on this device to the bills the user follows
// (tracked, or with a position other than none, or a tag) that the user has not seen yet, newest
// first, one entry per bill with everything that changed since it was last seen.

/** Whether the user has seen this change: marked after it was recorded here, or marked (on any
 *  device) when the bill was already as this change left it. */
export function isSeen(change: BillChange, mark: SeenMark | undefined): boolean {
  if (mark === undefined) return false;
  return mark.seenAt >= change.at || mark.changeHash === change.toHash;
}

export interface ChangeFeedEntry {
  billId: string;
  /** The bill as stored now, when it still is. */
  bill: StoredBill | undefined;
  /** When the newest unseen change was recorded. */
  at: string;
  /** Every unseen change's items, oldest change first. */
  items: BillChangeItem[];
  /** The bill's change hash as the newest unseen change left it, for its seen mark. */
  toHash: string;
}

export const CHANGE_FEED_TABLES = [
  'billChanges',
  'seenMarks',
  'decisions',
  'positions',
  'billTags',
  'bills',
] as const;

/**
 * The unseen changes of followed bills (tracked, with a position, or with a tag), newest first.
 * Every read is issued at once, straight on the transaction: the app runs this as a Dexie live
 * query, which hears of later writes only to what it saw read, and it loses track of reads made
 * after awaiting a helper of ours.
 */
export async function readChangeFeed(tx: LocalReadTransaction): Promise<ChangeFeedEntry[]> {
  const [tracked, positions, billTags, changes] = await Promise.all([
    tx.where('decisions', 'decision', 'track'),
    tx.all('positions'),
    tx.all('billTags'),
    tx.all('billChanges'),
  ]);
  const followed = new Set<string>();
  for (const row of tracked) followed.add(row.billId);
  for (const row of positions) if (row.position !== 'none') followed.add(row.billId);
  for (const row of billTags) followed.add(row.billId);
  const byBill = new Map<string, BillChange[]>();
  for (const change of changes) {
    if (!followed.has(change.billId)) continue;
    const list = byBill.get(change.billId) ?? [];
    list.push(change);
    byBill.set(change.billId, list);
  }
  const ids = [...byBill.keys()];
  const [marks, bills] = await Promise.all([
    tx.getMany('seenMarks', ids),
    tx.getMany('bills', ids),
  ]);
  const entries: ChangeFeedEntry[] = [];
  ids.forEach((billId, index) => {
    const mark = marks[index];
    // Keys sort by bill then time, so each bill's changes are oldest first already.
    const unseen = (byBill.get(billId) ?? []).filter((change) => !isSeen(change, mark));
    const newest = unseen.at(-1);
    if (newest === undefined) return;
    entries.push({
      billId,
      bill: bills[index],
      at: newest.at,
      items: unseen.flatMap((change) => change.changes),
      toHash: newest.toHash,
    });
  });
  return entries.sort((a, b) =>
    a.at < b.at ? 1 : a.at > b.at ? -1 : a.billId < b.billId ? -1 : 1,
  );
}
