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

/** The rows the import writes, by table. */
interface ImportRows {
  bills: StoredBill;
  tags: Tag;
  billTags: BillTag;
  positions: Position;
  decisions: Decision;
  annotations: Annotation;
}
type PlannedWrites = { [K in ImportKind]: ImportRows[K][] };

export const importTables = [...importKinds, ...outboxTables, 'versionTexts'] as const;

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function sameAnnotation(a: Annotation, b: Annotation): boolean {
  return JSON.stringify(annotationSchema.parse(a)) === JSON.stringify(annotationSchema.parse(b));
}

/** What one row of the file does: nothing (the device has it as it is), or adds or changes one. */
type RowOutcome<Row> =
  | { readonly action: 'unchanged' }
  | { readonly action: 'add' | 'change'; readonly row: Row; readonly description: string };

const unchanged = { action: 'unchanged' } as const;

/** An addition where the device has no such row, else a change. */
const addOrChange = (before: unknown): 'add' | 'change' =>
  before === undefined ? 'add' : 'change';

/** What the tables' steps share: the file, its bills and the device's, and tags by name. */
interface ImportScope {
  readonly bundle: UserDataBundle;
  readonly newId: () => string;
  readonly at: string;
  /** The bills of the file the device already has. */
  readonly storedBillIds: ReadonlySet<string>;
  /** Each bill's number ("H.R. 1"): the device's, or the file's for a bill it adds. */
  readonly names: ReadonlyMap<string, string>;
  /** Each bill's title and texts (those fetched on this device too), where known. */
  readonly billsById: ReadonlyMap<string, Pick<StoredBill, 'title' | 'summary' | 'texts'>>;
  /** Tags by name (`tagNameKey`) and names by id: the device's, then those the file adds. */
  readonly tagIdByName: Map<string, string>;
  readonly tagNameById: Map<string, string>;
}

/** One table of the import: how each of its rows in the file compares with the device's. */
interface ImportTable<K extends ImportKind> {
  readonly kind: K;
  readonly plan: (
    tx: LocalReadTransaction,
    scope: ImportScope,
  ) => Promise<readonly RowOutcome<ImportRows[K]>[]>;
}

/** The bills the file names, the device's first; an annotated bill's fetched texts count too. */
async function readScope(
  tx: LocalReadTransaction,
  bundle: UserDataBundle,
  newId: () => string,
  at: string,
): Promise<ImportScope> {
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
  const storedBillIds = new Set(names.keys());
  for (const bill of bundle.bills) {
    if (!storedBillIds.has(bill.id)) names.set(bill.id, bill.identifier);
  }
  const tagIdByName = new Map<string, string>();
  const tagNameById = new Map<string, string>();
  return { bundle, newId, at, storedBillIds, names, billsById, tagIdByName, tagNameById };
}

const billName = (scope: ImportScope, id: string) => scope.names.get(id) ?? id;

/** A row with its bill's number and title (`billLabel`) when the file has none and the bill is
 *  known, as the commands write them: they name the bill should it leave the device. */
function labelled<
  Row extends { readonly billId: string; readonly billLabel?: BillLabel | undefined },
>(scope: ImportScope, row: Row): Row {
  const identifier = scope.names.get(row.billId);
  const title = scope.billsById.get(row.billId)?.title;
  if (row.billLabel !== undefined || identifier === undefined || title === undefined) return row;
  return { ...row, billLabel: billLabelOf({ identifier, title }) };
}

const billIds = (rows: readonly { readonly billId: string }[]) => rows.map((row) => row.billId);

/** Bills by id: the device keeps the bills it has, as its datasets made them. */
const billsTable: ImportTable<'bills'> = {
  kind: 'bills',
  plan: (_tx, scope) =>
    Promise.resolve(
      scope.bundle.bills.map((bill) =>
        scope.storedBillIds.has(bill.id)
          ? unchanged
          : {
              action: 'add',
              row: { ...bill, datasetIds: [] },
              description: `${bill.identifier}: ${clip(bill.title, 120)}`,
            },
      ),
    ),
};

/** Tags by name; a file's tag keeps its id unless the device uses it for another. */
const tagsTable: ImportTable<'tags'> = {
  kind: 'tags',
  plan: async (tx, scope) => {
    const existingTags = await tx.all('tags');
    for (const tag of existingTags) {
      scope.tagIdByName.set(tagNameKey(tag.name), tag.id);
      scope.tagNameById.set(tag.id, tag.name);
    }
    const takenIds = new Set(existingTags.map((tag) => tag.id));
    return scope.bundle.tags.map((tag) => {
      const key = tagNameKey(tag.name);
      if (scope.tagIdByName.has(key)) return unchanged;
      const id = tag.id !== null && !takenIds.has(tag.id) ? tag.id : scope.newId();
      takenIds.add(id);
      scope.tagIdByName.set(key, id);
      const createdAt = tag.createdAt ?? scope.at;
      const row = tagSchema.parse({
        id,
        name: tag.name,
        color: tag.color,
        createdAt,
        updatedAt: tag.updatedAt ?? createdAt,
      });
      scope.tagNameById.set(row.id, row.name);
      return { action: 'add', row, description: `Tag "${tag.name}"` };
    });
  },
};

/** Tags on bills, by the tag's name; one per bill and tag. */
const billTagsTable: ImportTable<'billTags'> = {
  kind: 'billTags',
  plan: async (tx, scope) => {
    const assignments = new Map<string, BillTag>();
    for (const row of scope.bundle.billTags) {
      const tagId = scope.tagIdByName.get(tagNameKey(row.tagName));
      if (tagId === undefined) continue;
      const id = `${row.billId}|${tagId}`;
      if (!assignments.has(id)) {
        assignments.set(id, {
          id,
          billId: row.billId,
          tagId,
          createdAt: row.createdAt ?? scope.at,
        });
      }
    }
    const stored = await tx.getMany('billTags', [...assignments.keys()]);
    return [...assignments.values()].map((row, index) => {
      if (stored[index] !== undefined) return unchanged;
      const tagName = scope.tagNameById.get(row.tagId) ?? row.tagId;
      return {
        action: 'add',
        row: billTagSchema.parse(labelled(scope, row)),
        description: `${billName(scope, row.billId)}: tagged "${tagName}"`,
      };
    });
  },
};

/** Positions, one per bill, with their reasons. */
const positionsTable: ImportTable<'positions'> = {
  kind: 'positions',
  plan: async (tx, scope) => {
    const stored = await tx.getMany('positions', billIds(scope.bundle.positions));
    return scope.bundle.positions.map((file, index) => {
      const before = stored[index];
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
        return unchanged;
      }
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
      return {
        action: addOrChange(before),
        row: labelled(scope, row),
        description: `${billName(scope, row.billId)}: ${said.join('; ')}`,
      };
    });
  },
};

/** Triage decisions, one per bill: "H.R. 1: Later → Track". */
const decisionsTable: ImportTable<'decisions'> = {
  kind: 'decisions',
  plan: async (tx, scope) => {
    const rows = scope.bundle.decisions.map((row) => labelled(scope, row));
    const stored = await tx.getMany('decisions', billIds(scope.bundle.decisions));
    return rows.map((row, index) => {
      const before = stored[index];
      if (before !== undefined && before.decision === row.decision) return unchanged;
      const was = before === undefined ? '' : `${capitalised(before.decision)} → `;
      return {
        action: addOrChange(before),
        row,
        description: `${billName(scope, row.billId)}: ${was}${capitalised(row.decision)}`,
      };
    });
  },
};

/** Highlights and notes by id; a row without one gets a new id, so it is always added. */
const annotationsTable: ImportTable<'annotations'> = {
  kind: 'annotations',
  plan: async (tx, scope) => {
    // The file counts positions in code points; the rows count UTF-16 in the text they are on.
    const textOf = (row: { billId: string; target: string }) => {
      const bill = scope.billsById.get(row.billId);
      return bill === undefined ? null : annotationTargetText(bill, row.target);
    };
    const withIds = scope.bundle.annotations.map((row) => ({
      ...row,
      id: row.id ?? scope.newId(),
      position: positionInUtf16(textOf(row), row.position),
    }));
    const stored = await tx.getMany(
      'annotations',
      withIds.map((row) => row.id),
    );
    return withIds.map((row, index) => {
      const before = stored[index];
      if (before !== undefined && sameAnnotation(before, row)) return unchanged;
      const quote = clip(row.quote.exact.replace(/\s+/g, ' '), 60);
      return {
        action: addOrChange(before),
        row: annotationSchema.parse(labelled(scope, row)),
        description: `${billName(scope, row.billId)}: note on "${quote}"`,
      };
    });
  },
};

/** Each kind's table, walked in the order of `importKinds`: tags before the tags on bills. */
const tablesByKind: { readonly [K in ImportKind]: ImportTable<K> } = {
  bills: billsTable,
  tags: tagsTable,
  billTags: billTagsTable,
  positions: positionsTable,
  decisions: decisionsTable,
  annotations: annotationsTable,
};

interface Planned {
  readonly counts: Record<ImportKind, ImportCount>;
  readonly changes: ImportChange[];
  readonly writes: PlannedWrites;
}

async function planTable<K extends ImportKind>(
  table: ImportTable<K>,
  tx: LocalReadTransaction,
  scope: ImportScope,
  planned: Planned,
): Promise<void> {
  const count = planned.counts[table.kind];
  const written: ImportRows[K][] = planned.writes[table.kind];
  for (const outcome of await table.plan(tx, scope)) {
    if (outcome.action === 'unchanged') {
      count.unchanged++;
      continue;
    }
    written.push(outcome.row);
    count[outcome.action === 'add' ? 'added' : 'changed']++;
    planned.changes.push({
      kind: table.kind,
      action: outcome.action,
      description: outcome.description,
    });
  }
}

async function plan(
  tx: LocalReadTransaction,
  bundle: UserDataBundle,
  newId: () => string,
  at: string,
): Promise<{ plan: UserDataImportPlan; writes: PlannedWrites }> {
  const planned: Planned = {
    counts: Object.fromEntries(
      importKinds.map((kind) => [kind, { added: 0, changed: 0, unchanged: 0 }]),
    ) as Record<ImportKind, ImportCount>,
    changes: [],
    writes: {
      bills: [],
      tags: [],
      billTags: [],
      positions: [],
      decisions: [],
      annotations: [],
    },
  };
  const scope = await readScope(tx, bundle, newId, at);
  for (const kind of importKinds) await planTable(tablesByKind[kind], tx, scope, planned);
  const { counts, changes, writes } = planned;
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
