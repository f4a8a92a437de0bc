import { decodeHlc } from '../merge/hybrid-logical-clock.ts';
import { OutboxWriter, outboxTables } from '../merge/outbox-changes.ts';
import type { Overwrite } from '../merge/sync-merge.ts';
import type { BillHistory } from '../store/local-records.ts';
import type { LocalWriteTransaction, TableName } from '../store/local-store.ts';

// A bill's History (issue 37): when a change from another device overwrites a value this device
// set (a position or its Why, a note, a decision, a tag's name), the earlier value is kept, with
// what it became, when and on which device. Two devices (two members of a workspace) that write
// the same field at about the same time both record it (issue 39): the one whose value lost, as
// above, and the one whose newer value won, when the older one arrives after it; the entry is the
// same (its id names the value that lost), and each device marks it unseen, so both are told. The merge finds the overwrites (sync-merge.ts's
// `overwritten`, asked for with this device's id); the pull records them here in its own
// transaction, through OutboxWriter, so the entries sync end-to-end encrypted like every row and
// every device shows them. An entry's id names the overwritten value (table, row, field and its
// clock), so the same overwrite seen twice is one entry. Each bill keeps its newest
// HISTORY_PER_BILL entries (a tag's name, which belongs to no one bill, its own newest as many);
// older ones are deleted, and the deletes sync too. The device whose value it was marks the entry
// unseen (a field of this device's own): the bill says "Changed on another device" until opened;
// the screens read and mark them through lists/bill-history-reads.ts.

export const HISTORY_PER_BILL = 50;

/** What recording overwrites writes. */
export const BILL_HISTORY_TABLES = [
  'billHistory',
  ...outboxTables,
] as const satisfies readonly TableName[];

function billIdOf(overwrite: Overwrite): string | null {
  switch (overwrite.table) {
    case 'positions':
    case 'decisions':
      return overwrite.rowId;
    case 'annotations': {
      const billId = (overwrite.row as { billId?: unknown } | undefined)?.billId;
      return typeof billId === 'string' ? billId : null;
    }
    default:
      return null;
  }
}

/** The entry an overwrite makes, or null for a table History does not keep. */
export function historyEntryOf(overwrite: Overwrite): BillHistory | null {
  const table = overwrite.table;
  if (
    table !== 'positions' &&
    table !== 'annotations' &&
    table !== 'decisions' &&
    table !== 'tags'
  ) {
    return null;
  }
  const by = decodeHlc(overwrite.after.hlc);
  const of = decodeHlc(overwrite.before.hlc);
  return {
    id: `${table}|${overwrite.rowId}|${overwrite.field}|${overwrite.before.hlc}`,
    billId: billIdOf(overwrite),
    table,
    rowId: overwrite.rowId,
    field: overwrite.field,
    before: overwrite.before.value,
    after: overwrite.after.value,
    at: new Date(by.millis).toISOString(),
    byDevice: by.deviceId,
    ofDevice: of.deviceId,
    unseen: true,
  };
}

/**
 * Records the overwrites as History entries, inside the pull's write transaction (which must
 * cover BILL_HISTORY_TABLES), and keeps each bill's newest HISTORY_PER_BILL. Returns how many
 * entries were added.
 */
export async function recordOverwrites(
  tx: LocalWriteTransaction,
  overwrites: readonly Overwrite[],
  options: { readonly deviceId: string; readonly nowMs: number },
): Promise<number> {
  const entries = overwrites
    .map((overwrite) => historyEntryOf(overwrite))
    .filter((entry): entry is BillHistory => entry !== null);
  if (entries.length === 0) return 0;
  const held = await tx.getMany(
    'billHistory',
    entries.map((entry) => entry.id),
  );
  const fresh = entries.filter((_, index) => held[index] === undefined);
  if (fresh.length === 0) return 0;
  const out = await OutboxWriter.open(tx, options.deviceId, options.nowMs);
  await out.putMany(
    'billHistory',
    fresh.map((row) => ({ row })),
  );
  const gone: string[] = [];
  for (const group of new Set(fresh.map((entry) => entry.billId ?? `tag:${entry.rowId}`))) {
    const rows = group.startsWith('tag:')
      ? await tx.where('billHistory', 'rowId', group.slice(4))
      : await tx.where('billHistory', 'billId', group);
    const kept = rows
      .filter((row) => (row.billId ?? `tag:${row.rowId}`) === group)
      .sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at < b.at ? -1 : 1));
    gone.push(...kept.slice(0, Math.max(0, kept.length - HISTORY_PER_BILL)).map((row) => row.id));
  }
  if (gone.length > 0) await out.deleteMany('billHistory', gone);
  await out.close();
  return fresh.length;
}
