import type { BillCommandContext } from '../commands/bill-command-context.ts';
import { billLabelOf, commandTime, newRowId } from '../commands/bill-command-context.ts';
import type { BillLabel } from '../store/bill-label.ts';
import type {
  Annotation,
  BillTag,
  Decision,
  Position,
  StoredBill,
  Tag,
} from '../store/local-records.ts';
import {
  annotationSchema,
  billTagSchema,
  tagSchema,
  userWorkTables,
} from '../store/local-records.ts';
import type { LocalReadTransaction, LocalWriteTransaction } from '../store/local-store.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';
import { annotationTargetText } from '../text/annotation-targets.ts';
import { readVersionTexts } from '../text/version-text-rows.ts';
import { withFetchedTexts } from '../text/version-text.ts';
import { positionInUtf16 } from '../text/web-annotation-jsonld.ts';
import type { UserDataBundle, UserDataFileKind } from './user-data-import.ts';
import { clip, refuse, tagNameKey } from './user-data-import.ts';

// The second step of importing the user's own files (user-data-import.ts reads them): what the
// import would add and change, shown first, then worked out again and written in one transaction.

export const importKinds = ['bills', ...userWorkTables] as const;
export type ImportKind = (typeof importKinds)[number];

export interface ImportCount {
  added: number;
  changed: number;
  unchanged: number;
}

export interface ImportChange {
  readonly kind: ImportKind;
  readonly action: 'add' | 'change';
  /** What changes, for people: "HB 1044: position Watch → Support". */
  readonly description: string;
}

export interface UserDataImportPlan {
  readonly kind: UserDataFileKind;
  readonly counts: Readonly<Record<ImportKind, ImportCount>>;
  /** Every addition and change, in the order of the kinds. */
  readonly changes: readonly ImportChange[];
}

interface PlannedWrites {
  bills: StoredBill[];
  tags: Tag[];
  billTags: BillTag[];
  positions: Position[];
  decisions: Decision[];
  annotations: Annotation[];
}

export const importTables = [...importKinds, ...outboxTables, 'versionTexts'] as const;

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function sameAnnotation(a: Annotation, b: Annotation): boolean {
  return JSON.stringify(annotationSchema.parse(a)) === JSON.stringify(annotationSchema.parse(b));
}

async function plan(
  tx: LocalReadTransaction,
  bundle: UserDataBundle,
  newId: () => string,
  at: string,
): Promise<{ plan: UserDataImportPlan; writes: PlannedWrites }> {
  const counts = Object.fromEntries(
    importKinds.map((kind) => [kind, { added: 0, changed: 0, unchanged: 0 }]),
  ) as Record<ImportKind, ImportCount>;
  const changes: ImportChange[] = [];
  const writes: PlannedWrites = {
    bills: [],
    tags: [],
    billTags: [],
    positions: [],
    decisions: [],
    annotations: [],
  };
  const note = (kind: ImportKind, action: 'add' | 'change', description: string) => {
    counts[kind][action === 'add' ? 'added' : 'changed']++;
    changes.push({ kind, action, description });
  };

  const referenced = [
    ...new Set([
      ...bundle.bills.map((bill) => bill.id),
      ...bundle.billTags.map((row) => row.billId),
      ...bundle.positions.map((row) => row.billId),
      ...bundle.decisions.map((row) => row.billId),
      ...bundle.annotations.map((row) => row.billId),
    ]),
  ];
  const stored = await tx.getMany('bills', referenced);
  const names = new Map<string, string>();
  const billsById = new Map<string, Pick<StoredBill, 'title' | 'summary' | 'texts'>>(
    bundle.bills.map((bill) => [bill.id, bill]),
  );
  referenced.forEach((id, index) => {
    const bill = stored[index];
    if (bill !== undefined) {
      names.set(id, bill.identifier);
      billsById.set(id, bill);
    }
  });
  // An annotation may be on a version this device fetched ("Get text"): its text counts too.
  for (const id of new Set(bundle.annotations.map((row) => row.billId))) {
    const bill = billsById.get(id);
    if (bill !== undefined)
      billsById.set(id, withFetchedTexts(bill, await readVersionTexts(tx, id)));
  }
  const storedIds = new Set(names.keys());
  for (const bill of bundle.bills) {
    if (storedIds.has(bill.id)) {
      counts.bills.unchanged++;
      continue;
    }
    names.set(bill.id, bill.identifier);
    writes.bills.push({ ...bill, datasetIds: [] });
    note('bills', 'add', `${bill.identifier}: ${clip(bill.title, 120)}`);
  }
  const billName = (id: string) => names.get(id) ?? id;
  /** A row with its bill's number and title (`billLabel`) when the file has none and the bill is
   *  known, as the commands write them: they name the bill should it leave the device. */
  const labelled = <
    Row extends { readonly billId: string; readonly billLabel?: BillLabel | undefined },
  >(
    row: Row,
  ): Row => {
    const identifier = names.get(row.billId);
    const title = billsById.get(row.billId)?.title;
    if (row.billLabel !== undefined || identifier === undefined || title === undefined) return row;
    return { ...row, billLabel: billLabelOf({ identifier, title }) };
  };

  // Tags by name.
  const existingTags = await tx.all('tags');
  const tagIdByName = new Map(existingTags.map((tag) => [tagNameKey(tag.name), tag.id]));
  const takenIds = new Set(existingTags.map((tag) => tag.id));
  for (const tag of bundle.tags) {
    const key = tagNameKey(tag.name);
    if (tagIdByName.has(key)) {
      counts.tags.unchanged++;
      continue;
    }
    const id = tag.id !== null && !takenIds.has(tag.id) ? tag.id : newId();
    takenIds.add(id);
    tagIdByName.set(key, id);
    const createdAt = tag.createdAt ?? at;
    writes.tags.push(
      tagSchema.parse({
        id,
        name: tag.name,
        color: tag.color,
        createdAt,
        updatedAt: tag.updatedAt ?? createdAt,
      }),
    );
    note('tags', 'add', `Tag "${tag.name}"`);
  }
  const tagNameById = new Map<string, string>();
  for (const tag of [...existingTags, ...writes.tags]) tagNameById.set(tag.id, tag.name);

  const assignments = new Map<string, BillTag>();
  for (const row of bundle.billTags) {
    const tagId = tagIdByName.get(tagNameKey(row.tagName));
    if (tagId === undefined) continue;
    const id = `${row.billId}|${tagId}`;
    if (!assignments.has(id)) {
      assignments.set(id, { id, billId: row.billId, tagId, createdAt: row.createdAt ?? at });
    }
  }
  const assignmentIds = [...assignments.keys()];
  const storedAssignments = await tx.getMany('billTags', assignmentIds);
  assignmentIds.forEach((id, index) => {
    const row = assignments.get(id);
    if (row === undefined) return;
    if (storedAssignments[index] !== undefined) {
      counts.billTags.unchanged++;
      return;
    }
    writes.billTags.push(billTagSchema.parse(labelled(row)));
    note(
      'billTags',
      'add',
      `${billName(row.billId)}: tagged "${tagNameById.get(row.tagId) ?? row.tagId}"`,
    );
  });

  /** Decisions, one value per bill: added, changed, or already as stored. */
  const planValuePerBill = <Row extends { readonly billId: string }>(
    kind: 'decisions',
    rows: readonly Row[],
    stored: readonly (Row | undefined)[],
    written: Row[],
    value: (row: Row) => string,
    label: string,
  ) => {
    rows.forEach((row, index) => {
      const before = stored[index];
      if (before !== undefined && value(before) === value(row)) {
        counts[kind].unchanged++;
        return;
      }
      written.push(row);
      note(
        kind,
        before === undefined ? 'add' : 'change',
        `${billName(row.billId)}: ${label}${before === undefined ? '' : `${capitalised(value(before))} → `}${capitalised(value(row))}`,
      );
    });
  };
  const billIds = (rows: readonly { readonly billId: string }[]) => rows.map((row) => row.billId);
  const storedPositions = await tx.getMany('positions', billIds(bundle.positions));
  bundle.positions.forEach((file, index) => {
    const before = storedPositions[index];
    // A file from before reasons says nothing of them: the device's reason stays. An empty
    // one (a CSV cell) on a row that never had one adds nothing.
    let row: Position = file;
    if (file.reason === undefined && before?.reason !== undefined) {
      row = { ...file, reason: before.reason };
    } else if (file.reason === '' && before?.reason === undefined) {
      row = { billId: file.billId, position: file.position, updatedAt: file.updatedAt };
    }
    const newReason = (before?.reason ?? '') !== (row.reason ?? '');
    if (before !== undefined && before.position === row.position && !newReason) {
      counts.positions.unchanged++;
      return;
    }
    writes.positions.push(labelled(row));
    const said: string[] = [];
    if (before?.position !== row.position) {
      const was = before === undefined ? '' : `${capitalised(before.position)} → `;
      said.push(`position ${was}${capitalised(row.position)}`);
    }
    if (newReason) {
      const reason = row.reason ?? '';
      said.push(
        reason === '' ? 'reason removed' : `why “${clip(reason.replace(/\s+/g, ' '), 60)}”`,
      );
    }
    note(
      'positions',
      before === undefined ? 'add' : 'change',
      `${billName(row.billId)}: ${said.join('; ')}`,
    );
  });
  planValuePerBill(
    'decisions',
    bundle.decisions.map(labelled),
    await tx.getMany('decisions', billIds(bundle.decisions)),
    writes.decisions,
    (row) => row.decision,
    '',
  );

  // The file counts positions in code points; the rows count UTF-16 in the text they are on.
  const textOf = (row: { billId: string; target: string }) => {
    const bill = billsById.get(row.billId);
    return bill === undefined ? null : annotationTargetText(bill, row.target);
  };
  const withIds = bundle.annotations.map((row) => ({
    ...row,
    id: row.id ?? newId(),
    position: positionInUtf16(textOf(row), row.position),
  }));
  const storedAnnotations = await tx.getMany(
    'annotations',
    withIds.map((row) => row.id),
  );
  withIds.forEach((row, index) => {
    const before = storedAnnotations[index];
    if (before !== undefined && sameAnnotation(before, row)) {
      counts.annotations.unchanged++;
      return;
    }
    writes.annotations.push(annotationSchema.parse(labelled(row)));
    const quote = clip(row.quote.exact.replace(/\s+/g, ' '), 60);
    note(
      'annotations',
      before === undefined ? 'add' : 'change',
      `${billName(row.billId)}: note on "${quote}"`,
    );
  });

  return { plan: { kind: bundle.kind, counts, changes }, writes };
}

/** What importing the bundle would add and change now, without writing anything. */
export async function previewUserDataImport(
  context: BillCommandContext,
  bundle: UserDataBundle,
): Promise<UserDataImportPlan> {
  const { at } = commandTime(context);
  let counter = 0;
  // Ids are only placeholders here; apply makes the real ones.
  const result = await context.store.read(importTables, (tx) =>
    plan(tx, bundle, () => `preview-${++counter}`, at),
  );
  return result.plan;
}

async function write(
  tx: LocalWriteTransaction,
  context: BillCommandContext,
  writes: PlannedWrites,
  nowMs: number,
) {
  await tx.putMany('bills', writes.bills);
  const outbox = await OutboxWriter.open(tx, context.deviceId, nowMs);
  const changes = <Row>(rows: readonly Row[]) => rows.map((row) => ({ row }));
  await outbox.putMany('tags', changes(writes.tags));
  await outbox.putMany('billTags', changes(writes.billTags));
  await outbox.putMany('positions', changes(writes.positions));
  await outbox.putMany('decisions', changes(writes.decisions));
  await outbox.putMany('annotations', changes(writes.annotations));
  await outbox.close();
}

/** Imports the bundle in one transaction and says what it added and changed. */
export async function applyUserDataImport(
  context: BillCommandContext,
  bundle: UserDataBundle,
): Promise<UserDataImportPlan> {
  const { nowMs, at } = commandTime(context);
  // Enough fresh ids for every row that may need one, made before the transaction.
  const fresh = Array.from({ length: bundle.tags.length + bundle.annotations.length }, () =>
    newRowId(context),
  );
  return context.store.write(importTables, async (tx) => {
    let next = 0;
    const { plan: done, writes } = await plan(
      tx,
      bundle,
      () => fresh[next++] ?? refuse('Ran out of new ids.'),
      at,
    );
    await write(tx, context, writes, nowMs);
    return done;
  });
}

const kindWords: Readonly<Record<ImportKind, [string, string]>> = {
  bills: ['bill', 'bills'],
  tags: ['tag', 'tags'],
  billTags: ['tag on a bill', 'tags on bills'],
  positions: ['position', 'positions'],
  decisions: ['decision', 'decisions'],
  annotations: ['annotation', 'annotations'],
};

/** "2 bills, 1 tag and 3 positions", or "nothing" — of the counts' added or changed. */
export function describeCounts(
  counts: Readonly<Record<ImportKind, ImportCount>>,
  which: keyof ImportCount,
): string {
  const parts = importKinds.flatMap((kind) => {
    const count = counts[kind][which];
    const [one, many] = kindWords[kind];
    return count === 0 ? [] : [`${count} ${count === 1 ? one : many}`];
  });
  if (parts.length === 0) return 'nothing';
  if (parts.length === 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}
