import { z } from 'zod';

// Who voted how (issue 41). A roll call keeps each member's vote as a compact pair, the member's
// key and the option, on the bill's vote; who the member is (name, party, district) is kept once,
// in the device's member directory, not copied into every bill that member voted on.

/** How a member voted, in Docket's words; each source's own words map onto these. */
export const memberVoteOptions = [
  'yes',
  'no',
  'not-voting',
  'absent',
  'excused',
  'present',
  'abstain',
  'other',
] as const;
export type MemberVoteOption = (typeof memberVoteOptions)[number];

/** The words a person reads for each option, in the order a vote's members are listed. */
export const memberVoteWords: Readonly<Record<MemberVoteOption, string>> = {
  yes: 'Yes',
  no: 'No',
  'not-voting': 'Not voting',
  absent: 'Absent',
  excused: 'Excused',
  present: 'Present',
  abstain: 'Abstain',
  other: 'Other',
};

// A scheme, a colon, then printable text (no control characters).
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const KEY_PATTERN = /^[a-z][a-z-]*:[^\u0000-\u001f\u007f]+$/;

export const memberLimits = { key: 300, name: 200, party: 100, district: 100, role: 50 } as const;

/**
 * A member's key in the directory: the source, then the source's own id for the person
 * ('legiscan:8641', 'openstates:ocd-person/…', 'bioguide:A000370'), or where a source names a
 * voter only, the jurisdiction and the name as the roll writes it ('name:us:Amodei (NV)').
 */
export const memberKeySchema = z
  .string()
  .min(3)
  .max(memberLimits.key)
  .regex(KEY_PATTERN, { message: 'not a member key' });

/** One member's vote on a roll call: [member key, option]. */
export const memberVoteSchema = z.tuple([memberKeySchema, z.enum(memberVoteOptions)]);
export type MemberVote = z.infer<typeof memberVoteSchema>;

/** Who a member is, as the source says: kept once per member in the device's directory. */
export const memberSchema = z.strictObject({
  id: memberKeySchema,
  name: z.string().min(1).max(memberLimits.name),
  /** The party as the source writes it: "D", "R", "Democrat", "Independent". */
  party: z.string().min(1).max(memberLimits.party).nullable(),
  /** The seat: "HD-012", "GA-4", "GA". */
  district: z.string().min(1).max(memberLimits.district).nullable(),
  /** The member's title where the source gives it: "Rep", "Sen". */
  role: z.string().min(1).max(memberLimits.role).nullable(),
});
export type Member = z.infer<typeof memberSchema>;

const OPTIONS: ReadonlySet<string> = new Set(memberVoteOptions);

/** The fast check of a vote's member list, agreeing with memberVoteSchema. */
export function isMemberVoteList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 1 || value.length > 5_000) return false;
  for (const entry of value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return false;
    const [key, option] = entry as unknown[];
    if (typeof key !== 'string' || key.length < 3 || key.length > memberLimits.key) return false;
    if (!KEY_PATTERN.test(key) || typeof option !== 'string' || !OPTIONS.has(option)) return false;
  }
  return true;
}

/** LegiScan's vote_text (or vote_id) as an option: Yea, Nay, NV, Absent. */
export function legiscanVoteOption(text: string | null, id: number | null): MemberVoteOption {
  switch (text?.trim().toLowerCase()) {
    case 'yea':
    case 'yes':
    case 'aye':
      return 'yes';
    case 'nay':
    case 'no':
      return 'no';
    case 'nv':
    case 'not voting':
      return 'not-voting';
    case 'absent':
      return 'absent';
    case 'excused':
      return 'excused';
    case 'present':
      return 'present';
    default:
      break;
  }
  // LegiScan's vote_id: 1 Yea, 2 Nay, 3 Not Voting, 4 Absent.
  return id === 1
    ? 'yes'
    : id === 2
      ? 'no'
      : id === 3
        ? 'not-voting'
        : id === 4
          ? 'absent'
          : 'other';
}

/** Open States' option ("yes", "no", "not voting", "absent", "excused", "abstain", "other"). */
export function openStatesVoteOption(option: string | null): MemberVoteOption {
  const words = option?.trim().toLowerCase().replace(/[_-]+/g, ' ') ?? '';
  switch (words) {
    case 'yes':
    case 'yea':
    case 'aye':
      return 'yes';
    case 'no':
    case 'nay':
      return 'no';
    case 'not voting':
    case 'nv':
      return 'not-voting';
    case 'absent':
      return 'absent';
    case 'excused':
      return 'excused';
    case 'present':
      return 'present';
    case 'abstain':
    case 'abstention':
      return 'abstain';
    default:
      return 'other';
  }
}

/** How many members voted each way. */
export function memberVoteCounts(members: readonly MemberVote[]): Record<MemberVoteOption, number> {
  const counts = Object.fromEntries(memberVoteOptions.map((option) => [option, 0])) as Record<
    MemberVoteOption,
    number
  >;
  for (const [, option] of members) counts[option] += 1;
  return counts;
}

/**
 * Whether a vote's totals (yes, no, everyone else) agree with its members listed, and if not,
 * the difference in words: "The source's totals say 30 yes, 2 no, 1 other; its members listed
 * 29 yes, 2 no, 1 other."
 */
export function memberTotalsDifference(
  totals: { yes: number | null; no: number | null; other: number | null },
  members: readonly MemberVote[],
): string | null {
  const counts = memberVoteCounts(members);
  const listed = {
    yes: counts.yes,
    no: counts.no,
    other: members.length - counts.yes - counts.no,
  };
  const agrees = (['yes', 'no', 'other'] as const).every(
    (kind) => totals[kind] === null || totals[kind] === listed[kind],
  );
  if (agrees) return null;
  const words = (values: { yes: number | null; no: number | null; other: number | null }) =>
    (['yes', 'no', 'other'] as const)
      .filter((kind) => values[kind] !== null)
      .map((kind) => `${String(values[kind])} ${kind}`)
      .join(', ');
  return `The source's totals say ${words(totals)}; its members listed ${words(listed)}.`;
}

/** The order a vote's members are listed in: by option (yes first), then by name. */
export function memberVoteRank(option: MemberVoteOption): number {
  return memberVoteOptions.indexOf(option);
}

/**
 * A member as a person reads the name: "Rep. Ilhan Omar", "Sen. Tim Scott", or the name alone
 * where the source gives no chamber title. A member the directory does not know is named from
 * the key: the roll's own name ('name:' keys), else the source and its id.
 */
export function memberDisplayName(key: string, member: Member | undefined): string {
  if (member !== undefined) {
    const title = member.role?.trim().toLowerCase();
    const prefix = title === 'rep' ? 'Rep. ' : title === 'sen' ? 'Sen. ' : '';
    return `${prefix}${member.name}`;
  }
  const colon = key.indexOf(':');
  const scheme = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  if (scheme === 'name') return rest.slice(rest.lastIndexOf(':') + 1);
  if (scheme === 'legiscan') return `LegiScan person ${rest}`;
  if (scheme === 'bioguide') return `Member ${rest}`;
  return rest;
}

/** What a member's votes are looked up in: anything with a bill's votes. */
export interface VotedBill {
  votes: readonly { members?: readonly MemberVote[] | undefined }[];
}

/** One vote of a member: the bill, the vote's place in the bill's votes, how they voted. */
export interface MemberVoteOnBill<B extends VotedBill> {
  bill: B;
  voteIndex: number;
  option: MemberVoteOption;
}

/** Every vote `key` cast on `bills`, bill by bill in the order given, votes in bill order. */
export function memberVotesOnBills<B extends VotedBill>(
  bills: readonly B[],
  key: string,
): MemberVoteOnBill<B>[] {
  const found: MemberVoteOnBill<B>[] = [];
  for (const bill of bills) {
    bill.votes.forEach((vote, voteIndex) => {
      const entry = vote.members?.find(([member]) => member === key);
      if (entry !== undefined) found.push({ bill, voteIndex, option: entry[1] });
    });
  }
  return found;
}

/** What the latest vote is picked from and said with: a bill's vote without its members. */
export interface VoteTotals {
  date: string | null;
  motion: string;
  yes: number | null;
  no: number | null;
  other: number | null;
  passed: boolean | null;
}

/** The newest of a bill's votes by date (an undated one counts as older than any dated one;
 *  among equals the later in the list), or null when it has none. */
export function latestVote<V extends VoteTotals>(votes: readonly V[]): V | null {
  let latest: V | null = null;
  for (const vote of votes) {
    if (latest === null || (vote.date ?? '') >= (latest.date ?? '')) latest = vote;
  }
  return latest;
}

/** "Passed", "Failed", or '' when the source does not say. */
export function voteResultText(vote: VoteTotals): string {
  return vote.passed === null ? '' : vote.passed ? 'Passed' : 'Failed';
}

/** "30 yes, 2 no, 1 other", a count the source does not give said so. */
export function voteTotalsText(vote: VoteTotals): string {
  const count = (value: number | null, word: string) =>
    value === null ? `${word} not recorded` : `${value.toLocaleString('en-US')} ${word}`;
  return `${count(vote.yes, 'yes')}, ${count(vote.no, 'no')}, ${count(vote.other, 'other')}`;
}
