import { decodeHlc, isEncodedHlc } from '../merge/hybrid-logical-clock.ts';
import type { SyncState } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalWriteTransaction } from '../store/local-store.ts';
import { readDeviceAuthor } from './change-authors.ts';

// A team workspace's Activity (issue 39): what teammates did, newest first, and how much of it
// came since this member last looked, as "What changed" does for sources. Nothing new is
// recorded for it: every field of a synced row keeps the clock that set it (sync-merge.ts's sync
// state), and the pull records which member each device is (change-authors.ts), so what another
// member last did to each row is read back from there. A row's newest write is its entry: a bill
// tagged, then untagged, by Ana shows once, as the removal. Only the team's work counts (tags,
// the tags on bills, positions, decisions, annotations); this member's own writes, and those of a
// device no member is recorded for, are left out. When this member last looked is a setting of
// the workspace's space on this device, so each workspace, and each device, has its own.

/** What the Activity read needs in its transaction. */
export const TEAM_ACTIVITY_TABLES = ['syncState', 'settings'] as const;

const SEEN_KEY = 'device:activity-seen';

const ACTIVITY_TABLES = ['tags', 'billTags', 'positions', 'decisions', 'annotations'] as const;
export type ActivityTable = (typeof ACTIVITY_TABLES)[number];

/** One row a teammate last wrote: what the row now holds, who wrote it and when. */
export interface TeamActivityEntry {
  readonly table: ActivityTable;
  readonly rowId: string;
  /** The member's account id. */
  readonly userId: string;
  /** ISO time of the write (its clock's). */
  readonly at: string;
  /** Whether the write deleted the row (an untagging, an annotation removed…). */
  readonly deleted: boolean;
  /** The row's fields as its sync state holds them; none once it is deleted. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The bill the row is about; null for a tag, or a deleted annotation (its bill went with it). */
  readonly billId: string | null;
  /** The tag a bill's tag row names; null for the other tables. */
  readonly tagId: string | null;
  /** Whether it came after this member last looked. */
  readonly unseen: boolean;
}

export interface TeamActivity {
  /** Newest first, at most `limit`. */
  readonly entries: readonly TeamActivityEntry[];
  /** How many teammates' writes came since this member last looked (all of them, not `limit`). */
  readonly unseen: number;
}

/** A bill tag's id is `${billId}|${tagId}`; a position's and a decision's is the bill's. */
function rowSubjects(
  table: ActivityTable,
  rowId: string,
  fields: Readonly<Record<string, unknown>>,
): { billId: string | null; tagId: string | null } {
  const named = typeof fields.billId === 'string' ? fields.billId : null;
  if (table === 'billTags') {
    const cut = rowId.lastIndexOf('|');
    return cut < 0
      ? { billId: named, tagId: null }
      : {
          billId: rowId.slice(0, cut),
          tagId: rowId.slice(cut + 1),
        };
  }
  if (table === 'positions' || table === 'decisions') return { billId: rowId, tagId: null };
  return { billId: table === 'annotations' ? named : null, tagId: null };
}

function isActivityTable(table: string): table is ActivityTable {
  return (ACTIVITY_TABLES as readonly string[]).includes(table);
}

/** The newest clock of the row (a field's or the delete's), and whether it was the delete. */
function newestWrite(state: SyncState): { hlc: string; deleted: boolean } | null {
  let newest: string | null = null;
  for (const { hlc } of Object.values(state.fields)) {
    if (isEncodedHlc(hlc) && (newest === null || hlc > newest)) newest = hlc;
  }
  const deletedAt = state.deletedAt;
  if (deletedAt !== null && isEncodedHlc(deletedAt) && (newest === null || deletedAt >= newest)) {
    return { hlc: deletedAt, deleted: true };
  }
  return newest === null ? null : { hlc: newest, deleted: false };
}

/**
 * What this member marked as seen on this device: the newest time they were shown, and each
 * teammate's write they had then (a row and its clock). A write is new when it is not among them,
 * so one that arrives late with an older clock than the mark (a teammate who was offline) is new
 * all the same, as a comparison of times would miss. An older device's mark held the time alone.
 */
interface SeenMark {
  readonly at: string;
  readonly writes: ReadonlySet<string> | null;
}

async function readSeen(tx: LocalReadTransaction): Promise<SeenMark | null> {
  const value = (await tx.get('settings', SEEN_KEY))?.value;
  if (typeof value === 'string') return { at: value, writes: null };
  if (typeof value !== 'object' || value === null) return null;
  const { at, writes } = value as { at?: unknown; writes?: unknown };
  if (typeof at !== 'string' || !Array.isArray(writes)) return null;
  return { at, writes: new Set(writes.filter((each) => typeof each === 'string')) };
}

function wasSeen(seen: SeenMark | null, write: { key: string; at: string }): boolean {
  if (seen === null) return false;
  return seen.writes === null ? write.at <= seen.at : seen.writes.has(write.key);
}

/** A teammate's write as the Activity reads it, with the key a seen mark keeps of it. */
type TeammateWrite = Omit<TeamActivityEntry, 'unseen'> & { readonly key: string };

/** What members other than `ownUserId` last did to each row of the team's work, in no order. */
async function readTeammateWrites(
  tx: LocalReadTransaction,
  ownUserId: string,
): Promise<TeammateWrite[]> {
  const authors = new Map<string, string | null | undefined>();
  const writes: TeammateWrite[] = [];
  for (const state of await tx.all('syncState')) {
    if (!isActivityTable(state.table)) continue;
    const write = newestWrite(state);
    if (write === null) continue;
    const { deviceId, millis } = decodeHlc(write.hlc);
    if (!authors.has(deviceId)) authors.set(deviceId, await readDeviceAuthor(tx, deviceId));
    const userId = authors.get(deviceId);
    if (typeof userId !== 'string' || userId === ownUserId) continue;
    const fields = Object.fromEntries(
      Object.entries(state.fields).map(([name, field]) => [name, field.value]),
    );
    writes.push({
      key: `${state.table}\n${state.rowId}\n${write.hlc}`,
      table: state.table,
      rowId: state.rowId,
      userId,
      at: new Date(millis).toISOString(),
      deleted: write.deleted,
      fields,
      ...rowSubjects(state.table, state.rowId, fields),
    });
  }
  return writes;
}

/**
 * What members other than `ownUserId` last did to each row of the team's work, newest first (at
 * most `limit`), and how many of those writes came since this member last looked. Read in a
 * transaction over `TEAM_ACTIVITY_TABLES`; in the personal space (no device recorded for any
 * member) it is empty.
 */
export async function readTeamActivity(
  tx: LocalReadTransaction,
  ownUserId: string,
  { limit = 100 }: { limit?: number } = {},
): Promise<TeamActivity> {
  const seen = await readSeen(tx);
  const entries: TeamActivityEntry[] = (await readTeammateWrites(tx, ownUserId)).map(
    ({ key, ...entry }) => ({ ...entry, unseen: !wasSeen(seen, { key, at: entry.at }) }),
  );
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return {
    entries: entries.slice(0, limit),
    unseen: entries.filter((entry) => entry.unseen).length,
  };
}

/**
 * Marks everything teammates did up to `at` (the newest entry the member was shown) as seen on
 * this device, in a transaction over `TEAM_ACTIVITY_TABLES`. What was seen stays seen: a mark from
 * an older screen adds, never takes back. Answers the newest time kept.
 */
export async function markTeamActivitySeen(
  tx: LocalWriteTransaction,
  ownUserId: string,
  at: string,
): Promise<string> {
  const held = await readSeen(tx);
  const kept = held !== null && held.at >= at ? held.at : at;
  const writes = (await readTeammateWrites(tx, ownUserId))
    .filter((write) => write.at <= at || wasSeen(held, write))
    .map((write) => write.key);
  await tx.put('settings', { key: SEEN_KEY, value: { at: kept, writes } });
  return kept;
}
