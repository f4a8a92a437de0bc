import type { Hlc } from './hybrid-logical-clock.ts';
import { decodeHlc, encodeHlc, isEncodedHlc, tick, zeroHlc } from './hybrid-logical-clock.ts';
import {
  syncedTables,
  type OutboxEntry,
  type SyncedTable,
  type SyncState,
} from '../store/local-records.ts';
import {
  initialSyncState,
  isSyncedField,
  mergeChange,
  syncStateId,
  type RowChange,
} from './sync-merge.ts';
import type {
  LocalReadTransaction,
  LocalRows,
  LocalWriteTransaction,
  TableName,
} from '../store/local-store.ts';
import { localTables } from '../store/local-store.ts';

// The outbox: every change the user makes, written in the same transaction as the row it
// changes, and kept until the server acknowledges it. This file is the contract between the
// commands that write it (triage-, tag-, position- and annotation-commands.ts) and the sync
// engine that ships and merges it.
//
// ## One entry per changed row
//
//   {
//     id:        "001736942400000-0003-phone7"   the change's hybrid-logical-clock timestamp
//                                                (hybrid-logical-clock.ts), which ends in the
//                                                device id: unique per device, and the outbox's
//                                                key order is the order the changes were made
//     table:     "tags" | "billTags" | "positions" | "decisions" | "annotations"
//     rowId:     the row's key in that table (tag id, `${billId}|${tagId}`, bill id, …)
//     op:        "put" | "delete"
//     fields:    put:    { [field]: { value, hlc } }   the fields this change set, each with the
//                                                      timestamp that set it (here always `id`)
//                delete: null                         the row is gone as of `id`
//     createdAt: "2025-01-15T12:00:00.000Z"       wall time, for people and the trace only
//   }
//
// ## What the sync engine can rely on
//
// - Merging is last-writer-wins per field: a field's value is the one with the greatest `hlc`;
//   equal clocks cannot happen between devices, since the device id is part of the clock.
//   Each field carries its own clock so that several entries of one row can be folded into one
//   message without losing which change set which field.
// - A put that creates a row (or brings one back after a delete) carries every field of the
//   row except its key, so a device that holds no such row can build it from the put alone.
//   A put that edits a row carries only what changed (and `updatedAt`).
// - A delete is a tombstone at `id`'s clock: a field written with an older clock does not bring
//   the row back. Ids of rows that are made again (a bill tagged, untagged and tagged again) are
//   derived from what they join, so the newest of put and delete wins on every device.
// - Entries are written in causal order: each has a greater clock than every entry this device
//   wrote or received before it, including across tabs (the clock lives in the store, below).
// - Only the rows the user makes are in the outbox; `bills` are rebuilt from datasets.
//
// ## The device clock
//
// The newest timestamp this device made or received is kept in `settings` under
// `device:clock` and advanced inside each command's transaction. A clock held in memory would
// not do: two tabs of one device would hand out the same timestamp twice, and one entry would
// overwrite the other. Settings under the `device:` prefix belong to this device and never sync.

export { syncedTables, type SyncedTable };

/** One field of a put: its new value and the timestamp that set it. */
export interface OutboxField {
  value: unknown;
  hlc: string;
}

/**
 * The fields of an entry, checked: null for a delete; throws on anything not in this format
 * (an entry from a build that wrote another one must not be merged by guesswork).
 */
export function outboxFields(entry: OutboxEntry): Record<string, OutboxField> | null {
  if (entry.op === 'delete') {
    if (entry.fields !== null) throw new Error(`Outbox entry ${entry.id}: a delete with fields`);
    return null;
  }
  if (entry.fields === null) throw new Error(`Outbox entry ${entry.id}: a put without fields`);
  const fields: Record<string, OutboxField> = {};
  for (const [name, field] of Object.entries(entry.fields)) {
    const hlc = (field as { hlc?: unknown } | null)?.hlc;
    if (typeof field !== 'object' || field === null || !('value' in field)) {
      throw new Error(`Outbox entry ${entry.id}: field ${name} has no value`);
    }
    if (typeof hlc !== 'string' || !isEncodedHlc(hlc)) {
      throw new Error(`Outbox entry ${entry.id}: field ${name} has no clock`);
    }
    fields[name] = { value: field.value, hlc };
  }
  return fields;
}

/** The settings key of this device's clock. */
export const DEVICE_CLOCK_SETTING = 'device:clock';

/** The tables a command's transaction needs besides its own rows: outbox, clock, sync states. */
export const outboxTables = [
  'outbox',
  'settings',
  'syncState',
] as const satisfies readonly TableName[];

/**
 * This device's newest timestamp, from the store. A missing or unreadable value starts from
 * zero: the next tick then takes the wall time, which is right unless the wall clock went
 * backwards since, and refusing every edit forever would be worse.
 */
export async function readDeviceClock(tx: LocalReadTransaction, deviceId: string): Promise<Hlc> {
  const fresh = zeroHlc(deviceId);
  const stored = (await tx.get('settings', DEVICE_CLOCK_SETTING))?.value;
  if (typeof stored !== 'string' || !isEncodedHlc(stored)) return fresh;
  const { millis, counter } = decodeHlc(stored);
  // The stored clock may carry another device id (a reset gives a device a new one); only its
  // place in time matters.
  return { ...fresh, millis, counter };
}

export async function saveDeviceClock(tx: LocalWriteTransaction, clock: Hlc): Promise<void> {
  await tx.put('settings', { key: DEVICE_CLOCK_SETTING, value: encodeHlc(clock) });
}

type FieldOf<N extends SyncedTable> = Extract<keyof LocalRows[N], string>;

/** A row to put and, for an edit, the fields that changed; none listed means every field. */
export interface OutboxPut<N extends SyncedTable> {
  row: LocalRows[N];
  changed?: readonly FieldOf<N>[];
}

function keyOf<N extends SyncedTable>(table: N, row: LocalRows[N]): string {
  const key = (row as Record<string, unknown>)[localTables[table].key];
  if (typeof key !== 'string') throw new Error(`${table}: a row without its key`);
  return key;
}

/**
 * Writes rows and their outbox entries within one write transaction, timestamping each entry
 * with the device clock. Open it inside the transaction, call `close` before the body returns.
 */
export class OutboxWriter {
  private clock: Hlc;
  private changes = 0;

  private constructor(
    private readonly tx: LocalWriteTransaction,
    start: Hlc,
    private readonly nowMs: number,
    private readonly createdAt: string,
  ) {
    this.clock = start;
  }

  /** `nowMs` is read by the caller before the transaction, like every other non-store input. */
  static async open(
    tx: LocalWriteTransaction,
    deviceId: string,
    nowMs: number,
  ): Promise<OutboxWriter> {
    const start = await readDeviceClock(tx, deviceId);
    return new OutboxWriter(tx, start, nowMs, new Date(nowMs).toISOString());
  }

  /** How many rows this transaction changed so far (= entries written). */
  get changeCount(): number {
    return this.changes;
  }

  private nextStamp(): string {
    this.clock = tick(this.clock, this.nowMs);
    this.changes++;
    return encodeHlc(this.clock);
  }

  private entryFor<N extends SyncedTable>(table: N, { row, changed }: OutboxPut<N>): OutboxEntry {
    const hlc = this.nextStamp();
    const rowId = keyOf(table, row);
    const values = row as Record<string, unknown>;
    const names = (
      changed ?? Object.keys(values).filter((name) => name !== localTables[table].key)
    ).filter((name) => isSyncedField(table, name));
    const fields: Record<string, OutboxField> = {};
    for (const name of names) fields[name] = { value: values[name], hlc };
    return { id: hlc, table, rowId, op: 'put', fields, createdAt: this.createdAt };
  }

  async put<N extends SyncedTable>(table: N, change: OutboxPut<N>): Promise<void> {
    await this.putMany(table, [change]);
  }

  async putMany<N extends SyncedTable>(table: N, changes: readonly OutboxPut<N>[]): Promise<void> {
    if (changes.length === 0) return;
    const entries = changes.map((change) => this.entryFor(table, change));
    await this.tx.putMany(
      table,
      changes.map((change) => change.row),
    );
    await this.tx.putMany('outbox', entries);
    await this.recordStates(
      table,
      entries,
      changes.map((change) => change.row),
    );
  }

  async delete(table: SyncedTable, rowId: string): Promise<void> {
    await this.deleteMany(table, [rowId]);
  }

  async deleteMany(table: SyncedTable, rowIds: readonly string[]): Promise<void> {
    if (rowIds.length === 0) return;
    const entries: OutboxEntry[] = rowIds.map((rowId) => ({
      id: this.nextStamp(),
      table,
      rowId,
      op: 'delete',
      fields: null,
      createdAt: this.createdAt,
    }));
    await this.tx.deleteMany(table, rowIds);
    await this.tx.putMany('outbox', entries);
    await this.recordStates(table, entries, []);
  }

  /**
   * Merges this transaction's changes into the rows' sync states (sync-merge.ts), so that a
   * change pulled later is weighed against them. A row without a state yet starts from the row
   * as the command wrote it, at the zero clock; the change then stamps what it set.
   */
  private async recordStates<N extends SyncedTable>(
    table: N,
    entries: readonly OutboxEntry[],
    rowsAfter: readonly LocalRows[N][],
  ): Promise<void> {
    const ids = entries.map((entry) => syncStateId(table, entry.rowId));
    const stored = await this.tx.getMany('syncState', ids);
    const next: SyncState[] = [];
    entries.forEach((entry, index) => {
      const base = stored[index] ?? initialSyncState(table, entry.rowId, rowsAfter[index]);
      const change: RowChange = {
        id: entry.id,
        table,
        rowId: entry.rowId,
        op: entry.op,
        fields: outboxFields(entry),
      };
      next.push(mergeChange(base, change) ?? base);
    });
    await this.tx.putMany('syncState', next);
  }

  /** Saves the advanced clock; a transaction that changed nothing leaves it alone. */
  async close(): Promise<void> {
    if (this.changes > 0) await saveDeviceClock(this.tx, this.clock);
  }
}
