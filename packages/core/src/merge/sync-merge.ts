import { z } from 'zod';
import { canonicalJson } from '../bills/canonical-hash.ts';
import { DATASET_REMOVAL_TABLES, removeDatasetHere } from '../import-jobs/dataset-removal.ts';
import { isEncodedHlc } from './hybrid-logical-clock.ts';
import type { datasetLocalFields } from '../store/local-records.ts';
import {
  annotationSchema,
  apiKeySchema,
  seenMarkSchema,
  billHistorySchema,
  billTagSchema,
  datasetSchema,
  decisionSchema,
  positionSchema,
  syncedTables,
  tagSchema,
  type SyncedTable,
  type SyncState,
} from '../store/local-records.ts';
import type { LocalRows, LocalWriteTransaction, TableName } from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';

// Merging changes into rows: last-writer-wins per field, for changes made here (outbox-changes.ts
// writes them) and changes pulled from other devices (sync/sync-engine.ts) alike.
//
// Each synced row has a sync state (table `syncState`): per field the newest value and the clock
// that set it, and the clock of the newest delete. Merging a change keeps, per field, the value
// with the greater clock, and the greater delete clock; a field set before the newest delete is
// dropped. That is a join: the result does not depend on the order changes arrive in, nor on how
// often each arrives, so every device that has seen the same changes holds the same states.
//
// The row the screens read is what the state makes: its fields (those set after the delete),
// when they make a whole valid row; otherwise there is no row. So a tag deleted on one device
// while renamed on another stays deleted everywhere (the rename alone is not a whole tag), and a
// tag made again after a delete (a put carrying every field) is back everywhere.
//
// Rows stored before sync existed have no state; their fields count as set at the zero clock,
// older than any change.

/** The clock of fields known only from a row stored before sync: older than every timestamp. */
export const ZERO_CLOCK = '';

/** One change to one row, as the outbox holds it and as it travels (without `createdAt`). */
export interface RowChange {
  /** The change's clock (an encoded HLC). */
  readonly id: string;
  readonly table: SyncedTable;
  readonly rowId: string;
  readonly op: 'put' | 'delete';
  /** Put: each field's value and the clock that set it. Delete: null. */
  readonly fields: Readonly<
    Record<string, { readonly value: unknown; readonly hlc: string }>
  > | null;
}

const rowSchemas: { [N in SyncedTable]: z.ZodType<LocalRows[N]> } = {
  datasets: datasetSchema,
  tags: tagSchema,
  billTags: billTagSchema,
  positions: positionSchema,
  decisions: decisionSchema,
  annotations: annotationSchema,
  seenMarks: seenMarkSchema,
  apiKeys: apiKeySchema,
  billHistory: billHistorySchema,
};

/**
 * Fields of a synced table that stay on the device: sync neither sends nor sets them, and a row
 * that sync makes here starts them at these values (a dataset's import state is this device's).
 */
const localFieldDefaults: { readonly [N in SyncedTable]?: Readonly<Record<string, unknown>> } = {
  datasets: {
    format: null,
    billCount: 0,
    lastImportAt: null,
    lastJobId: null,
    state: 'new',
    needsImport: undefined,
    filesUnavailable: undefined,
    sourceEtag: undefined,
    sourceLastModified: undefined,
    sourceHash: undefined,
    sourceUpdatedSince: undefined,
  } satisfies Record<(typeof datasetLocalFields)[number], unknown>,
  // Whether the user has seen an overwrite is this device's: one that arrives by sync was not
  // this device's value, so there is nothing here to be told.
  billHistory: { unseen: undefined },
};

/** Whether a field of a synced table's rows syncs (the key field aside). */
export function isSyncedField(table: SyncedTable, name: string): boolean {
  const local = localFieldDefaults[table];
  return local === undefined || !Object.hasOwn(local, name);
}

/** A field name a change may set: the row schemas' own names, never `__proto__` and the like. */
const FIELD_NAME = /^[a-z][A-Za-z0-9]{0,63}$/;

const hlcSchema = z.string().refine(isEncodedHlc, { message: 'must be a clock timestamp' });

/** A change as it arrives from another device; checked before anything is merged. */
export const rowChangeSchema = z
  .strictObject({
    id: hlcSchema,
    table: z.enum(syncedTables),
    rowId: z.string().min(1).max(200),
    op: z.enum(['put', 'delete']),
    fields: z
      .record(
        z.string().regex(FIELD_NAME, 'must be a field name'),
        z.strictObject({ value: z.unknown(), hlc: hlcSchema }),
      )
      .nullable(),
  })
  .superRefine((change, context) => {
    if ((change.op === 'delete') !== (change.fields === null)) {
      context.addIssue({ code: 'custom', message: 'a delete has no fields; a put has some' });
      return;
    }
    const key = localTables[change.table].key;
    if (change.fields !== null && key in change.fields) {
      context.addIssue({ code: 'custom', message: `a put may not set the key field ${key}` });
    }
    for (const name of Object.keys(change.fields ?? {})) {
      if (!isSyncedField(change.table, name)) {
        context.addIssue({ code: 'custom', message: `${name} of ${change.table} does not sync` });
      }
    }
  });

export function syncStateId(table: SyncedTable, rowId: string): string {
  return `${table}|${rowId}`;
}

/** The state of a row that has none yet: the stored row's fields (if any) at the zero clock. */
export function initialSyncState<N extends SyncedTable>(
  table: N,
  rowId: string,
  row: LocalRows[N] | undefined,
): SyncState {
  const fields: SyncState['fields'] = {};
  if (row !== undefined) {
    const key = localTables[table].key;
    for (const [name, value] of Object.entries(row as Record<string, unknown>)) {
      if (name !== key && isSyncedField(table, name)) fields[name] = { value, hlc: ZERO_CLOCK };
    }
  }
  return { id: syncStateId(table, rowId), table, rowId, fields, deletedAt: null };
}

/** The state after one change, or null when the change adds nothing (older, or seen before). */
export function mergeChange(state: SyncState, change: RowChange): SyncState | null {
  if (change.op === 'delete') {
    if (state.deletedAt !== null && change.id <= state.deletedAt) return null;
    const fields: SyncState['fields'] = {};
    for (const [name, field] of Object.entries(state.fields)) {
      if (field.hlc > change.id) fields[name] = field;
    }
    return { ...state, fields, deletedAt: change.id };
  }
  let fields: SyncState['fields'] | null = null;
  for (const [name, field] of Object.entries(change.fields ?? {})) {
    if (state.deletedAt !== null && field.hlc <= state.deletedAt) continue;
    const current = Object.hasOwn(state.fields, name) ? state.fields[name] : undefined;
    if (current !== undefined && field.hlc <= current.hlc) continue;
    fields ??= { ...state.fields };
    fields[name] = { value: field.value, hlc: field.hlc };
  }
  return fields === null ? null : { ...state, fields };
}

/**
 * The row a state makes, or undefined when its fields are not a whole valid row. Fields that stay
 * on the device come from `stored` (the row as this device holds it), or start afresh.
 */
export function rowOfState<N extends SyncedTable>(
  table: N,
  state: SyncState,
  stored?: LocalRows[N],
): LocalRows[N] | undefined {
  const names = Object.keys(state.fields).filter((name) => isSyncedField(table, name));
  if (names.length === 0) return undefined;
  const candidate: Record<string, unknown> = { [localTables[table].key]: state.rowId };
  const local = localFieldDefaults[table];
  if (local !== undefined) {
    const kept = stored as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(local)) {
      const own = kept === undefined ? value : kept[name];
      if (own !== undefined) candidate[name] = own;
    }
  }
  for (const name of names) candidate[name] = state.fields[name]?.value;
  const parsed = (rowSchemas[table] as z.ZodType<LocalRows[N]>).safeParse(candidate);
  if (!parsed.success) return undefined;
  // A bill's tag is keyed by what it joins; a row that says otherwise is not one.
  if (table === 'billTags') {
    const billTag = parsed.data as LocalRows['billTags'];
    if (billTag.id !== `${billTag.billId}|${billTag.tagId}`) return undefined;
  }
  return parsed.data;
}

function sameRow(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b));
}

/**
 * A value that replaced another of the same field, one of the two this device's: a change from
 * another device replaced this device's value, or this device's newer value replaced one that
 * arrived from another device, written at about the same time.
 */
export interface Overwrite {
  readonly table: SyncedTable;
  readonly rowId: string;
  readonly field: string;
  readonly before: { readonly value: unknown; readonly hlc: string };
  readonly after: { readonly value: unknown; readonly hlc: string };
  /** The row as it stands after the merge (its bill), undefined when it is gone. */
  readonly row: LocalRows[SyncedTable] | undefined;
}

/** What applying changes did, for the trace and the screens. */
export interface MergeOutcome {
  /** Changes that moved a state (the rest were older or seen before). */
  readonly merged: number;
  /** Rows written or removed as a result. */
  readonly rowsChanged: number;
  /**
   * Values of this device's that changes from others replaced, and values from others that lost
   * to this device's newer ones (asked for with `deviceId`).
   */
  readonly overwritten: readonly Overwrite[];
}

/** Which fields' overwrites a bill's History keeps (sync/bill-history.ts). */
export const HISTORY_FIELDS: { readonly [T in SyncedTable]?: readonly string[] } = {
  positions: ['position', 'reason'],
  annotations: ['note'],
  decisions: ['decision'],
  tags: ['name'],
};

/** The device an encoded clock names (its last part), or null when it is not one. */
function deviceOfClock(hlc: string): string | null {
  // `001736899200000-002a-phone7`: the device id follows the second dash, at a fixed place.
  return isEncodedHlc(hlc) ? hlc.slice(21) : null;
}

/** The tables a merge writes: the synced ones, their states, and what a dataset's removal takes. */
export const MERGE_TABLES = [
  ...syncedTables,
  'syncState',
  ...DATASET_REMOVAL_TABLES,
] as const satisfies readonly TableName[];

/**
 * Merges changes into the states and rows of their tables, inside a write transaction over
 * MERGE_TABLES. Reads every touched state and row once per table, writes each
 * once: a page of a thousand changes is a handful of bulk calls.
 */
export async function mergeChanges(
  tx: LocalWriteTransaction,
  changes: readonly RowChange[],
  options: { readonly deviceId?: string } = {},
): Promise<MergeOutcome> {
  let merged = 0;
  let rowsChanged = 0;
  const overwritten: Overwrite[] = [];
  for (const table of syncedTables) {
    const ofTable = changes.filter((change) => change.table === table);
    if (ofTable.length === 0) continue;
    const outcome = await mergeIntoTable(tx, table, ofTable, options.deviceId);
    merged += outcome.merged;
    rowsChanged += outcome.rowsChanged;
    overwritten.push(...outcome.overwritten);
  }
  return { merged, rowsChanged, overwritten };
}

/**
 * The values that `change` and `state` hold for the same field, one of them `deviceId`'s and the
 * other another device's, with which replaced which: a newer value from elsewhere replaces this
 * device's; an older one from elsewhere, arriving after this device wrote its own, lost to it
 * (the two were written at about the same time, neither seeing the other). The device that lost
 * finds the first, the one that won the second: the same replacement, so both are told of it.
 */
function overwritesOf(
  state: SyncState,
  change: RowChange,
  fields: readonly string[],
  deviceId: string,
): { field: string; before: Overwrite['before']; after: Overwrite['after'] }[] {
  const found = [];
  for (const field of fields) {
    const incoming = change.fields?.[field];
    const current = Object.hasOwn(state.fields, field) ? state.fields[field] : undefined;
    if (incoming === undefined || current === undefined || incoming.hlc === current.hlc) continue;
    if (deviceOfClock(current.hlc) !== deviceId || deviceOfClock(incoming.hlc) === deviceId) {
      continue;
    }
    if (sameRow(incoming.value, current.value)) continue;
    found.push(
      incoming.hlc > current.hlc
        ? { field, before: current, after: incoming }
        : { field, before: incoming, after: current },
    );
  }
  return found;
}

/**
 * Merges each change, in order, into its row's state in `states`. Gives the rows whose states
 * moved, how many changes moved one, and the overwrites of History's fields met on the way (looked
 * for only with `deviceId`).
 */
function mergeIntoStates(
  table: SyncedTable,
  changes: readonly RowChange[],
  states: Map<string, SyncState>,
  deviceId: string | undefined,
): { moved: Set<string>; merged: number; found: Omit<Overwrite, 'row'>[] } {
  const moved = new Set<string>();
  let merged = 0;
  const historyFields = deviceId === undefined ? undefined : HISTORY_FIELDS[table];
  const found: Omit<Overwrite, 'row'>[] = [];
  for (const change of changes) {
    const state = states.get(change.rowId);
    if (state === undefined) continue;
    if (historyFields !== undefined && deviceId !== undefined && change.op === 'put') {
      for (const overwrite of overwritesOf(state, change, historyFields, deviceId)) {
        found.push({ table, rowId: change.rowId, ...overwrite });
      }
    }
    const next = mergeChange(state, change);
    if (next === null) continue;
    states.set(change.rowId, next);
    moved.add(change.rowId);
    merged++;
  }
  return { moved, merged, found };
}

async function mergeIntoTable(
  tx: LocalWriteTransaction,
  table: SyncedTable,
  changes: readonly RowChange[],
  deviceId?: string,
): Promise<MergeOutcome> {
  type Row = LocalRows[SyncedTable];
  const rowIds = [...new Set(changes.map((change) => change.rowId))];
  const [stored, rows] = await Promise.all([
    tx.getMany(
      'syncState',
      rowIds.map((rowId) => syncStateId(table, rowId)),
    ),
    tx.getMany(table, rowIds),
  ]);
  const states = new Map<string, SyncState>();
  const before = new Map<string, Row | undefined>();
  rowIds.forEach((rowId, index) => {
    const row = rows[index];
    before.set(rowId, row);
    states.set(rowId, stored[index] ?? initialSyncState(table, rowId, row));
  });

  const { moved, merged, found } = mergeIntoStates(table, changes, states, deviceId);
  if (moved.size === 0) {
    // Only older values arrived: any of them that lost to this device's is still news here.
    const overwritten = found.map((overwrite) => ({
      ...overwrite,
      row: before.get(overwrite.rowId),
    }));
    return { merged: 0, rowsChanged: 0, overwritten };
  }

  const puts: Row[] = [];
  const deletes: string[] = [];
  const movedStates: SyncState[] = [];
  for (const rowId of moved) {
    const state = states.get(rowId);
    if (state === undefined) continue;
    movedStates.push(state);
    const old = before.get(rowId);
    let row = rowOfState(table, state, old);
    if (table === 'datasets' && row !== undefined) {
      row = markForImport(row as LocalRows['datasets'], old as LocalRows['datasets'] | undefined);
    }
    if (sameRow(row, old)) continue;
    if (row === undefined) {
      deletes.push(rowId);
      // A dataset deleted on another device takes what it brought here with it.
      if (table === 'datasets' && old !== undefined) {
        await removeDatasetHere(tx, old as LocalRows['datasets']);
      }
    } else puts.push(row);
  }
  await tx.putMany('syncState', movedStates);
  if (puts.length > 0) await tx.putMany(table, puts);
  if (deletes.length > 0) await tx.deleteMany(table, deletes);
  const key = localTables[table].key;
  const after = new Map(puts.map((row) => [String((row as Record<string, unknown>)[key]), row]));
  const overwritten = found.map((overwrite) => ({
    ...overwrite,
    row: after.get(overwrite.rowId) ?? before.get(overwrite.rowId),
  }));
  return { merged, rowsChanged: puts.length + deletes.length, overwritten };
}

/**
 * A dataset whose bills this device must import (again): new here, or now read from other files,
 * another URL or with other overrides. Its import clears the mark (dataset-sync-import.ts).
 */
function markForImport(
  row: LocalRows['datasets'],
  old: LocalRows['datasets'] | undefined,
): LocalRows['datasets'] {
  const changed =
    old === undefined ||
    !sameRow(row.origin, old.origin) ||
    row.jurisdiction !== old.jurisdiction ||
    row.session !== old.session;
  return changed ? { ...row, needsImport: true } : row;
}
