import {
  memberDisplayName,
  memberTotalsDifference,
  memberVoteOptions,
  memberVoteRank,
  memberVoteWords,
  type MemberVoteOption,
} from '@docket/core/bills';
import type { StoredBill } from '@docket/core/store';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useMemberDirectory } from '../local-store/live-members.ts';
import { plural } from '../ui/formatting.ts';
import { formatBillDate } from '../bills/bill-words.ts';

// Who voted how on one of a bill's votes (issue 41): each member with party, district and vote,
// yes first then by name, narrowed by "Find a member" and a filter by vote. Whether the source's
// totals agree with the members listed is said, never left for the reader to add up.

/** The path of a member's record: their votes on the tracked bills. */
export function memberPath(key: string): string {
  return `/member?id=${encodeURIComponent(key)}`;
}

/** Text compared without case or accents: "nunez" finds "Núñez". */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLocaleLowerCase();
}

/** A vote's members with their names, parties and districts, yes first then by name. */
function useMemberRows(members: readonly (readonly [string, MemberVoteOption])[]): MemberRow[] {
  const directory = useMemberDirectory(members.map(([key]) => key));
  return useMemo(
    () =>
      members
        .map(([key, option]) => {
          const member = directory?.get(key);
          return {
            key,
            option,
            name: memberDisplayName(key, member),
            party: member?.party ?? null,
            district: member?.district ?? null,
          };
        })
        .sort(
          (a, b) =>
            memberVoteRank(a.option) - memberVoteRank(b.option) ||
            a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
        ),
    [members, directory],
  );
}

interface MemberRow {
  readonly key: string;
  readonly option: MemberVoteOption;
  readonly name: string;
  readonly party: string | null;
  readonly district: string | null;
}

/** "Find a member" and "Vote": what narrows the list. */
function VoteMembersFilters({
  query,
  onQuery,
  shownVote,
  onShownVote,
  options,
}: {
  readonly query: string;
  readonly onQuery: (query: string) => void;
  readonly shownVote: MemberVoteOption | 'all';
  readonly onShownVote: (vote: MemberVoteOption | 'all') => void;
  /** The votes offered: the four every vote has, and any other this one holds. */
  readonly options: readonly MemberVoteOption[];
}) {
  const id = useId();
  return (
    <div className="vote-members-filters">
      <div className="vote-members-field">
        <label htmlFor={`${id}-find`}>Find a member</label>
        <input
          id={`${id}-find`}
          type="search"
          autoComplete="off"
          maxLength={200}
          value={query}
          onChange={(event) => {
            onQuery(event.target.value);
          }}
        />
      </div>
      <div className="vote-members-field">
        <label htmlFor={`${id}-vote`}>Vote</label>
        <select
          id={`${id}-vote`}
          value={shownVote}
          onChange={(event) => {
            onShownVote(event.target.value as MemberVoteOption | 'all');
          }}
        >
          <option value="all">Every vote</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {memberVoteWords[option]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** The members listed, each linked to their record. */
function VoteMembersTable({ rows }: { readonly rows: readonly MemberRow[] }) {
  return (
    <div className="bill-table-scroll" role="region" aria-label="Members listed" tabIndex={0}>
      <table className="vote-members-table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Party</th>
            <th scope="col">District</th>
            <th scope="col">Vote</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td dir="auto">
                <Link to={memberPath(row.key)}>{row.name}</Link>
              </td>
              <td dir="auto">{row.party ?? '—'}</td>
              <td dir="auto">{row.district ?? '—'}</td>
              <td>{memberVoteWords[row.option]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VoteMembers({ bill, index }: { bill: StoredBill; index: number }) {
  const vote = bill.votes[index];
  const members = useMemo(() => vote?.members ?? [], [vote]);
  const [query, setQuery] = useState('');
  const [shownVote, setShownVote] = useState<MemberVoteOption | 'all'>('all');
  const id = useId();

  const rows = useMemberRows(members);
  if (vote === undefined) return null;
  const present = new Set(members.map(([, option]) => option));
  const filterOptions = memberVoteOptions.filter(
    (option) =>
      option === 'yes' ||
      option === 'no' ||
      option === 'not-voting' ||
      option === 'absent' ||
      present.has(option),
  );
  const needle = folded(query.trim());
  const shown = rows.filter(
    (row) =>
      (shownVote === 'all' || row.option === shownVote) &&
      (needle === '' ||
        folded(`${row.name} ${row.party ?? ''} ${row.district ?? ''}`).includes(needle)),
  );
  const difference = memberTotalsDifference(vote, members);
  const headingId = `${id}-heading`;
  return (
    <section className="vote-members" aria-labelledby={headingId}>
      <h3 id={headingId} dir="auto">
        Members: {vote.motion}
        {vote.date === null ? '' : ` · ${formatBillDate(vote.date)}`}
      </h3>
      <p className="bill-muted">
        {difference ?? `The totals agree with the ${plural(members.length, 'member')} listed.`}
      </p>
      <VoteMembersFilters
        query={query}
        onQuery={setQuery}
        shownVote={shownVote}
        onShownVote={setShownVote}
        options={filterOptions}
      />
      <p role="status" className="bill-muted">
        {shown.length === rows.length
          ? plural(rows.length, 'member')
          : `${shown.length.toLocaleString()} of ${plural(rows.length, 'member')}`}
      </p>
      {shown.length > 0 && <VoteMembersTable rows={shown} />}
    </section>
  );
}
