// The public face of bills/ for the other packages (README.md); inside core, files import each other directly.
export {
  billDateLabels,
  billDates,
  latestActionDateText,
  latestActionLine,
  statusWithDate,
} from './bill-dates.ts';
export { type CitedBill, compareBills, mergeDuplicateBills } from './bill-merge.ts';
export {
  billFullName,
  billPlace,
  sessionKey,
  sessionLabel,
  sessionOfKey,
  sponsorName,
  sponsorSeat,
  statusWord,
} from './bill-naming.ts';
export { type BillStatus, billStatuses, type Chamber } from './bill-vocabulary.ts';
export {
  type Bill,
  type BillAction,
  billContentSchema,
  type BillDraft,
  billSchema,
  type BillText,
  type BillVote,
  finalizeBill,
  type Sponsor,
} from './bill.ts';
export { canonicalJson, fnv1a64Hex, fnv1a64HexOfText } from './canonical-hash.ts';
export {
  memberDisplayName,
  memberTotalsDifference,
  type MemberVoteOnBill,
  type MemberVoteOption,
  memberVoteOptions,
  memberVoteRank,
  memberVotesOnBills,
  memberVoteWords,
  voteResultText,
  voteTotalsText,
} from './member-votes.ts';
export { jurisdictionName } from './us-jurisdictions.ts';
