import type { SyncChange } from '@docket/protocol/sync-changes';
import { decodeHlc, isEncodedHlc } from '../merge/hybrid-logical-clock.ts';
import { syncStateId, type RowChange } from '../merge/sync-merge.ts';
import type { SyncedTable } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalWriteTransaction } from '../store/local-store.ts';
import { SyncEngineError } from './sync-errors.ts';

// Who wrote what in a team workspace (issue 39). Every clock a device stamps names the device
// (hybrid-logical-clock.ts), and every field of a synced row keeps the clock that set it
// (sync-merge.ts's sync state). A workspace's log says which member pushed each change, and the
// seal binds the change to that member (sync-envelopes.ts), so the server cannot move a change to
// another member. This file joins the two: as a workspace's changes are pulled, each device is
// recorded as its member's (a device-local setting, never synced); a field's author is then the
// member of the device its clock names, and its time the clock's.
//
// A member could push under another member's device id, to have their words taken for the
// other's. Two guards: a pulled change whose clocks name any device but the one it came from is
// refused as tampered; and a device claimed by two members is recorded as contested, its fields
// shown with no name rather than the wrong one.

const AUTHOR_PREFIX = 'device:author:';
const CONTESTED = '';

/** The member the server says pushed a change (a workspace's log), or null (the personal log). */
export function authorOfChange(change: SyncChange): string | null {
  const author = (change as SyncChange & { authorUserId?: unknown }).authorUserId;
  return typeof author === 'string' && author !== '' ? author : null;
}

/**
 * Refuses a pulled change some of whose clocks name another device than the one it came from:
 * every clock a device stamps is its own, so such a change was made to be taken for another's.
 */
export function checkClocksAreTheDevices(change: SyncChange, rows: readonly RowChange[]): void {
  const own = (hlc: string) => isEncodedHlc(hlc) && decodeHlc(hlc).deviceId === change.deviceId;
  for (const row of rows) {
    if (own(row.id) && Object.values(row.fields ?? {}).every((field) => own(field.hlc))) continue;
    throw new SyncEngineError(
      'tampered',
      `Change ${change.seqno} from device ${change.deviceId} carries another device's clocks: it was made to pass for someone else's work. Nothing from it was applied.`,
      change.seqno,
    );
  }
}

/**
 * Records each device as the member who pushed from it (`authors`: device id to member), and
 * this device as this account's, inside the pull's transaction (which must cover `settings`).
 */
export async function recordAuthors(
  tx: LocalWriteTransaction,
  authors: ReadonlyMap<string, string>,
  own: { readonly deviceId: string; readonly userId: string },
): Promise<void> {
  const all = new Map(authors);
  all.set(own.deviceId, own.userId);
  for (const [deviceId, userId] of all) {
    const key = `${AUTHOR_PREFIX}${deviceId}`;
    const held = (await tx.get('settings', key))?.value;
    if (held === userId || held === CONTESTED) continue;
    await tx.put('settings', {
      key,
      value: typeof held === 'string' ? CONTESTED : userId,
    });
  }
}

/** Who set a field of a row, and when. */
export interface FieldAuthor {
  /** The member; null when the device was claimed by two members (see above). */
  readonly userId: string | null;
  readonly deviceId: string;
  /** ISO time of the clock that set the field. */
  readonly at: string;
}

/**
 * Who set `field` of the row (its newest field when none is named), or null: a row never synced
 * in a workspace (the personal space records no authors), or a field of a device not recorded.
 * `own`, this device and its account: a field this device set is the account's even before the
 * first pull recorded the device (a row made as the workspace is first opened).
 */
export async function readFieldAuthor(
  tx: LocalReadTransaction,
  table: SyncedTable,
  rowId: string,
  field?: string,
  own?: { readonly deviceId: string; readonly userId: string },
): Promise<FieldAuthor | null> {
  const state = await tx.get('syncState', syncStateId(table, rowId));
  if (state === undefined) return null;
  const clocks = Object.entries(state.fields)
    .filter(([name]) => field === undefined || name === field)
    .map(([, set]) => set.hlc)
    .filter(isEncodedHlc);
  const newest = clocks.reduce<string | null>(
    (best, hlc) => (best === null || hlc > best ? hlc : best),
    null,
  );
  if (newest === null) return null;
  const { deviceId, millis } = decodeHlc(newest);
  const recorded = await readDeviceAuthor(tx, deviceId);
  // This device's writes are its account's before any pull has recorded it so.
  const userId = recorded === undefined && own?.deviceId === deviceId ? own.userId : recorded;
  if (userId === undefined) return null;
  return { userId, deviceId, at: new Date(millis).toISOString() };
}

/**
 * The member a device was recorded as: their account id, null for a device two members claimed,
 * undefined for a device not recorded (every device of the personal space).
 */
export async function readDeviceAuthor(
  tx: LocalReadTransaction,
  deviceId: string,
): Promise<string | null | undefined> {
  const held = (await tx.get('settings', `${AUTHOR_PREFIX}${deviceId}`))?.value;
  if (typeof held !== 'string') return undefined;
  return held === CONTESTED ? null : held;
}
