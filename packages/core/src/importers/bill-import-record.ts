import type { Bill, BillDraft, BillOverrides } from '../bills/bill.ts';
import { finalizeBill } from '../bills/bill.ts';
import { cleanLine } from '../bills/bill-text-cleaning.ts';
import type { Member, MemberVote } from '../bills/member-votes.ts';
import { memberLimits } from '../bills/member-votes.ts';
import type { ImportError } from '../encoding/import-file.ts';
import { printable } from '../encoding/text-bytes.ts';

// What every importer takes and gives. Importers are generators of per-record outcomes so that
// a worker can stream a large dataset and report progress; the import* wrappers collect them.

// `ImportFile` and `ImportError` are defined in encoding/import-file.ts, beneath the ZIP reader
// that takes and reports files too; every importer takes them from here.
export type { ImportError, ImportFile } from '../encoding/import-file.ts';

export type RecordOutcome =
  | {
      ok: true;
      file: string;
      bill: Bill;
      /**
       * Who the members in the bill's votes are (each vote's `members` names them by key), for
       * the device's member directory: kept there once, never in the bill.
       */
      members?: readonly Member[];
    }
  | { ok: false; error: ImportError };

export interface BillImportResult {
  bills: Bill[];
  errors: ImportError[];
  recordsRead: number;
}

/** A record's refusal. Its label and reason may quote the file, so whatever in them would not
 *  print (control characters, binary) is escaped: a message never carries a file's bytes. */
export function failure(file: string, record: string | null, reason: string): RecordOutcome {
  return {
    ok: false,
    error: {
      file: printable(file, 1_000),
      record: record === null ? null : printable(record, 200),
      reason: printable(reason, 1_000),
    },
  };
}

/** Finalizes a draft into an outcome, naming the record in the refusal. */
export function outcomeFromDraft(
  file: string,
  record: string | null,
  draft: BillDraft,
  overrides: BillOverrides,
): RecordOutcome {
  const result = finalizeBill(draft, overrides);
  return result.ok ? { ok: true, file, bill: result.bill } : failure(file, record, result.reason);
}

/**
 * Runs one record's conversion so that a bug or a surprise in one record becomes that record's
 * error instead of ending the whole import.
 */
export function guarded(
  file: string,
  record: string | null,
  convert: () => RecordOutcome,
): RecordOutcome {
  try {
    return convert();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(file, record, `could not be read: ${message}`);
  }
}

/** guarded, for a conversion that yields several outcomes (a bill and its side errors). */
export function guardedAll(
  file: string,
  record: string | null,
  convert: () => RecordOutcome[],
): RecordOutcome[] {
  try {
    return convert();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [failure(file, record, `could not be read: ${message}`)];
  }
}

// Who voted how (issue 41): what the importers that read members' votes (LegiScan, Open States)
// share. A source's member is kept only when its key is one the bill schema takes; a member whose
// key cannot be made (no id, no name, a name past the limits) is left out of the vote, never the
// reason the bill is refused.

/** The most members one vote keeps (the bill schema's limit). */
export const MAX_VOTE_MEMBERS = 5_000;

// As member-votes.ts's memberKeySchema: a lowercase source prefix, then printable text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MEMBER_KEY = /^[a-z][a-z-]*:[^\u0000-\u001f\u007f]+$/;

/** `prefix:rest` when that is a member key the schema takes, else null. */
export function memberKey(prefix: string, rest: string): string | null {
  const key = `${prefix}:${rest}`;
  return key.length >= 3 && key.length <= memberLimits.key && MEMBER_KEY.test(key) ? key : null;
}

/** A vote's member list as a bill keeps it: left out (undefined) when no member could be read. */
export function voteMembers(members: readonly MemberVote[]): { members?: MemberVote[] } {
  return members.length === 0 ? {} : { members: members.slice(0, MAX_VOTE_MEMBERS) };
}

function cleanValue(value: string | null, max: number): string | null {
  const clean = cleanLine(value);
  return clean === null || clean.length > max ? null : clean;
}

/**
 * A directory entry from what the source says of a member, each value cleaned as bill text is
 * (control characters dropped, whitespace folded); a value past its limit is left out (null), and
 * without a name there is no entry.
 */
export function memberEntry(
  id: string,
  said: { name: string | null; party: string | null; district: string | null; role: string | null },
): Member | null {
  const name = cleanValue(said.name, memberLimits.name);
  if (name === null) return null;
  return {
    id,
    name,
    party: cleanValue(said.party, memberLimits.party),
    district: cleanValue(said.district, memberLimits.district),
    role: cleanValue(said.role, memberLimits.role),
  };
}

/**
 * Adds a directory entry to `directory` (by id): the first entry of an id is kept, and its
 * missing values (party, district, role) are filled from later ones.
 */
export function addMember(directory: Map<string, Member>, member: Member): void {
  const known = directory.get(member.id);
  if (known === undefined) {
    directory.set(member.id, member);
    return;
  }
  if (known.party !== null && known.district !== null && known.role !== null) return;
  directory.set(member.id, {
    ...known,
    party: known.party ?? member.party,
    district: known.district ?? member.district,
    role: known.role ?? member.role,
  });
}

/** The outcome with the directory entries of the members its bill's votes name attached. */
export function withMembers(
  outcome: RecordOutcome,
  directory: ReadonlyMap<string, Member>,
): RecordOutcome {
  if (!outcome.ok || directory.size === 0) return outcome;
  const named = new Set<string>();
  for (const vote of outcome.bill.votes) for (const [key] of vote.members ?? []) named.add(key);
  const members = [...directory.values()].filter((member) => named.has(member.id));
  return members.length === 0 ? outcome : { ...outcome, members };
}

export function collectOutcomes(outcomes: Iterable<RecordOutcome>): BillImportResult {
  const bills: Bill[] = [];
  const errors: ImportError[] = [];
  let recordsRead = 0;
  for (const outcome of outcomes) {
    recordsRead++;
    if (outcome.ok) bills.push(outcome.bill);
    else errors.push(outcome.error);
  }
  return { bills, errors, recordsRead };
}
