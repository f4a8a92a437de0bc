import type { Chamber } from '../bills/bill-vocabulary.ts';
import { cleanLine } from '../bills/bill-text-cleaning.ts';
import type { Member, MemberVote } from '../bills/member-votes.ts';
import { memberLimits, openStatesVoteOption } from '../bills/member-votes.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import { field, str } from '../encoding/loose-json.ts';
import { memberEntry, memberKey } from './bill-import-record.ts';

// Who voted how in Open States (issue 41; bill-importer-openstates.ts reads the votes): one entry
// of a vote event's `votes` list (scrape and API v3) or of the bulk export's vote_people table, as
// a member's vote and, as far as the source says, who the member is.

/** Where a vote was taken, for the keys of voters the source names only: 'us', 'lower'. */
export interface VotePlace {
  jurisdiction: string;
  chamber: Chamber | null;
}

// An Open Civic Data person id, as the API and the bulk export give them (a scrape's voter_id is a
// pseudo-id, '~{"name": "Adams"}', which names no one).
const OCD_PERSON = /^ocd-person\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A bioguide id, which the US Congress scraper writes in a vote's `note`; nothing else is read
// as one.
const BIOGUIDE = /^[A-Z]\d{6}$/;

/**
 * One voter of a vote event (`votes[]`: option, voter_name, voter_id or the API's `voter`
 * object, note), keyed by the ocd-person id where there is one, else the bioguide id in `note`,
 * else 'name:<jurisdiction>:<chamber>:<voter_name>'; with who the voter is, as far as said.
 */
export function openStatesVoter(
  entry: JsonObject,
  place: VotePlace,
): { vote: MemberVote; member: Member | null } | null {
  const voter = field(entry, 'voter');
  const personId = [str(field(voter, 'id')), str(field(entry, 'voter_id'))].find(
    (id): id is string => id !== null && OCD_PERSON.test(id),
  );
  const note = field(entry, 'note');
  const voterName = str(field(entry, 'voter_name'));
  const personName = str(field(voter, 'name'));
  let key: string | null = null;
  if (personId !== undefined) {
    key = memberKey('openstates', personId);
  } else if (typeof note === 'string' && BIOGUIDE.test(note)) {
    key = memberKey('bioguide', note);
  } else {
    const name = cleanLine(voterName ?? personName);
    const chamber = place.chamber === 'lower' || place.chamber === 'upper' ? place.chamber : '?';
    if (name !== null && name.length <= memberLimits.name) {
      key = memberKey('name', `${place.jurisdiction}:${chamber}:${name}`);
    }
  }
  if (key === null) return null;
  const role = field(voter, 'current_role');
  const member = memberEntry(key, {
    // The person record's own name for its id ("Jamal Whitcombe"); the roll's words otherwise.
    name: personId === undefined ? (voterName ?? personName) : (personName ?? voterName),
    party: str(field(voter, 'party')),
    district: str(field(role, 'district')),
    role: str(field(role, 'title')),
  });
  return { vote: [key, openStatesVoteOption(str(field(entry, 'option')))], member };
}
