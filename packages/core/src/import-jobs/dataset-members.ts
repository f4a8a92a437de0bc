import type { Bill, BillVote } from '../bills/bill.ts';
import { billChangeHash } from '../bills/bill.ts';
import type { Member } from '../bills/member-votes.ts';
import type { StoredBill } from '../store/local-records.ts';
import type { StoredMember } from '../store/stored-member.ts';
import type { LocalWriteTransaction } from '../store/local-store.ts';

// The member directory an import fills (issue 41): who the members in its bills' votes are, kept
// once per member with the datasets that named them. An import writes each member once, in the
// chunk that first names them; a later import of the dataset (or another dataset) updates the
// row and adds itself to its datasets.

/** Members met while reading, not yet written, and those written already by this import. */
export class PendingMembers {
  private readonly written = new Set<string>();
  private pending = new Map<string, Member>();

  add(members: readonly Member[] | undefined): void {
    if (members === undefined) return;
    for (const member of members) {
      if (!this.written.has(member.id) && !this.pending.has(member.id)) {
        this.pending.set(member.id, member);
      }
    }
  }

  /** The members to write with the next chunk; they count as written from now on. */
  take(): Member[] {
    const taken = [...this.pending.values()];
    for (const member of taken) this.written.add(member.id);
    this.pending = new Map();
    return taken;
  }
}

/** Writes `members` as named by `datasetId`, keeping the other datasets that name them. */
export async function writeMembers(
  tx: LocalWriteTransaction,
  datasetId: string,
  members: readonly Member[],
): Promise<void> {
  if (members.length === 0) return;
  const existing = await tx.getMany(
    'members',
    members.map((member) => member.id),
  );
  const rows: StoredMember[] = members.map((member, index) => {
    const before = existing[index];
    const datasetIds =
      before === undefined
        ? [datasetId]
        : before.datasetIds.includes(datasetId)
          ? before.datasetIds
          : [...before.datasetIds, datasetId];
    return { ...member, datasetIds };
  });
  await tx.putMany('members', rows);
}

const sameRollCall = (a: BillVote, b: BillVote) =>
  a.date === b.date &&
  a.chamber === b.chamber &&
  a.motion === b.motion &&
  a.yes === b.yes &&
  a.no === b.no &&
  a.other === b.other;

/**
 * `incoming` with the member votes the stored bill already had for the same roll calls, where
 * `incoming` gives their totals only. A refresh of a changed bill reads LegiScan's getBill, which
 * lists each vote's totals, and fetches only the roll calls it has not seen: without this, the
 * older votes of every refreshed bill would lose who voted how.
 */
export function keepMemberVotes(incoming: Bill, stored: StoredBill): Bill {
  const known = stored.votes.filter((vote) => vote.members !== undefined);
  if (known.length === 0) return incoming;
  const votes = incoming.votes.map((vote) => {
    if (vote.members !== undefined) return vote;
    const match = known.find((before) => sameRollCall(before, vote));
    return match?.members === undefined ? vote : { ...vote, members: match.members };
  });
  if (votes.every((vote, index) => vote === incoming.votes[index])) return incoming;
  // The hash is of the content without its old hash (billChangeHash leaves it out).
  return { ...incoming, votes, changeHash: billChangeHash({ ...incoming, votes }) };
}
