import type { BillDraft, BillOverrides, BillText, BillVote, Sponsor } from '../bills/bill.ts';
import { chronological } from '../bills/bill-merge.ts';
import { normalizeJurisdiction, parseBillIdentifier } from '../bills/bill-identifiers.ts';
import { safeUrl, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { Member, MemberVote } from '../bills/member-votes.ts';
import {
  chamberOf,
  introductionDate,
  openStatesActions,
  statusOfActions,
} from './openstates-actions.ts';
import { openStatesVoter } from './openstates-voters.ts';
import type { BillImportResult, ImportFile, RecordOutcome } from './bill-import-record.ts';
import {
  addMember,
  collectOutcomes,
  failure,
  guarded,
  MAX_VOTE_MEMBERS,
  outcomeFromDraft,
  voteMembers,
  withMembers,
} from './bill-import-record.ts';
import { csvHeader, parseCsvTable } from '../encoding/csv-table.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import { billsFromCsv, type Table } from './openstates-csv-tables.ts';
import {
  arr,
  count,
  field,
  fieldAt,
  isObject,
  looksLikeJson,
  objects,
  parseJsonBytes,
  str,
} from '../encoding/loose-json.ts';
import { decodeUtf8, decodeUtf8Head } from '../encoding/text-bytes.ts';
import { jurisdictionFromName, jurisdictionFromOcdId } from '../bills/us-jurisdictions.ts';

// Open States, in the three shapes its data reaches people:
// - scraper output ("pupa"/openstates-core): one bill JSON (here a govbot metadata.json) with
//   references written as pseudo-ids ('~{"classification": "lower"}'), and vote events in
//   separate JSON files (govbot keeps them in logs/*vote_event*.json beside the bill);
// - API v3 bills: a page {"results": [...], "pagination": {...}} or one bill, with actions,
//   sponsorships, votes and versions present when the request included them (the bulk JSON
//   export, a plain array of bills, is read the same way);
// - the bulk CSV export: one ZIP per session of <ST>_<session>_bills.csv plus tables keyed by
//   bill_id (bill_actions, bill_sponsorships, bill_abstracts, bill_versions with
//   bill_version_links, bill_sources, votes with vote_counts and vote_people, organizations).
//   Array columns are written as Python lists ("['passage']"); booleans as True/False.
// All three are turned into the one JSON bill shape first, then normalized by one function.
// A vote event's `votes` list is each member's vote (member-votes.ts), the member keyed by the
// best id the source gives; the bill's outcome carries who those members are, as far as said.

export type OpenStatesJsonRole = 'bill' | 'vote-event' | 'bill-list';

function isOpenStatesBill(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  if (str(field(value, 'identifier')) === null || typeof field(value, 'title') !== 'string')
    return false;
  const session = field(value, 'legislative_session') ?? field(value, 'session');
  if (session === undefined) return false;
  const id = str(field(value, 'id'));
  return (
    id?.startsWith('ocd-bill/') === true ||
    ['from_organization', 'actions', 'sponsorships', 'sponsors', 'jurisdiction'].some(
      (key) => field(value, key) !== undefined,
    )
  );
}

function isVoteEvent(value: unknown): value is JsonObject {
  return (
    isObject(value) &&
    typeof field(value, 'motion_text') === 'string' &&
    Array.isArray(field(value, 'counts')) &&
    (field(value, 'bill') !== undefined || field(value, 'bill_identifier') !== undefined)
  );
}

/** What kind of Open States JSON a parsed file is, or null when it is none. */
export function openStatesJsonRole(value: unknown): OpenStatesJsonRole | null {
  if (isOpenStatesBill(value)) return 'bill';
  if (isVoteEvent(value)) return 'vote-event';
  const results = Array.isArray(value) ? value : field(value, 'results');
  if (Array.isArray(results)) {
    if (results.length > 0 && isOpenStatesBill(results[0])) return 'bill-list';
    if (results.length === 0 && field(value, 'pagination') !== undefined) return 'bill-list';
  }
  return null;
}

export type OpenStatesCsvRole =
  | 'bills'
  | 'actions'
  | 'sponsorships'
  | 'abstracts'
  | 'versions'
  | 'version-links'
  | 'sources'
  | 'votes'
  | 'vote-counts'
  | 'vote-people'
  | 'organizations'
  | 'other';

/**
 * Which table of the bulk CSV export a header belongs to. bill_versions and bill_documents share
 * their columns, so only there does the file name decide.
 */
export function openStatesCsvRole(
  header: readonly string[],
  name: string,
): OpenStatesCsvRole | null {
  const has = (...columns: string[]) => columns.every((column) => header.includes(column));
  if (has('identifier', 'title', 'session_identifier')) return 'bills';
  if (has('bill_id', 'description', 'date', 'order')) return 'actions';
  if (has('bill_id', 'name', 'primary', 'classification')) return 'sponsorships';
  if (has('bill_id', 'abstract')) return 'abstracts';
  if (has('motion_text', 'bill_id', 'result')) return 'votes';
  if (has('vote_event_id', 'option', 'value')) return 'vote-counts';
  if (has('vote_event_id', 'option', 'voter_name')) return 'vote-people';
  if (has('vote_event_id')) return 'other';
  if (has('version_id', 'url')) return 'version-links';
  if (has('document_id', 'url')) return 'other';
  if (has('bill_id', 'note', 'date') && !has('title')) {
    return /document/i.test(name) ? 'other' : 'versions';
  }
  if (has('bill_id', 'related_bill_id') || has('bill_id', 'scheme') || has('bill_id', 'title')) {
    return 'other';
  }
  if (has('bill_id', 'url')) return 'sources';
  if (has('id', 'name', 'classification') && (has('jurisdiction_id') || has('parent_id'))) {
    return 'organizations';
  }
  return null;
}

/** Open States role of a file from its content, for format detection. */
export function openStatesFileRole(
  file: ImportFile,
): OpenStatesJsonRole | OpenStatesCsvRole | null {
  const head = decodeUtf8Head(file.bytes);
  if (looksLikeJson(head)) {
    const parsed = parseJsonBytes(file.bytes);
    return parsed.ok ? openStatesJsonRole(parsed.value) : null;
  }
  return openStatesCsvRole(csvHeader(head), file.name);
}

function isTrue(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === 'string' && /^(true|t|1|yes)$/i.test(value.trim());
}

function jurisdictionOf(bill: JsonObject): string | null {
  const jurisdiction = field(bill, 'jurisdiction');
  const candidates = [
    str(field(jurisdiction, 'division_id')),
    str(field(jurisdiction, 'id')),
    str(jurisdiction),
    str(field(bill, 'jurisdiction_id')),
  ];
  for (const candidate of candidates) {
    if (candidate?.startsWith('ocd-')) {
      const code = jurisdictionFromOcdId(candidate);
      if (code) return code;
    }
  }
  const name =
    str(field(jurisdiction, 'name')) ?? str(jurisdiction) ?? str(field(bill, 'jurisdiction_name'));
  return name === null ? null : jurisdictionFromName(name);
}

function voteFrom(
  vote: JsonObject,
  organizations: ReadonlyMap<string, string>,
  jurisdiction: string,
  directory: Map<string, Member>,
): BillVote {
  let yes: number | null = null;
  let no: number | null = null;
  let other: number | null = null;
  for (const entry of objects(field(vote, 'counts'))) {
    const value = count(field(entry, 'value'));
    if (value === null) continue;
    const option = str(field(entry, 'option'))?.toLowerCase();
    if (option === 'yes') yes = (yes ?? 0) + value;
    else if (option === 'no') no = (no ?? 0) + value;
    else other = (other ?? 0) + value;
  }
  const result = str(field(vote, 'result'))?.toLowerCase();
  const chamber =
    chamberOf(field(vote, 'organization'), organizations) ??
    chamberOf(field(vote, 'organization__classification'), organizations) ??
    chamberOf(field(vote, 'organization_id'), organizations);
  const members: MemberVote[] = [];
  for (const entry of objects(field(vote, 'votes'))) {
    const voter = openStatesVoter(entry, { jurisdiction, chamber });
    if (voter === null) continue;
    members.push(voter.vote);
    if (voter.member !== null) addMember(directory, voter.member);
    if (members.length === MAX_VOTE_MEMBERS) break;
  }
  return {
    date: toIsoDate(field(vote, 'start_date')),
    chamber,
    motion: str(field(vote, 'motion_text')) ?? 'Vote',
    yes,
    no,
    other,
    passed: result === 'pass' ? true : result === 'fail' ? false : null,
    ...voteMembers(members),
  };
}

const LINK_PREFERENCE = ['text/html', 'application/pdf', 'text/xml', 'application/xml'];

function textFrom(version: JsonObject): BillText {
  const links = objects(field(version, 'links'))
    .map((link) => ({ url: safeUrl(field(link, 'url')), mime: str(field(link, 'media_type')) }))
    .filter((link): link is { url: string; mime: string | null } => link.url !== null);
  const rank = (mime: string | null) => {
    const at = LINK_PREFERENCE.indexOf(mime ?? '');
    return at < 0 ? LINK_PREFERENCE.length : at;
  };
  const best = [...links].sort((a, b) => rank(a.mime) - rank(b.mime))[0];
  return {
    date: toIsoDate(field(version, 'date')),
    type: str(field(version, 'note')) ?? str(field(version, 'classification')) ?? 'Version',
    url: best?.url ?? null,
    mimeType: best?.mime ?? null,
    text: null,
  };
}

function sponsorsFrom(bill: JsonObject): { sponsors: Sponsor[]; cosponsors: Sponsor[] } {
  const entries = objects(field(bill, 'sponsorships') ?? field(bill, 'sponsors'));
  // The US scraper keeps bioguide ids apart from the sponsorships; with exactly one primary
  // sponsor and one id the pairing is certain.
  const bioguides = arr(fieldAt(bill, 'extras', 'sponsor_bioguides'))
    .map(str)
    .filter((id) => id !== null);
  const primaryCount = entries.filter((entry) => isTrue(field(entry, 'primary'))).length;
  const sponsors: Sponsor[] = [];
  const others: Sponsor[] = [];
  const cosponsors: Sponsor[] = [];
  for (const entry of entries) {
    const name = str(field(entry, 'name')) ?? str(fieldAt(entry, 'person', 'name'));
    if (name === null) continue;
    const classification = str(field(entry, 'classification'))?.toLowerCase() ?? '';
    const primary = isTrue(field(entry, 'primary')) || classification === 'primary';
    const personId = str(fieldAt(entry, 'person', 'id')) ?? str(field(entry, 'person_id'));
    let externalId = personId?.startsWith('~') ? null : personId;
    if (primary && externalId === null && primaryCount === 1 && bioguides.length === 1) {
      externalId = bioguides[0] ?? null;
    }
    const party = str(fieldAt(entry, 'person', 'party')) ?? str(field(entry, 'party'));
    // API v3 with include=sponsorships names the person's seat; scrapes do not.
    const district = str(field(fieldAt(entry, 'person', 'current_role'), 'district'));
    const role = primary ? 'primary' : classification.startsWith('co') ? 'cosponsor' : 'sponsor';
    const sponsor: Sponsor = {
      name,
      role,
      party,
      ...(district === null ? {} : { district }),
      externalId,
    };
    if (role === 'primary') sponsors.push(sponsor);
    else if (role === 'cosponsor') cosponsors.push(sponsor);
    else others.push(sponsor);
  }
  return { sponsors: [...sponsors, ...others], cosponsors };
}

function preferredSource(bill: JsonObject): string | null {
  const urls = objects(field(bill, 'sources'))
    .map((source) => safeUrl(field(source, 'url')))
    .filter((url): url is string => url !== null);
  // A human-readable page beats a machine file such as the BILLSTATUS XML the US scraper cites.
  return urls.find((url) => !/\.(xml|json)$/i.test(url)) ?? urls[0] ?? null;
}

/** The draft of one bill in Open States' JSON shape (scrape, API, bulk JSON, or CSV rebuilt). */
export function openStatesDraft(
  bill: JsonObject,
  extraVotes: readonly JsonObject[] = [],
  organizations: ReadonlyMap<string, string> = new Map(),
): BillDraft {
  return openStatesRecord(bill, extraVotes, organizations).draft;
}

/**
 * The draft of one bill in Open States' JSON shape, and the directory entries of the voters its
 * votes name. `overrides.jurisdiction`, where given, is the bill's jurisdiction in the keys of
 * voters named only by name, as it is the bill's.
 */
export function openStatesRecord(
  bill: JsonObject,
  extraVotes: readonly JsonObject[] = [],
  organizations: ReadonlyMap<string, string> = new Map(),
  overrides: BillOverrides = {},
): { draft: BillDraft; members: Map<string, Member> } {
  const congress = jurisdictionOf(bill) === 'us';
  const actions = openStatesActions(bill, organizations, congress);
  const { status, statusDate } = statusOfActions(actions);
  const latest = actions.filter((action) => action.text !== '').at(-1);
  const introduced = introductionDate(actions);
  const members = new Map<string, Member>();
  const rawJurisdiction = overrides.jurisdiction ?? jurisdictionOf(bill);
  const voteJurisdiction =
    (rawJurisdiction === null ? null : normalizeJurisdiction(rawJurisdiction)) ?? '?';
  const votes = [...objects(field(bill, 'votes')), ...extraVotes].map((vote) =>
    voteFrom(vote, organizations, voteJurisdiction, members),
  );
  const id = str(field(bill, 'id'));
  const draft: BillDraft = {
    source: 'openstates',
    sourceId: id?.startsWith('ocd-bill') ? id : null,
    jurisdiction: jurisdictionOf(bill),
    session:
      str(field(bill, 'legislative_session')) ??
      str(field(bill, 'session')) ??
      str(fieldAt(bill, 'legislative_session', 'identifier')),
    identifier: str(field(bill, 'identifier')),
    title: str(field(bill, 'title')),
    alternativeTitles: objects(field(bill, 'other_titles')).map((other) =>
      str(field(other, 'title')),
    ),
    summary: str(fieldAt(objects(field(bill, 'abstracts'))[0], 'abstract')),
    introducedDate:
      introduced ??
      toIsoDate(field(bill, 'first_action_date')) ??
      actions.find((action) => action.date !== null)?.date ??
      null,
    status,
    statusDate,
    rawStatus: latest?.text ?? str(field(bill, 'latest_action_description')),
    ...sponsorsFrom(bill),
    subjects: arr(field(bill, 'subject'))
      .map(str)
      .filter((subject): subject is string => subject !== null),
    actions: actions.map(({ date, text, chamber }) => ({ date, text, chamber })),
    texts: chronological(objects(field(bill, 'versions')).map(textFrom)),
    votes: chronological(votes),
    url: safeUrl(field(bill, 'openstates_url')) ?? preferredSource(bill),
  };
  return { draft, members };
}

function voteEventKey(session: string | null, identifier: string | null): string | null {
  if (session === null || identifier === null) return null;
  const numbering = parseBillIdentifier(identifier, null);
  return numbering === null ? null : `${session}|${numbering.type}-${numbering.number}`;
}

/** The bill a scraped vote event belongs to, from bill_identifier or the bill pseudo-id. */
function voteEventBillKey(vote: JsonObject): string | null {
  let identifier = str(field(vote, 'bill_identifier'));
  let session = str(field(vote, 'legislative_session'));
  const pseudo = str(field(vote, 'bill'));
  if (pseudo?.startsWith('~{')) {
    try {
      const reference = JSON.parse(pseudo.slice(1)) as unknown;
      identifier ??= str(field(reference, 'identifier'));
      session ??= str(field(reference, 'legislative_session__identifier'));
    } catch {
      // An unreadable pseudo-id leaves only bill_identifier to go by.
    }
  }
  return voteEventKey(session, identifier);
}

function billKey(bill: JsonObject): string | null {
  return voteEventKey(
    str(field(bill, 'legislative_session')) ?? str(field(bill, 'session')),
    str(field(bill, 'identifier')),
  );
}

/** A bill to read, with the file it is in and the record an outcome names it by. */
interface PendingBill {
  file: string;
  record: string | null;
  bill: JsonObject;
}

/**
 * One JSON file of Open States: its bills into `bills`, a vote event into `voteEvents` under the
 * key of the bill it belongs to; yields the failure of a file or a list entry that is neither.
 */
function* readJsonFile(
  file: ImportFile,
  bills: PendingBill[],
  voteEvents: Map<string, JsonObject[]>,
): Generator<RecordOutcome> {
  const parsed = parseJsonBytes(file.bytes);
  if (!parsed.ok) {
    yield failure(file.name, null, parsed.reason);
    return;
  }
  const value = parsed.value;
  switch (openStatesJsonRole(value)) {
    case 'bill':
      bills.push({
        file: file.name,
        record: str(field(value, 'identifier')),
        bill: value as JsonObject,
      });
      break;
    case 'vote-event': {
      const key = voteEventBillKey(value as JsonObject);
      if (key === null) {
        yield failure(file.name, str(field(value, 'identifier')), 'vote event names no bill');
        break;
      }
      voteEvents.set(key, [...(voteEvents.get(key) ?? []), value as JsonObject]);
      break;
    }
    case 'bill-list': {
      const list = Array.isArray(value) ? value : arr(field(value, 'results'));
      for (const [index, item] of list.entries()) {
        const record = str(field(item, 'identifier')) ?? `result ${index + 1}`;
        if (isOpenStatesBill(item)) bills.push({ file: file.name, record, bill: item });
        else yield failure(file.name, record, 'not an Open States bill');
      }
      break;
    }
    case null:
      yield failure(file.name, null, 'not an Open States bill or vote event');
  }
}

/** The bulk export's organizations table: each organization's classification by its id. */
function organizationsOf(tables: ReadonlyMap<OpenStatesCsvRole, Table[]>): Map<string, string> {
  const organizations = new Map<string, string>();
  for (const { values: row } of (tables.get('organizations') ?? []).flatMap(
    (table) => table.rows,
  )) {
    const id = row.get('id');
    const classification = row.get('classification');
    if (id && classification) organizations.set(id, classification);
  }
  return organizations;
}

/** Bills from Open States scrape JSON, API v3 JSON and bulk CSV, one outcome per bill. */
export function* readOpenStatesRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): Generator<RecordOutcome> {
  const bills: PendingBill[] = [];
  const voteEvents = new Map<string, JsonObject[]>();
  const tables = new Map<OpenStatesCsvRole, Table[]>();
  for (const file of files) {
    const head = decodeUtf8Head(file.bytes);
    if (looksLikeJson(head)) {
      yield* readJsonFile(file, bills, voteEvents);
      continue;
    }
    const text = decodeUtf8(file.bytes);
    const table = parseCsvTable(text);
    const role = openStatesCsvRole(table.header, file.name);
    if (role === null) {
      yield failure(file.name, null, 'not an Open States bulk CSV table');
      continue;
    }
    for (const problem of table.problems)
      yield failure(file.name, `line ${problem.line}`, problem.reason);
    if (role === 'other') continue;
    tables.set(role, [...(tables.get(role) ?? []), { file: file.name, rows: table.rows }]);
  }

  const organizations = organizationsOf(tables);
  for (const { file, line, bill } of billsFromCsv(tables)) {
    const identifier = str(field(bill, 'identifier'));
    bills.push({
      file,
      record: `line ${line}${identifier === null ? '' : ` (${identifier})`}`,
      bill,
    });
  }

  for (const { file, record, bill } of bills) {
    yield guarded(file, record, () => {
      const key = billKey(bill);
      const { draft, members } = openStatesRecord(
        bill,
        key === null ? [] : (voteEvents.get(key) ?? []),
        organizations,
        overrides,
      );
      return withMembers(outcomeFromDraft(file, record, draft, overrides), members);
    });
  }
}

export function importOpenStates(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readOpenStatesRecords(files, overrides));
}
