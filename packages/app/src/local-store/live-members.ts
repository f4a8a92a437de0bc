import { memberVotesOnBills, type MemberVoteOnBill } from '@docket/core/bills';
import type { StoredBill, StoredMember } from '@docket/core/store';
import { useLiveRead } from './live-database.ts';

// Live reads of the member directory (who voted how, issue 41): the members a vote names, and a
// member's votes on the bills this device tracks.

/** The directory's rows for `keys`, by key; undefined while loading. */
export function useMemberDirectory(
  keys: readonly string[],
): ReadonlyMap<string, StoredMember> | undefined {
  const joined = keys.join('\n');
  return useLiveRead(
    async (store) => {
      if (keys.length === 0) return new Map<string, StoredMember>();
      const rows = await store.read(['members'], (tx) => tx.getMany('members', keys));
      const found = new Map<string, StoredMember>();
      for (const row of rows) if (row !== undefined) found.set(row.id, row);
      return found;
    },
    // The keys' content, not the array's identity, decides when to read again.
    [joined],
  );
}

export interface MemberRecord {
  /** The directory's row; null when no dataset on this device describes the member. */
  member: StoredMember | null;
  /** How many bills are tracked on this device. */
  tracked: number;
  /** The member's votes on the tracked bills, bill by bill. */
  votes: MemberVoteOnBill<StoredBill>[];
}

/** A member and their votes on the tracked bills; undefined while loading. */
export function useMemberRecord(key: string | null): MemberRecord | null | undefined {
  return useLiveRead(
    async (store) => {
      if (key === null) return null;
      return store.read(['members', 'decisions', 'bills'], async (tx) => {
        const [member, decisions] = await Promise.all([
          tx.get('members', key),
          tx.where('decisions', 'decision', 'track'),
        ]);
        const bills = (
          await tx.getMany(
            'bills',
            decisions.map((decision) => decision.billId),
          )
        ).filter((bill): bill is StoredBill => bill !== undefined);
        bills.sort((a, b) =>
          a.identifier.localeCompare(b.identifier, undefined, { numeric: true }),
        );
        return {
          member: member ?? null,
          tracked: bills.length,
          votes: memberVotesOnBills(bills, key),
        };
      });
    },
    [key],
  );
}
