import { z } from 'zod';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { LEGISCAN_API_URL, LegiscanApiError } from './legiscan-api.ts';
import { OPENSTATES_API_URL, OpenStatesApiError } from './openstates-api.ts';

// The sessions a source lists for a state, so the add-dataset form offers them by name instead of
// asking for the source's internal number (issue 40: nothing tells a person that Georgia's
// 2023–2024 session is LegiScan's 2008). Each answer is read into the same typed list, newest
// first; the form stores the chosen session's `id` where it stored the typed one, so the import
// and refresh paths do not change.
//
// LegiScan's getSessionList (its API manual), the key in the query string as every operation:
//
//   ?key=KEY&op=getSessionList&state=GA
//     {"status":"OK","sessions":[{"session_id":2008,"state_id":10,"year_start":2023,
//       "year_end":2024,"prefile":0,"sine_die":0,"prior":0,"special":0,
//       "session_tag":"Regular Session","session_title":"2023-2024 Regular Session",
//       "session_name":"2023-2024 Regular Session","dataset_hash":"…"}, …]}
//
// Open States API v3's jurisdiction detail (its `jurisdiction_id` may be the name, the
// abbreviation or the ocd-jurisdiction id, slashes and all), the key in X-API-KEY:
//
//   /jurisdictions/Georgia?include=legislative_sessions
//     {"id":"ocd-jurisdiction/country:us/state:ga/government","name":"Georgia",…,
//      "legislative_sessions":[{"identifier":"2023_24","name":"2023-2024 Regular Session",
//        "classification":"primary","start_date":"2023-01-09","end_date":"2024-04-01"}, …]}
//
// Both answers come from outside: a body past SESSION_LIST_MAX_BYTES, more sessions than any
// legislature has held, or a field too long is refused with words rather than drawn.

/** One session as the form offers it. */
export interface SourceSession {
  /** What the dataset stores: LegiScan's `session_id` as text, Open States' `identifier`. */
  id: string;
  /** The session in words: "2023–2024 Regular Session", "2024 First Special Session". */
  label: string;
  special: boolean;
}

/** A session list is a few kilobytes; an answer past this is not one. */
export const SESSION_LIST_MAX_BYTES = 1024 * 1024;
/** Sessions a list holds at most: LegiScan lists about 30 a state since 2009. */
export const SESSION_LIST_MAX_SESSIONS = 1000;

/** Control and bidirectional-override characters, which have no place in a session's name. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE_CHAR = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNPRINTABLE = new RegExp(UNPRINTABLE_CHAR.source, 'g');

/** A name as it is shown: printable, spaces collapsed, a year range with an en dash. */
function cleanName(name: string | undefined): string {
  return (name ?? '')
    .replace(UNPRINTABLE, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b(\d{4})\s*[-–]\s*(\d{4})\b/g, '$1–$2');
}

/** The label, with "(special session)" when the source says special and its name does not. */
function labelled(name: string, special: boolean): string {
  return special && !/special|extraordinary/i.test(name) ? `${name} (special session)` : name;
}

/** The entries whose id was not listed before them: a list names each session once. */
function firstOfEach<T>(entries: readonly T[], id: (entry: T) => string | number): T[] {
  const seen = new Set<string | number>();
  return entries.filter((entry) => {
    if (seen.has(id(entry))) return false;
    seen.add(id(entry));
    return true;
  });
}

/** Two sessions named alike (it happens) are told apart by their ids. */
function distinct(sessions: SourceSession[]): SourceSession[] {
  const counts = new Map<string, number>();
  for (const session of sessions) counts.set(session.label, (counts.get(session.label) ?? 0) + 1);
  return sessions.map((session) =>
    (counts.get(session.label) ?? 0) > 1
      ? { ...session, label: `${session.label} (${session.id})` }
      : session,
  );
}

/** The answer's JSON, or undefined when it is too large or not JSON. */
function readJson(body: Uint8Array): unknown {
  return body.length > SESSION_LIST_MAX_BYTES ? undefined : jsonOrUndefined(body);
}

// LegiScan

/** getSessionList for one state. */
export function legiscanSessionListUrl(key: string, state: string): string {
  return `${LEGISCAN_API_URL}?key=${encodeURIComponent(key)}&op=getSessionList&state=${encodeURIComponent(state)}`;
}

const year = z.number().int().min(1700).max(2300);

const legiscanSessionSchema = z.object({
  session_id: z.number().int().positive().max(999_999_999),
  year_start: year.optional(),
  year_end: year.optional(),
  special: z.number().int().optional(),
  session_title: z.string().max(300).optional(),
  session_name: z.string().max(300).optional(),
});
type LegiscanSession = z.infer<typeof legiscanSessionSchema>;

const legiscanSessionListSchema = z.object({
  status: z.literal('OK'),
  sessions: z.array(legiscanSessionSchema).max(SESSION_LIST_MAX_SESSIONS),
});

const legiscanRefusalSchema = z.object({
  status: z.literal('ERROR'),
  alert: z.object({ message: z.string() }).optional(),
});

function legiscanYears(session: LegiscanSession): string | null {
  const { year_start: start, year_end: end } = session;
  if (start === undefined && end === undefined) return null;
  if (start === undefined || end === undefined || start === end) return String(start ?? end);
  return `${start}–${end}`;
}

function legiscanLabel(session: LegiscanSession): string {
  const special = session.special === 1;
  const named = cleanName(session.session_title) || cleanName(session.session_name);
  if (named !== '') return labelled(named, special);
  const years = legiscanYears(session);
  if (years === null) return `Session ${session.session_id}`;
  return `${years} ${special ? 'Special Session' : 'Regular Session'}`;
}

/** Newest first: the later end, then the later start, then LegiScan's later (larger) id. */
function newerLegiscan(a: LegiscanSession, b: LegiscanSession): number {
  return (
    (b.year_end ?? b.year_start ?? 0) - (a.year_end ?? a.year_start ?? 0) ||
    (b.year_start ?? b.year_end ?? 0) - (a.year_start ?? a.year_end ?? 0) ||
    b.session_id - a.session_id
  );
}

/** getSessionList's answer, newest first; throws a LegiscanApiError saying why there is none. */
export function parseLegiscanSessionList(body: Uint8Array): SourceSession[] {
  const json = readJson(body);
  const refused = legiscanRefusalSchema.safeParse(json);
  if (refused.success) {
    const said = cleanName(refused.data.alert?.message).slice(0, 300);
    const reason = said === '' ? 'no reason given' : said.replace(/\.$/, '');
    throw new LegiscanApiError(
      'refused',
      `LegiScan refused to list the sessions: ${reason}.${/\bkey\b/i.test(reason) ? ' Check your LegiScan API key under Settings on the More tab.' : ''}`,
    );
  }
  const parsed = legiscanSessionListSchema.safeParse(json);
  if (!parsed.success) {
    throw new LegiscanApiError(
      'unexpected',
      body.length > SESSION_LIST_MAX_BYTES
        ? "LegiScan's list of sessions is larger than any such list; Docket did not read it."
        : 'LegiScan answered the list of sessions with something Docket cannot read.',
    );
  }
  const sessions = firstOfEach(parsed.data.sessions, (session) => session.session_id).sort(
    newerLegiscan,
  );
  return distinct(
    sessions.map((session) => ({
      id: String(session.session_id),
      label: legiscanLabel(session),
      special: session.special === 1,
    })),
  );
}

// Open States

/** The jurisdiction's detail with its legislative sessions. */
export function openStatesJurisdictionUrl(jurisdiction: string): string {
  const path = jurisdiction.trim().split('/').map(encodeURIComponent).join('/');
  return `${OPENSTATES_API_URL}jurisdictions/${path}?include=legislative_sessions`;
}

const date = z.string().max(40).optional();

const openStatesSessionSchema = z.object({
  identifier: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((identifier) => !UNPRINTABLE_CHAR.test(identifier)),
  name: z.string().max(300).optional(),
  classification: z.string().max(50).optional(),
  start_date: date,
  end_date: date,
});
type OpenStatesSession = z.infer<typeof openStatesSessionSchema>;

const openStatesJurisdictionSchema = z.object({
  legislative_sessions: z.array(openStatesSessionSchema).max(SESSION_LIST_MAX_SESSIONS),
});

/** A session's date as YYYY-MM-DD, or null when it has none (Open States gives "" then). */
function dayOf(text: string | undefined): string | null {
  return /^\d{4}-\d{2}-\d{2}/.exec(text ?? '')?.[0] ?? null;
}

/** The jurisdiction's sessions, newest first: by start date, then end date; sessions without
 *  dates after them, the last listed first (Open States lists a jurisdiction's sessions oldest
 *  first). Throws an OpenStatesApiError when the answer is not such a list. */
export function parseOpenStatesSessions(body: Uint8Array): SourceSession[] {
  const parsed = openStatesJurisdictionSchema.safeParse(readJson(body));
  if (!parsed.success) {
    throw new OpenStatesApiError(
      body.length > SESSION_LIST_MAX_BYTES ? 'too-large' : 'unexpected',
      body.length > SESSION_LIST_MAX_BYTES
        ? "Open States' list of sessions is larger than any such list; Docket did not read it."
        : 'Open States answered the list of sessions with something Docket cannot read.',
    );
  }
  const listed = firstOfEach(parsed.data.legislative_sessions, (session) => session.identifier);
  const key = (session: OpenStatesSession) => dayOf(session.start_date) ?? dayOf(session.end_date);
  const dated = listed
    .filter((session) => key(session) !== null)
    .sort(
      (a, b) =>
        (key(b) ?? '').localeCompare(key(a) ?? '') ||
        (dayOf(b.end_date) ?? '').localeCompare(dayOf(a.end_date) ?? ''),
    );
  const undated = listed.filter((session) => key(session) === null).reverse();
  return distinct(
    [...dated, ...undated].map((session) => {
      const special = session.classification === 'special';
      const named = cleanName(session.name);
      return {
        id: session.identifier,
        label: labelled(named === '' ? `Session ${session.identifier}` : named, special),
        special,
      };
    }),
  );
}

/** What a refused request for the sessions says: FastAPI's `detail`, with the status. */
export function openStatesSessionsRefusal(
  status: number,
  body: Uint8Array,
  jurisdiction: string,
): OpenStatesApiError {
  const json = readJson(body);
  const detail =
    typeof json === 'object' && json !== null && 'detail' in json && typeof json.detail === 'string'
      ? cleanName(json.detail).slice(0, 300)
      : null;
  if (status === 401 || status === 403) {
    return new OpenStatesApiError(
      'refused',
      `Open States refused the API key: ${(detail ?? `it answered ${status}`).replace(/\.$/, '')}. Check your Open States API key under Settings on the More tab.`,
    );
  }
  if (status === 404) {
    return new OpenStatesApiError(
      'unexpected',
      `Open States knows no jurisdiction "${cleanName(jurisdiction).slice(0, 200)}". Enter it as Open States names it: "Alaska", "ak" or its ocd-jurisdiction id.`,
    );
  }
  return new OpenStatesApiError(
    'unexpected',
    `Open States answered ${status} for the list of sessions${detail === null || detail === '' ? '.' : `: ${detail}`}`,
  );
}
