import { isDeviceId } from '../merge/hybrid-logical-clock.ts';
import type { LocalReadTransaction, LocalRows, LocalStore } from '../store/local-store.ts';
import type { StoredBill } from '../store/local-records.ts';
import type { BillLabel } from '../store/bill-label.ts';
import { BILL_LABEL_TITLE_MAX } from '../store/bill-label.ts';

// What every command on the user's bills (triage, tags, positions, annotations) is given, the
// error they refuse with, and the checks they share. Commands take their clock reading and new
// ids from here before their transaction opens: a transaction body may await only the store.

/**
 * The `device:` setting that holds the deck's undo history (triage-commands.ts). Here, with the
 * context, rather than beside the commands: the deck's screen watches it before it loads them.
 */
export const TRIAGE_UNDO_SETTING = 'device:triage-undo';

export interface BillCommandContext {
  readonly store: LocalStore;
  /** This device's id: the tie-breaker of its clock (hybrid-logical-clock.ts). */
  readonly deviceId: string;
  /** Wall-clock milliseconds: `Date.now` in the app, a fake in tests. */
  readonly now: () => number;
  /** A fresh id for a new tag or annotation: `randomIdSource(...)` in the app. */
  readonly newId: () => string;
}

export type BillCommandErrorCode =
  | 'unknown-bill'
  | 'unknown-tag'
  | 'unknown-annotation'
  | 'invalid-input'
  | 'duplicate-tag-name'
  | 'usage-changed';

/** A command refused for a reason the user can act on; nothing was written. */
export class BillCommandError extends Error {
  constructor(
    readonly code: BillCommandErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BillCommandError';
  }
}

const rowNouns = { tags: 'tag', annotations: 'annotation' } as const;

/** The tag or annotation a command names, or a refusal saying there is none (any more). */
export async function requireRow<T extends keyof typeof rowNouns>(
  tx: LocalReadTransaction,
  table: T,
  id: string,
): Promise<LocalRows[T]> {
  const row = await tx.get(table, id);
  if (!row) {
    const noun = rowNouns[table];
    throw new BillCommandError(
      `unknown-${noun}`,
      `There is no ${noun} ${JSON.stringify(id.slice(0, 120))}; it may have been deleted.`,
    );
  }
  return row;
}

/** The wall time of a command, read once so its rows and outbox entries agree. */
export function commandTime(context: BillCommandContext): { nowMs: number; at: string } {
  if (!isDeviceId(context.deviceId)) {
    throw new Error(`This device's id is not usable: ${JSON.stringify(context.deviceId)}.`);
  }
  const nowMs = context.now();
  if (!Number.isFinite(nowMs) || nowMs < 0) {
    throw new Error(`The wall clock reads ${nowMs}, which is not a usable time.`);
  }
  return { nowMs, at: new Date(nowMs).toISOString() };
}

/** A new row id from the context, checked: it is also a part of `billTags` ids. */
export function newRowId(context: BillCommandContext): string {
  const id = context.newId();
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) {
    throw new Error(
      `A new id must be 1 to 100 letters, digits, "_" or "-", not ${JSON.stringify(id)}.`,
    );
  }
  return id;
}

/**
 * Random version-4 UUIDs from a source of random bytes: in the app,
 * `(bytes) => crypto.getRandomValues(bytes)`. Passed in because core sees no platform.
 */
export function randomIdSource(fillRandom: (bytes: Uint8Array<ArrayBuffer>) => void): () => string {
  return () => {
    const bytes = new Uint8Array(16);
    fillRandom(bytes);
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** `#rrggbb`, stored in lower case so that equal colours compare equal. */
export function parseHexColour(value: string): string {
  const colour = value.trim();
  if (!/^#[0-9a-f]{6}$/i.test(colour)) {
    throw new BillCommandError(
      'invalid-input',
      `A colour is written #rrggbb, such as #1a7f37, not ${JSON.stringify(value.slice(0, 20))}.`,
    );
  }
  return colour.toLowerCase();
}

// Up to this many bills are looked up one by one; past it, reading every key is cheaper than
// reading every bill (with its texts) just to learn that it exists.
const LOOKUP_ONE_BY_ONE = 64;

/** What a row of the user's work keeps of its bill (local-records.ts, `billLabel`). */
export function billLabelOf(bill: Pick<StoredBill, 'identifier' | 'title'>): BillLabel {
  return { identifier: bill.identifier, title: bill.title.slice(0, BILL_LABEL_TITLE_MAX) };
}

/** `{ billLabel }` when there is one, else nothing: a row never carries an undefined field. */
export function withLabel(label: BillLabel | undefined): { billLabel?: BillLabel } {
  return label === undefined ? {} : { billLabel: label };
}

/**
 * Refuses, naming them, bill ids that are not in the store. Gives the labels of the bills it
 * looked up one by one (up to 64): past that it reads only keys, and gives none.
 */
export async function requireBills(
  tx: LocalReadTransaction,
  billIds: readonly string[],
): Promise<Map<string, BillLabel>> {
  let missing: string[];
  const labels = new Map<string, BillLabel>();
  if (billIds.length <= LOOKUP_ONE_BY_ONE) {
    const rows = await tx.getMany('bills', billIds);
    missing = billIds.filter((_, index) => rows[index] === undefined);
    for (const row of rows) if (row !== undefined) labels.set(row.id, billLabelOf(row));
  } else {
    const known = new Set(await tx.keys('bills'));
    missing = billIds.filter((id) => !known.has(id));
  }
  if (missing.length === 0) return labels;
  const named = missing
    .slice(0, 3)
    .map((id) => JSON.stringify(id.slice(0, 120)))
    .join(', ');
  throw new BillCommandError(
    'unknown-bill',
    missing.length === 1
      ? `There is no bill ${named} on this device.`
      : `${missing.length} of these bills are not on this device (${named}${missing.length > 3 ? ', …' : ''}).`,
  );
}

/** The distinct ids of a list, in their first order. */
export function distinct(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
