import type { BillLabel } from '../store/bill-label.ts';
import type { Annotation, BillTag, Decision, Position, Tag } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { sortTagsByName } from './tag-order.ts';

// "Notes on removed bills" (PRODUCT.md, the Tracked tab): the user's work (tags on bills,
// positions with their "Why", decisions, notes) on bills that are no longer on this device,
// because their dataset was deleted or they were never imported here (another device's work,
// brought by sync). Nothing of it is lost: the Tracked tab lists it, bill details shows it, the
// export takes it (user-data-export.ts, selection "removed"), and the user deletes it
// (commands/removed-bill-commands.ts). Each row may keep its bill's number and title
// (`billLabel`); the newest one any of the bill's rows keeps names the bill, else its id.

/** The tables the notes are read from. */
export const removedBillNoteTables = [
  'bills',
  'tags',
  'billTags',
  'positions',
  'decisions',
  'annotations',
] as const;

/** What the device keeps of one bill that is not on it. */
export interface RemovedBillNotes {
  readonly billId: string;
  /** The bill's number and title as a row kept them; null when no row did (then show the id). */
  readonly label: BillLabel | null;
  /** The tags on it, in the tags' order; an assignment whose tag is gone is left out. */
  readonly tags: readonly Tag[];
  readonly billTags: readonly BillTag[];
  readonly position: Position | null;
  readonly decision: Decision | null;
  /** Its notes, oldest first. */
  readonly annotations: readonly Annotation[];
}

export interface UserWorkRows {
  readonly tags: readonly Tag[];
  readonly billTags: readonly BillTag[];
  readonly positions: readonly Position[];
  readonly decisions: readonly Decision[];
  readonly annotations: readonly Annotation[];
}

/** A position worth keeping: one taken, or a "Why" written. "None" with no reason is nothing. */
function holdsSomething(position: Position): boolean {
  return position.position !== 'none' || (position.reason ?? '') !== '';
}

/** The ids of bills the user's rows are about, in no order. */
export function billIdsOfWork(rows: UserWorkRows): Set<string> {
  const ids = new Set<string>();
  for (const row of rows.billTags) ids.add(row.billId);
  for (const row of rows.positions) if (holdsSomething(row)) ids.add(row.billId);
  for (const row of rows.decisions) ids.add(row.billId);
  for (const row of rows.annotations) ids.add(row.billId);
  return ids;
}

/** When a row was last written: the newest label wins. */
type Dated = { label: BillLabel; at: string };

/**
 * The user's work grouped by bill, for the bills `isPresent` says are not on the device, ordered
 * by the bill's number (then id). Pure: the rows are the tables' whole contents.
 */
export function removedBillNotesOf(
  rows: UserWorkRows,
  isPresent: (billId: string) => boolean,
): RemovedBillNotes[] {
  const tagsById = new Map(rows.tags.map((tag) => [tag.id, tag]));
  const groups = new Map<
    string,
    {
      label: Dated | null;
      billTags: BillTag[];
      position: Position | null;
      decision: Decision | null;
      annotations: Annotation[];
    }
  >();
  const group = (billId: string) => {
    let found = groups.get(billId);
    if (found === undefined) {
      found = { label: null, billTags: [], position: null, decision: null, annotations: [] };
      groups.set(billId, found);
    }
    return found;
  };
  const note = (billId: string, label: BillLabel | undefined, at: string) => {
    const found = group(billId);
    if (label !== undefined && (found.label === null || at > found.label.at)) {
      found.label = { label, at };
    }
    return found;
  };
  const absent = (billId: string) => !isPresent(billId);
  for (const row of rows.billTags.filter((row) => absent(row.billId))) {
    if (tagsById.has(row.tagId)) note(row.billId, row.billLabel, row.createdAt).billTags.push(row);
    else if (row.billLabel !== undefined) note(row.billId, row.billLabel, row.createdAt);
  }
  for (const row of rows.positions.filter((row) => absent(row.billId))) {
    if (holdsSomething(row)) note(row.billId, row.billLabel, row.updatedAt).position = row;
  }
  for (const row of rows.decisions.filter((row) => absent(row.billId))) {
    note(row.billId, row.billLabel, row.decidedAt).decision = row;
  }
  for (const row of rows.annotations.filter((row) => absent(row.billId))) {
    note(row.billId, row.billLabel, row.updatedAt).annotations.push(row);
  }
  const notes: RemovedBillNotes[] = [];
  for (const [billId, found] of groups) {
    const tags = sortTagsByName(
      found.billTags
        .map((row) => tagsById.get(row.tagId))
        .filter((tag): tag is Tag => tag !== undefined),
    );
    // A tag whose tag row is gone, and nothing else: there is nothing to show.
    if (
      found.billTags.length === 0 &&
      found.position === null &&
      found.decision === null &&
      found.annotations.length === 0
    ) {
      continue;
    }
    notes.push({
      billId,
      label: found.label?.label ?? null,
      tags,
      billTags: found.billTags,
      position: found.position,
      decision: found.decision,
      annotations: found.annotations.sort(
        (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
      ),
    });
  }
  const nameOf = (entry: RemovedBillNotes) => entry.label?.identifier ?? entry.billId;
  return notes.sort(
    (a, b) =>
      nameOf(a).localeCompare(nameOf(b), 'en', { numeric: true }) ||
      a.billId.localeCompare(b.billId),
  );
}

// Up to this many bills are looked up one by one; past it, reading every key is cheaper than
// reading every bill (with its texts) just to learn that it exists (as in requireBills).
const LOOKUP_ONE_BY_ONE = 64;

/** Which of these bill ids are in `bills`. */
export async function presentBillIds(
  tx: LocalReadTransaction,
  billIds: readonly string[],
): Promise<Set<string>> {
  if (billIds.length <= LOOKUP_ONE_BY_ONE) {
    const rows = await tx.getMany('bills', billIds);
    return new Set(billIds.filter((_, index) => rows[index] !== undefined));
  }
  const wanted = new Set(billIds);
  return new Set((await tx.keys('bills')).filter((id) => wanted.has(id)));
}

/** The notes on removed bills, read in one transaction; with `billId`, that bill's only. */
export async function readRemovedBillNotesIn(
  tx: LocalReadTransaction,
  billId?: string,
): Promise<RemovedBillNotes[]> {
  const rows: UserWorkRows =
    billId === undefined
      ? {
          tags: await tx.all('tags'),
          billTags: await tx.all('billTags'),
          positions: await tx.all('positions'),
          decisions: await tx.all('decisions'),
          annotations: await tx.all('annotations'),
        }
      : {
          tags: await tx.all('tags'),
          billTags: await tx.where('billTags', 'billId', billId),
          positions: [await tx.get('positions', billId)].filter((row) => row !== undefined),
          decisions: [await tx.get('decisions', billId)].filter((row) => row !== undefined),
          annotations: await tx.where('annotations', 'billId', billId),
        };
  const present = await presentBillIds(tx, [...billIdsOfWork(rows)]);
  return removedBillNotesOf(rows, (id) => present.has(id));
}

/** The notes on removed bills (the Tracked tab's list); with `billId`, that bill's, if any. */
export async function readRemovedBillNotes(
  store: LocalStore,
  billId?: string,
): Promise<RemovedBillNotes[]> {
  return store.read(removedBillNoteTables, (tx) => readRemovedBillNotesIn(tx, billId));
}
