import { z } from 'zod';
import { field, isObject, jsonOrUndefined } from '../encoding/loose-json.ts';
import { LegiscanApiError } from './legiscan-api.ts';

// LegiScan's API, the operations a refresh of only the changed bills needs (the "LegiScan API
// User Manual": getMasterListRaw, getBill, getRollCall, getPerson). Each is a GET of the one
// address with the operation and the user's key in the query string:
//
//   ?key=KEY&op=getMasterListRaw&id=SESSION_ID
//     {"status":"OK","masterlist":{"0":{"bill_id":1132030,"number":"AB1",
//       "change_hash":"d72444d8f2026219e38cb2179dcc67a0"},"1":{…},…}}
//     (LegiScan also puts the session's own record under "session"; it has no bill_id.)
//   ?key=KEY&op=getBill&id=BILL_ID
//     {"status":"OK","bill":{"bill_id":1167968,"change_hash":"…","session_id":1636,…,
//       "sponsors":[{"people_id":4718,…}],"votes":[{"roll_call_id":806862,…}],…}}
//   ?key=KEY&op=getRollCall&id=ROLL_CALL_ID
//     {"status":"OK","roll_call":{"roll_call_id":234223,"bill_id":460445,"date":"2013-02-20",
//       "desc":"…","yea":2,"nay":1,"nv":1,"absent":1,"total":5,"passed":1,"chamber":"H",
//       "chamber_id":79,"votes":[{"people_id":3709,"vote_id":1,"vote_text":"Yea"},…]}}
//   ?key=KEY&op=getPerson&id=PEOPLE_ID
//     {"status":"OK","person":{"people_id":16788,"person_hash":"1s25cljm","party":"D",
//       "role":"Rep","name":"Joseph Preston","first_name":"Joseph","last_name":"Preston",
//       "district":"HD-063",…}}
//
// "The change_hash is a representation of the current bill status; it should be stored for a
// quick comparison to subsequent getMasterListRaw calls to detect what bills have changed and
// need updating via getBill" (the manual). getBill, getRollCall and getPerson answer exactly as
// a dataset's bill/, vote/ and people/ files are written, so the LegiScan importer reads the
// answers as they come: a getRollCall answer's `votes` are its members' votes, and getPerson says
// who a voter is. A refusal is {"status":"ERROR","alert":{"message":"…"}}.

const API = 'https://api.legiscan.com/';

function apiUrl(params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `${API}?${query}`;
}

/** getMasterListRaw of one session: every bill's bill_id, number and change_hash. */
export function legiscanMasterListRawUrl(key: string, sessionId: number): string {
  return apiUrl({ key, op: 'getMasterListRaw', id: String(sessionId) });
}

/** getBill of one bill. */
export function legiscanBillUrl(key: string, billId: number): string {
  return apiUrl({ key, op: 'getBill', id: String(billId) });
}

/** getRollCall of one vote. */
export function legiscanRollCallUrl(key: string, rollCallId: number): string {
  return apiUrl({ key, op: 'getRollCall', id: String(rollCallId) });
}

/** getPerson of one legislator. */
export function legiscanPersonUrl(key: string, peopleId: number): string {
  return apiUrl({ key, op: 'getPerson', id: String(peopleId) });
}

const id = z.number().int().positive();
const changeHash = z.string().min(1).max(200);

const masterListEntrySchema = z.object({
  bill_id: id,
  number: z.string().max(200).optional(),
  change_hash: changeHash,
});
export type LegiscanMasterListEntry = z.infer<typeof masterListEntrySchema>;

const errorSchema = z.object({
  status: z.literal('ERROR'),
  alert: z.object({ message: z.string() }).optional(),
});

function refusal(json: unknown): string | null {
  const parsed = errorSchema.safeParse(json);
  if (!parsed.success) return null;
  const message = parsed.data.alert?.message.trim() ?? '';
  return message === '' ? 'no reason given' : message.slice(0, 500);
}

function okAnswer(body: Uint8Array, what: string): Record<string, unknown> {
  const json = jsonOrUndefined(body);
  const refused = refusal(json);
  if (refused !== null) {
    throw new LegiscanApiError('refused', `LegiScan refused to send ${what}: ${refused}`);
  }
  if (!isObject(json) || field(json, 'status') !== 'OK') {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered ${what} with something Docket cannot read.`,
    );
  }
  return json;
}

/** getMasterListRaw's answer: each bill's bill_id and change_hash (the session entry skipped). */
export function parseLegiscanMasterListRaw(body: Uint8Array): LegiscanMasterListEntry[] {
  const what = 'the list of bills';
  const masterlist = field(okAnswer(body, what), 'masterlist');
  if (!isObject(masterlist)) {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered ${what} with something Docket cannot read.`,
    );
  }
  const entries: LegiscanMasterListEntry[] = [];
  for (const [name, value] of Object.entries(masterlist)) {
    if (name === 'session') continue;
    const parsed = masterListEntrySchema.safeParse(value);
    if (!parsed.success) {
      throw new LegiscanApiError(
        'unexpected',
        `LegiScan's list of bills has an entry Docket cannot read (${name.slice(0, 40)}).`,
      );
    }
    entries.push(parsed.data);
  }
  return entries;
}

const billSchema = z.object({
  bill_id: id,
  change_hash: changeHash,
  bill_number: z.string().max(200).optional(),
  sponsors: z.array(z.object({ people_id: z.number().int().nonnegative() })).optional(),
  votes: z.array(z.object({ roll_call_id: id })).optional(),
});

/** What a refresh needs of a bill: its change_hash, and the votes and people it names. */
export interface LegiscanBillFacts {
  billId: number;
  changeHash: string;
  /** Its votes' roll_call_ids, in LegiScan's order. */
  rollCallIds: number[];
  /** Its sponsors' people_ids (0, a sponsor LegiScan has no record of, left out). */
  peopleIds: number[];
}

/** The facts of a LegiScan bill object (a getBill answer's `bill`, or a dataset's bill file's). */
export function legiscanBillFacts(bill: unknown): LegiscanBillFacts | null {
  const parsed = billSchema.safeParse(bill);
  if (!parsed.success) return null;
  return {
    billId: parsed.data.bill_id,
    changeHash: parsed.data.change_hash,
    rollCallIds: (parsed.data.votes ?? []).map((vote) => vote.roll_call_id),
    peopleIds: (parsed.data.sponsors ?? [])
      .map((sponsor) => sponsor.people_id)
      .filter((peopleId) => peopleId > 0),
  };
}

/** getBill's answer: the bill's facts, checked to be the bill asked for. */
export function parseLegiscanBill(body: Uint8Array, billId: number): LegiscanBillFacts {
  const what = `bill ${billId}`;
  const facts = legiscanBillFacts(field(okAnswer(body, what), 'bill'));
  if (facts?.billId !== billId) {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered ${what} with something Docket cannot read.`,
    );
  }
  return facts;
}

const rollCallSchema = z.object({ roll_call_id: id, bill_id: id });
const voterSchema = z.object({ people_id: id });

/**
 * getRollCall's answer, checked to be the vote asked for, of the bill it belongs to; the
 * people_ids of its voters (its `votes` list), each once, in LegiScan's order. A voter entry
 * without a usable people_id is passed over, as the importer passes it over.
 */
export function parseLegiscanRollCall(
  body: Uint8Array,
  rollCallId: number,
  billId: number,
): number[] {
  const what = `vote ${rollCallId}`;
  const rollCall = field(okAnswer(body, what), 'roll_call');
  const parsed = rollCallSchema.safeParse(rollCall);
  if (
    !parsed.success ||
    parsed.data.roll_call_id !== rollCallId ||
    parsed.data.bill_id !== billId
  ) {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered ${what} with something Docket cannot read.`,
    );
  }
  const votes = field(rollCall, 'votes');
  const voters = new Set<number>();
  for (const entry of Array.isArray(votes) ? (votes as unknown[]) : []) {
    const voter = voterSchema.safeParse(entry);
    if (voter.success) voters.add(voter.data.people_id);
  }
  return [...voters];
}

const personSchema = z.object({ people_id: id });

/** getPerson's answer, checked to be the person asked for. */
export function parseLegiscanPerson(body: Uint8Array, peopleId: number): void {
  const what = `legislator ${peopleId}`;
  const parsed = personSchema.safeParse(field(okAnswer(body, what), 'person'));
  if (!parsed.success || parsed.data.people_id !== peopleId) {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered ${what} with something Docket cannot read.`,
    );
  }
}
