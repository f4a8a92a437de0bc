import type { BillHistory } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// What the screens read of a bill's History (sync/bill-history.ts records it): a bill's entries,
// the bills with entries this device has not shown, and marking them shown. Store reads only, so
// the screens that show History load none of sync's code.

/**
 * A bill's History, newest first: its own entries and those of the tags it carries (a tag's
 * name belongs to no one bill).
 */
export async function readBillHistory(store: LocalStore, billId: string): Promise<BillHistory[]> {
  return store.read(['billHistory', 'billTags'], async (tx) => {
    const own = await tx.where('billHistory', 'billId', billId);
    const tagIds = (await tx.where('billTags', 'billId', billId)).map((row) => row.tagId);
    const ofTags = (
      await Promise.all(tagIds.map((tagId) => tx.where('billHistory', 'rowId', tagId)))
    )
      .flat()
      .filter((row) => row.table === 'tags');
    return [...own, ...ofTags].sort((a, b) => (a.at === b.at ? 0 : a.at < b.at ? 1 : -1));
  });
}

/** The user opened the bill: its History's entries are no longer news on this device. */
export async function markBillHistorySeen(
  store: LocalStore,
  entryIds: readonly string[],
): Promise<void> {
  if (entryIds.length === 0) return;
  await store.write(['billHistory'], async (tx) => {
    const rows = await tx.getMany('billHistory', entryIds);
    const seen = rows.flatMap((row) =>
      row !== undefined && row.unseen === true ? [{ ...row, unseen: false }] : [],
    );
    if (seen.length > 0) await tx.putMany('billHistory', seen);
  });
}

/**
 * The bills whose History holds entries this device has not shown: the lists say "Changed on
 * another device" on them until they are opened. Reads the table whole (it is bounded per bill).
 */
export async function readChangedBillIds(store: LocalStore): Promise<ReadonlySet<string>> {
  return store.read(['billHistory'], async (tx) => {
    const ids = new Set<string>();
    for (const row of await tx.all('billHistory')) {
      if (row.unseen === true && row.billId !== null) ids.add(row.billId);
    }
    return ids;
  });
}
