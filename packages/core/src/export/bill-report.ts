import type { BillAction, BillVote } from '../bills/bill.ts';
import { latestAction } from '../bills/bill-dates.ts';
import { latestVote } from '../bills/member-votes.ts';
import type { Annotation, Decision, Position, StoredBill, Tag } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// A printed report of bills (the Tracked tab's "Print"): each listed bill, in the list's order,
// with what the user made of it: position and why, decision, tags by name, notes. The list
// gives the ids (the search worker's order); this reads the rest in one transaction, so the
// report is of one moment even while an import or a sync writes.

export interface BillReportEntry {
  readonly bill: StoredBill;
  /** The newest action (bills/bill-dates.ts latestAction), or null. */
  readonly latestAction: BillAction | null;
  /** The newest vote (bills/member-votes.ts latestVote), or null. */
  readonly latestVote: BillVote | null;
  readonly position: Position | null;
  readonly decision: Decision['decision'] | null;
  /** The bill's tags, by name. */
  readonly tags: readonly Tag[];
  /** Annotations with a note, oldest first. */
  readonly notes: readonly Annotation[];
}

export const billReportTables = [
  'bills',
  'positions',
  'decisions',
  'billTags',
  'tags',
  'annotations',
] as const;

/** The bills of `billIds`, in that order (ids no longer on the device are left out). */
export async function readBillReport(
  store: LocalStore,
  billIds: readonly string[],
): Promise<BillReportEntry[]> {
  return store.read(billReportTables, async (tx) => {
    const [bills, positions, decisions, billTags, tags, annotations] = await Promise.all([
      tx.getMany('bills', billIds),
      tx.getMany('positions', billIds),
      tx.getMany('decisions', billIds),
      tx.all('billTags'),
      tx.all('tags'),
      tx.all('annotations'),
    ]);
    const tagsById = new Map(tags.map((tag) => [tag.id, tag]));
    const tagsOf = new Map<string, Tag[]>();
    for (const row of billTags) {
      const tag = tagsById.get(row.tagId);
      if (tag !== undefined) tagsOf.set(row.billId, [...(tagsOf.get(row.billId) ?? []), tag]);
    }
    const notesOf = new Map<string, Annotation[]>();
    for (const annotation of annotations) {
      if (annotation.note.trim() === '') continue;
      notesOf.set(annotation.billId, [...(notesOf.get(annotation.billId) ?? []), annotation]);
    }
    return bills.flatMap((bill, index): BillReportEntry[] => {
      if (bill === undefined) return [];
      return [
        {
          bill,
          latestAction: latestAction(bill.actions),
          latestVote: latestVote(bill.votes),
          position: positions[index] ?? null,
          decision: decisions[index]?.decision ?? null,
          tags: (tagsOf.get(bill.id) ?? []).sort((a, b) => a.name.localeCompare(b.name)),
          notes: (notesOf.get(bill.id) ?? []).sort((a, b) =>
            a.createdAt.localeCompare(b.createdAt),
          ),
        },
      ];
    });
  });
}
