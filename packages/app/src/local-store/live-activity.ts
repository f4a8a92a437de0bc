import {
  markTeamActivitySeen,
  readTeamActivity,
  TEAM_ACTIVITY_TABLES,
  type TeamActivityEntry,
} from '@docket/core/sync';
import { activeWorkspaceId } from './account-databases.ts';
import { liveLocalStore, useLiveRead } from './live-database.ts';

// A team workspace's Activity, read live (core's sync/team-activity.ts): what teammates last did
// to each row, with the bills' and tags' names this device holds, to say it in words.

/** How a bill is named in the list. */
export interface BillLabel {
  readonly identifier: string;
  readonly title: string;
}

/** One teammate's write, with the names to say it by. */
export interface ActivityItem {
  readonly entry: TeamActivityEntry;
  /** The bill's identifier and title, from the row's label or this device's bills; null: none. */
  readonly bill: BillLabel | null;
  /** The tag's name (a bill tag's, or a tag's own); null when this device does not hold it. */
  readonly tagName: string | null;
}

export interface ActivityView {
  readonly items: readonly ActivityItem[];
  readonly unseen: number;
}

const TABLES = [...TEAM_ACTIVITY_TABLES, 'bills', 'tags'] as const;

function labelOf(fields: Readonly<Record<string, unknown>>): BillLabel | null {
  const label = fields.billLabel;
  if (typeof label !== 'object' || label === null) return null;
  const { identifier, title } = label as Partial<BillLabel>;
  return typeof identifier === 'string' && typeof title === 'string' ? { identifier, title } : null;
}

/**
 * What members other than `userId` did in the workspace the page works in, newest first, and how
 * many came since this member last looked; null in the personal space, undefined while loading.
 */
export function useTeamActivity(userId: string | null): ActivityView | null | undefined {
  const team = activeWorkspaceId() !== null;
  return useLiveRead(
    (store) =>
      !team || userId === null
        ? Promise.resolve(null)
        : store.read(TABLES, async (tx) => {
            const { entries, unseen } = await readTeamActivity(tx, userId);
            const billIds = [...new Set(entries.flatMap((entry) => entry.billId ?? []))];
            const bills = new Map(
              (await tx.getMany('bills', billIds)).flatMap((bill) =>
                bill === undefined ? [] : [[bill.id, bill] as const],
              ),
            );
            const tagIds = [
              ...new Set(
                entries.flatMap((entry) =>
                  entry.table === 'tags' ? [entry.rowId] : (entry.tagId ?? []),
                ),
              ),
            ];
            const tags = new Map(
              (await tx.getMany('tags', tagIds)).flatMap((tag) =>
                tag === undefined ? [] : [[tag.id, tag.name] as const],
              ),
            );
            const items = entries.map((entry) => {
              const bill = entry.billId === null ? undefined : bills.get(entry.billId);
              const tagId = entry.table === 'tags' ? entry.rowId : entry.tagId;
              const ownName = entry.table === 'tags' ? entry.fields.name : undefined;
              return {
                entry,
                bill:
                  bill === undefined
                    ? labelOf(entry.fields)
                    : { identifier: bill.identifier, title: bill.title },
                tagName:
                  (tagId === null ? undefined : tags.get(tagId)) ??
                  (typeof ownName === 'string' ? ownName : null),
              };
            });
            return { items, unseen };
          }),
    [team, userId],
  );
}

/**
 * Marks what teammates (members other than `userId`) did up to `at`, the newest item shown, as
 * seen in the open space.
 */
export function markActivitySeen(userId: string, at: string): Promise<string> {
  return liveLocalStore().write(TEAM_ACTIVITY_TABLES, (tx) => markTeamActivitySeen(tx, userId, at));
}
