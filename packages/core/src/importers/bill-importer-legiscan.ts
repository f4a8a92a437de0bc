import { decodeBase64 } from '../encoding/base64.ts';
import type {
  BillAction,
  BillDraft,
  BillOverrides,
  BillText,
  BillVote,
  Sponsor,
} from '../bills/bill.ts';
import type { Chamber } from '../bills/bill-vocabulary.ts';
import { chronological, inSourceOrder } from '../bills/bill-merge.ts';
import { safeUrl, toIsoDate } from '../bills/bill-text-cleaning.ts';
import type { Member, MemberVote } from '../bills/member-votes.ts';
import { legiscanVoteOption } from '../bills/member-votes.ts';
import type { BillImportResult, ImportFile, RecordOutcome } from './bill-import-record.ts';
import {
  addMember,
  collectOutcomes,
  failure,
  guardedAll,
  MAX_VOTE_MEMBERS,
  memberEntry,
  memberKey,
  outcomeFromDraft,
  voteMembers,
  withMembers,
} from './bill-import-record.ts';
import { statusFromLegiScan } from '../bills/bill-status-mapping.ts';
import { htmlToText } from '../text/html-to-text.ts';
import type { JsonObject } from '../encoding/loose-json.ts';
import type { FileNotUsed } from './dataset-files-not-used.ts';
import {
  fileNotUsed,
  legiScanBillAbsent,
  legiScanDocumentNotRead,
} from './dataset-files-not-used.ts';
import {
  count,
  field,
  fieldAt,
  isObject,
  num,
  objects,
  parseJsonBytes,
  str,
} from '../encoding/loose-json.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';

// LegiScan (legiscan.com API and datasets). A getBill answer is {"status":"OK","bill":{...}};
// a session dataset ZIP holds one such file per bill under bill/, one getRollCall answer per
// vote under vote/, one getPerson answer per legislator under people/ and, when texts were
// included, one getBillText answer per document under text/ with the document base64-encoded in
// "doc". The bill files already carry sponsor names and vote tallies; the other folders are
// joined in to fill what they lack (sponsor party, vote details, the texts themselves). A roll
// call's `votes` list is each member's vote ('legiscan:<people_id>', member-votes.ts), and the
// people/ files say who those members are: the bill's outcome carries their directory entries.

export type LegiScanRole = 'bill' | 'vote' | 'person' | 'text' | 'error';

/** What kind of LegiScan answer a parsed JSON file is, or null when it is none. */
/** LegiScan's doc_id as a number, or null when it is not a positive integer. */
function docIdOf(value: string | null): number | null {
  if (value === null || !/^[1-9][0-9]{0,14}$/.test(value)) return null;
  return Number(value);
}

export function legiScanRole(value: unknown): LegiScanRole | null {
  if (!isObject(value)) return null;
  if (str(field(value, 'status'))?.toUpperCase() === 'ERROR') return 'error';
  const bill = field(value, 'bill');
  if (
    isObject(bill) &&
    (field(bill, 'bill_id') !== undefined || field(bill, 'bill_number') !== undefined)
  ) {
    return 'bill';
  }
  if (fieldAt(value, 'roll_call', 'roll_call_id') !== undefined) return 'vote';
  if (fieldAt(value, 'person', 'people_id') !== undefined) return 'person';
  if (fieldAt(value, 'text', 'doc_id') !== undefined) return 'text';
  return null;
}

// LegiScan numbers Congress's measures in state style; Docket uses Congress's own types.
const CONGRESS_TYPES: Readonly<Record<string, string>> = {
  HB: 'HR',
  SB: 'S',
  HR: 'HRES',
  SR: 'SRES',
  HJR: 'HJRES',
  SJR: 'SJRES',
  HCR: 'HCONRES',
  SCR: 'SCONRES',
};

function identifierFor(state: string | null, billNumber: string): string {
  if (state !== 'US') return billNumber;
  const match = /^([A-Z]+)\s*(\d+)$/.exec(billNumber.toUpperCase());
  if (!match?.[1] || !match[2]) return billNumber;
  return `${CONGRESS_TYPES[match[1]] ?? match[1]} ${match[2]}`;
}

function chamberFromLegiScan(value: unknown): Chamber | null {
  switch (str(value)?.toUpperCase()) {
    case 'H':
    case 'A':
      return 'lower';
    case 'S':
      return 'upper';
    case 'J':
    case 'L':
      return 'legislature';
    default:
      return null;
  }
}

function sessionFor(state: string | null, bill: JsonObject): string | null {
  const name =
    str(fieldAt(bill, 'session', 'session_name')) ?? str(fieldAt(bill, 'session', 'session_title'));
  if (state === 'US' && name !== null) {
    const congress = /(\d{2,3})(?:st|nd|rd|th)\s+Congress/i.exec(name);
    if (congress?.[1]) return congress[1];
  }
  return name;
}

function sumCounts(...values: (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}

/** A LegiScan people_id as text, or null when it is not a positive integer (0 is "no one"). */
function peopleIdOf(value: unknown): string | null {
  const id = str(value);
  return id !== null && /^[1-9][0-9]{0,14}$/.test(id) ? id : null;
}

/**
 * Each member's vote of a getRollCall answer's `votes` list, in LegiScan's order, keyed
 * 'legiscan:<people_id>'. An entry without a usable people_id is left out; the bill's own `votes`
 * list (totals only) has none.
 */
function rollCallMembers(rollCall: JsonObject): MemberVote[] {
  const members: MemberVote[] = [];
  for (const entry of objects(field(rollCall, 'votes'))) {
    const peopleId = peopleIdOf(field(entry, 'people_id'));
    const key = peopleId === null ? null : memberKey('legiscan', peopleId);
    if (key === null) continue;
    const text = field(entry, 'vote_text');
    members.push([
      key,
      legiscanVoteOption(typeof text === 'string' ? text : null, num(field(entry, 'vote_id'))),
    ]);
    if (members.length === MAX_VOTE_MEMBERS) break;
  }
  return members;
}

function voteFrom(rollCall: JsonObject): BillVote {
  const passed = num(field(rollCall, 'passed'));
  return {
    date: toIsoDate(field(rollCall, 'date')),
    chamber: chamberFromLegiScan(field(rollCall, 'chamber')),
    motion: str(field(rollCall, 'desc')) ?? 'Roll call',
    yes: count(field(rollCall, 'yea')),
    no: count(field(rollCall, 'nay')),
    other: sumCounts(count(field(rollCall, 'nv')), count(field(rollCall, 'absent'))),
    passed: passed === null ? null : passed === 1,
    ...voteMembers(rollCallMembers(rollCall)),
  };
}

/** A getPerson answer's person as a directory entry, or null when it names no one. */
function memberOfPerson(key: string, person: JsonObject): Member | null {
  const fullName = [str(field(person, 'first_name')), str(field(person, 'last_name'))]
    .filter((part) => part !== null)
    .join(' ');
  const text = (name: string) => {
    const value = field(person, name);
    return typeof value === 'string' ? value : null;
  };
  return memberEntry(key, {
    name: str(field(person, 'name')) ?? (fullName === '' ? null : fullName),
    party: text('party'),
    district: text('district'),
    role: text('role'),
  });
}

/**
 * The directory entries of the members the votes name that a people/ file describes, each given
 * once per reading (`side.reported`): a member on 381 roll calls is read from their people file
 * and handed to the directory once, not with every bill they voted on.
 */
function votersOf(votes: readonly BillVote[], side: SideFiles): Map<string, Member> {
  const directory = new Map<string, Member>();
  for (const vote of votes) {
    for (const [key] of vote.members ?? []) {
      if (side.reported.has(key)) continue;
      side.reported.add(key);
      const person = side.people.get(key.slice('legiscan:'.length));
      const member = person === undefined ? null : memberOfPerson(key, person);
      if (member !== null) addMember(directory, member);
    }
  }
  return directory;
}

type DecodedDocument = { ok: true; text: string | null } | { ok: false; reason: string };

/** The text of a getBillText document: decoded for HTML and plain text, none for PDF and Word. */
export function decodeLegiScanDocument(mime: string | null, doc: unknown): DecodedDocument {
  const kind = mime?.toLowerCase() ?? '';
  if (kind !== 'text/html' && kind !== 'text/plain') return { ok: true, text: null };
  if (typeof doc !== 'string') return { ok: false, reason: 'document has no base64 "doc"' };
  const bytes = decodeBase64(doc);
  if (bytes === null) return { ok: false, reason: 'document "doc" is not valid base64' };
  const text = decodeUtf8(bytes);
  return { ok: true, text: kind === 'text/html' ? htmlToText(text) : text };
}

interface SideFiles {
  people: Map<string, JsonObject>;
  /** Members already handed to the directory by this reading. */
  reported: Set<string>;
  votes: Map<string, JsonObject[]>;
  texts: Map<string, { file: string; text: JsonObject }[]>;
}

/** A roll call or text file, with the bill it belongs to. */
interface SideFileOf {
  file: string;
  kind: 'roll call' | 'text';
  billId: string;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function sponsorsFrom(
  bill: JsonObject,
  people: Map<string, JsonObject>,
): { sponsors: Sponsor[]; cosponsors: Sponsor[] } {
  const entries = objects(field(bill, 'sponsors'))
    .map((entry, index) => ({ entry, order: num(field(entry, 'sponsor_order')) ?? index, index }))
    .sort((a, b) => a.order - b.order || a.index - b.index);
  const primary: Sponsor[] = [];
  const generic: Sponsor[] = [];
  const cosponsors: Sponsor[] = [];
  for (const { entry } of entries) {
    const peopleId = str(field(entry, 'people_id'));
    const person = peopleId === null ? undefined : people.get(peopleId);
    const fullName = [str(field(person, 'first_name')), str(field(person, 'last_name'))]
      .filter((part) => part !== null)
      .join(' ');
    const name =
      str(field(entry, 'name')) ??
      str(field(person, 'name')) ??
      (fullName === '' ? null : fullName);
    if (name === null) continue;
    const party = str(field(entry, 'party')) ?? str(field(person, 'party'));
    // sponsor_type_id: 1 primary, 2 co-sponsor, 3 joint sponsor, 0 not stated.
    const type = num(field(entry, 'sponsor_type_id'));
    const role = type === 1 ? 'primary' : type === 2 || type === 3 ? 'cosponsor' : 'sponsor';
    // LegiScan's own label for the seat: "HD-012", "SD-002".
    const district = str(field(entry, 'district')) ?? str(field(person, 'district'));
    const sponsor: Sponsor = {
      name,
      role,
      party,
      ...(district === null ? {} : { district }),
      externalId: peopleId,
    };
    if (role === 'primary') primary.push(sponsor);
    else if (role === 'cosponsor') cosponsors.push(sponsor);
    else generic.push(sponsor);
  }
  return { sponsors: [...primary, ...generic], cosponsors };
}

/** The bill's roll calls: its own entries, each replaced by the vote/ file of the same roll call. */
function votesOf(bill: JsonObject, billId: string | null, side: SideFiles): BillVote[] {
  const votes: BillVote[] = [];
  const voteIndex = new Map<string, number>();
  for (const entry of objects(field(bill, 'votes'))) {
    const id = str(field(entry, 'roll_call_id'));
    if (id !== null) voteIndex.set(id, votes.length);
    votes.push(voteFrom(entry));
  }
  // A vote/ file (getRollCall) replaces the bill's own entry of the same roll_call_id: it has the
  // same totals and, in its `votes`, each member's vote.
  for (const rollCall of billId === null ? [] : (side.votes.get(billId) ?? [])) {
    const id = str(field(rollCall, 'roll_call_id'));
    const at = id === null ? undefined : voteIndex.get(id);
    if (at === undefined) votes.push(voteFrom(rollCall));
    else votes[at] = voteFrom(rollCall);
  }
  return votes;
}

/**
 * The bill's texts: its own entries, each given the document of its text/ file (getBillText) when
 * there is one. A document that cannot be read is left out and reported in `outcomes`; the bill
 * is imported all the same.
 */
function textsOf(
  bill: JsonObject,
  billId: string | null,
  label: string | null,
  side: SideFiles,
  outcomes: RecordOutcome[],
): BillText[] {
  const texts: BillText[] = [];
  const textIndex = new Map<string, number>();
  for (const entry of objects(field(bill, 'texts'))) {
    const docId = str(field(entry, 'doc_id'));
    if (docId !== null) textIndex.set(docId, texts.length);
    const legiscanDoc = docIdOf(docId);
    texts.push({
      date: toIsoDate(field(entry, 'date')),
      type: str(field(entry, 'type')) ?? 'Text',
      url: safeUrl(field(entry, 'state_link')) ?? safeUrl(field(entry, 'url')),
      mimeType: str(field(entry, 'mime')),
      text: null,
      // getBillText serves the document by it (a dataset from LegiScan's API, sources/).
      ...(legiscanDoc === null ? {} : { docId: legiscanDoc }),
    });
  }
  for (const { file: textFile, text } of billId === null ? [] : (side.texts.get(billId) ?? [])) {
    const docId = str(field(text, 'doc_id'));
    const mime = str(field(text, 'mime'));
    const decoded = decodeLegiScanDocument(mime, field(text, 'doc'));
    if (!decoded.ok) {
      // The bill is still imported, without this one text; the damaged document is reported.
      outcomes.push(
        failure(
          textFile,
          docId === null ? label : `document ${docId} of ${label ?? 'a bill'}`,
          decoded.reason,
        ),
      );
      continue;
    }
    const at = docId === null ? undefined : textIndex.get(docId);
    const existing = at === undefined ? undefined : texts[at];
    if (existing && at !== undefined) {
      texts[at] = { ...existing, text: decoded.text, mimeType: existing.mimeType ?? mime };
    } else {
      const legiscanDoc = docIdOf(docId);
      texts.push({
        date: toIsoDate(field(text, 'date')),
        type: str(field(text, 'type')) ?? 'Text',
        url: safeUrl(field(text, 'state_link')) ?? safeUrl(field(text, 'url')),
        mimeType: mime,
        text: decoded.text,
        ...(legiscanDoc === null ? {} : { docId: legiscanDoc }),
      });
    }
  }
  return texts;
}

/** The bill's outcome, preceded by the errors of any of its documents that could not be read. */
function billOutcomes(
  file: string,
  answer: JsonObject,
  side: SideFiles,
  overrides: BillOverrides,
): RecordOutcome[] {
  const outcomes: RecordOutcome[] = [];
  const bill = field(answer, 'bill') as JsonObject;
  const state = str(field(bill, 'state'))?.toUpperCase() ?? null;
  const billNumber = str(field(bill, 'bill_number'));
  const label =
    billNumber === null ? null : [state, billNumber].filter((part) => part !== null).join(' ');
  const billId = str(field(bill, 'bill_id'));

  // LegiScan's history is listed oldest first.
  const actions: BillAction[] = inSourceOrder(
    objects(field(bill, 'history')).map((entry) => {
      const date = toIsoDate(field(entry, 'date'));
      return {
        item: {
          date,
          text: str(field(entry, 'action')) ?? '',
          chamber: chamberFromLegiScan(field(entry, 'chamber')),
        },
        date,
        time: null,
      };
    }),
    { listing: 'oldest-first' },
  );

  const votes = votesOf(bill, billId, side);
  const texts = textsOf(bill, billId, label, side, outcomes);

  const introduced = objects(field(bill, 'progress')).find(
    (event) => num(field(event, 'event')) === 1,
  );
  const title = str(field(bill, 'title'));
  const description = str(field(bill, 'description'));
  const { sponsors, cosponsors } = sponsorsFrom(bill, side.people);
  const status = statusFromLegiScan(
    num(field(bill, 'status')),
    toIsoDate(field(bill, 'status_date')),
    num(field(bill, 'pending_committee_id')),
  );
  const draft: BillDraft = {
    source: 'legiscan',
    sourceId: billId,
    jurisdiction: state === null ? null : state === 'US' ? 'us' : `us-${state.toLowerCase()}`,
    session: sessionFor(state, bill),
    identifier: billNumber === null ? null : identifierFor(state, billNumber),
    title: title ?? description,
    summary: description !== null && description !== title ? description : null,
    introducedDate:
      toIsoDate(field(introduced, 'date')) ?? actions.find((a) => a.date !== null)?.date ?? null,
    ...status,
    sponsors,
    cosponsors,
    subjects: objects(field(bill, 'subjects'))
      .map((subject) => str(field(subject, 'subject_name')))
      .filter((subject): subject is string => subject !== null),
    actions,
    texts,
    votes: chronological(votes),
    url: safeUrl(field(bill, 'url')) ?? safeUrl(field(bill, 'state_link')),
  };
  // Who the voters are, where the dataset's people/ files say: a voter without one keeps the
  // vote and has no directory entry (the app shows the key's person as unknown).
  outcomes.push(
    withMembers(outcomeFromDraft(file, label, draft, overrides), votersOf(votes, side)),
  );
  return outcomes;
}

/**
 * Bills from LegiScan getBill answers and session datasets, one outcome per bill. Roll calls and
 * texts that bring nothing to a bill imported (their bill is not among the files, or a text is a
 * PDF) are told to `onNotUsed`, once every bill has been read.
 */
export function* readLegiScanRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
  onNotUsed?: (notUsed: FileNotUsed) => void,
): Generator<RecordOutcome> {
  const bills: { file: string; answer: JsonObject }[] = [];
  const side: SideFiles = {
    people: new Map(),
    reported: new Set(),
    votes: new Map(),
    texts: new Map(),
  };
  const sideFiles: SideFileOf[] = [];
  const unreadDocuments: { file: string; mime: string | null }[] = [];
  for (const file of files) {
    const parsed = parseJsonBytes(file.bytes);
    if (!parsed.ok) {
      yield failure(file.name, null, parsed.reason);
      continue;
    }
    const value = parsed.value;
    switch (legiScanRole(value)) {
      case 'bill':
        bills.push({ file: file.name, answer: value as JsonObject });
        break;
      case 'person': {
        const person = field(value, 'person') as JsonObject;
        const id = str(field(person, 'people_id'));
        if (id !== null) side.people.set(id, person);
        break;
      }
      case 'vote': {
        const rollCall = field(value, 'roll_call') as JsonObject;
        const billId = str(field(rollCall, 'bill_id'));
        if (billId !== null) {
          pushTo(side.votes, billId, rollCall);
          sideFiles.push({ file: file.name, kind: 'roll call', billId });
        }
        break;
      }
      case 'text': {
        const text = field(value, 'text') as JsonObject;
        const billId = str(field(text, 'bill_id'));
        if (billId !== null) {
          pushTo(side.texts, billId, { file: file.name, text });
          sideFiles.push({ file: file.name, kind: 'text', billId });
          const mime = str(field(text, 'mime'));
          const kind = mime?.toLowerCase();
          if (kind !== 'text/html' && kind !== 'text/plain')
            unreadDocuments.push({ file: file.name, mime });
        }
        break;
      }
      case 'error': {
        const message = str(fieldAt(value, 'alert', 'message')) ?? 'no message';
        yield failure(file.name, null, `LegiScan answered with an error: ${message}`);
        break;
      }
      case null:
        yield failure(file.name, null, 'not a LegiScan bill, roll call, person or text answer');
        break;
    }
  }
  // Votes and texts whose bill is not in this import are left out without an error (a dataset's
  // side folders routinely cover bills the user did not select), but said as not used.
  for (const { file, answer } of bills) {
    const label = str(fieldAt(answer, 'bill', 'bill_number'));
    yield* guardedAll(file, label, () => billOutcomes(file, answer, side, overrides));
  }
  if (onNotUsed === undefined) return;
  tellNotUsed(bills, sideFiles, unreadDocuments, onNotUsed);
}

/**
 * Tells `onNotUsed` of the roll call and text files whose bill is not among `bills`, then of the
 * texts whose document is not read (a PDF), unless their bill was not there either: the absent
 * bill is what a person needs to hear about such a file.
 */
function tellNotUsed(
  bills: readonly { answer: JsonObject }[],
  sideFiles: readonly SideFileOf[],
  unreadDocuments: readonly { file: string; mime: string | null }[],
  onNotUsed: (notUsed: FileNotUsed) => void,
): void {
  const billIds = new Set(bills.map(({ answer }) => str(fieldAt(answer, 'bill', 'bill_id'))));
  const absent = new Set<string>();
  for (const { file, kind, billId } of sideFiles) {
    if (billIds.has(billId)) continue;
    absent.add(file);
    onNotUsed(fileNotUsed(file, legiScanBillAbsent(kind, billId)));
  }
  for (const { file, mime } of unreadDocuments) {
    if (!absent.has(file)) onNotUsed(fileNotUsed(file, legiScanDocumentNotRead(mime)));
  }
}

export function importLegiScan(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
): BillImportResult {
  return collectOutcomes(readLegiScanRecords(files, overrides));
}
