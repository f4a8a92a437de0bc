import { z } from 'zod';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { rateLimitedMessage } from './source-api.ts';

// The congress.gov API v3 (https://api.congress.gov, LibraryOfCongress/api.congress.gov's
// Documentation/BillEndpoint.md), the operations a dataset of one Congress's bills of one type
// needs, each a GET with the user's api.data.gov key in the X-Api-Key header:
//
//   /v3/bill/118/hr?format=json&offset=0&limit=250&fromDateTime=2025-01-01T00:00:00Z
//     {"bills":[{"congress":118,"number":"3076","type":"HR","updateDate":"2025-01-02",
//       "url":"https://api.congress.gov/v3/bill/118/hr/3076?format=json", …}, …],
//      "pagination":{"count":1204,"next":"…"}}
//   /v3/bill/118/hr/3076?format=json
//     {"bill":{"congress":118,"number":"3076","type":"HR","introducedDate":"…","title":"…",
//       "latestAction":{"actionDate":"…","text":"…"},"sponsors":[{…}],"policyArea":{"name":"…"},
//       "laws":[{"number":"117-108","type":"Public Law"}],
//       "actions":{"count":30,"url":"…"},"cosponsors":{"count":2,"url":"…"},
//       "textVersions":{"count":4,"url":"…"},"subjects":{"count":9,"url":"…"},
//       "summaries":{"count":3,"url":"…"}, …}}
//   /v3/bill/118/hr/3076/actions       {"actions":[{"actionCode","actionDate","text",
//                                        "sourceSystem":{"code","name"}, …}], "pagination"}
//   /v3/bill/118/hr/3076/cosponsors    {"cosponsors":[{"bioguideId","fullName","party",…}], …}
//   /v3/bill/118/hr/3076/text          {"textVersions":[{"date","type","formats":[{"type","url"}]}]}
//   /v3/bill/118/hr/3076/subjects      {"subjects":{"legislativeSubjects":[{"name"}],
//                                        "policyArea":{"name"}}}
//   /v3/bill/118/hr/3076/summaries     {"summaries":[{"actionDate","text","updateDate",…}]}
//
// Lists are paged by `offset` and `limit` (250 at most). The first import reads every bill of the
// Congress and type; a refresh only those updated `fromDateTime` the time the last import asked,
// and the import keeps the dataset's other bills. The API's names are BILLSTATUS's (the bulk form
// of the same records), so each bill is written as a BILLSTATUS 3.0.0 document and read by the
// BILLSTATUS importer: the same bills, with the same ids, as GovInfo's bulk data gives. The API
// allows 5,000 requests an hour: one import reads at most 800 bills, a longer list (sorted by
// `updateDate`, oldest first) in whole days, the next refresh going on from the first day left;
// a 429's Retry-After is honoured.

export const CONGRESS_API_URL = 'https://api.congress.gov/v3/';
/** The most `limit` allows. */
export const CONGRESS_API_PAGE = 250;
/** Bills one import reads at most: up to six requests each, within the API's 5,000 an hour. A
 *  list longer than this is read in days of `updateDate`, oldest first, the next import going on
 *  from the first day not read (congressBillsToRead). */
export const CONGRESS_API_MAX_BILLS = 800;
/** Pages of the list one import walks at most (250 bills each). */
export const CONGRESS_API_MAX_LIST_PAGES = 200;

/** The parts of a bill read from their own lists, as the detail names them. */
export const congressBillParts = [
  'actions',
  'cosponsors',
  'textVersions',
  'subjects',
  'summaries',
] as const;
export type CongressBillPart = (typeof congressBillParts)[number];

/** Each part's path under the bill, where it differs from its name. */
const partPath: Record<CongressBillPart, string> = {
  actions: 'actions',
  cosponsors: 'cosponsors',
  textVersions: 'text',
  subjects: 'subjects',
  summaries: 'summaries',
};

/** `fromDateTime` as the API takes it: whole seconds, UTC. */
export function congressApiDateTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19)}Z`;
}

/** A page of a Congress's bills of one type, those updated since a time when given. */
export function congressBillListUrl(
  congress: number,
  billType: string,
  offset: number,
  updatedSince: string | null,
): string {
  const since = updatedSince === null ? '' : `&fromDateTime=${congressApiDateTime(updatedSince)}`;
  // Oldest update first, so a list longer than one import reads is read on from where it stopped.
  return `${CONGRESS_API_URL}bill/${congress}/${billType}?format=json&offset=${offset}&limit=${CONGRESS_API_PAGE}&sort=updateDate+asc${since}`;
}

/** A bill's detail, or a page of one of its parts. */
export function congressBillUrl(
  congress: number,
  billType: string,
  number: string,
  part: CongressBillPart | null = null,
  offset = 0,
): string {
  const base = `${CONGRESS_API_URL}bill/${congress}/${billType}/${encodeURIComponent(number)}`;
  return part === null
    ? `${base}?format=json`
    : `${base}/${partPath[part]}?format=json&offset=${offset}&limit=${CONGRESS_API_PAGE}`;
}

/** Why congress.gov gave no bills, in words the job shows as they are. */
export class CongressApiError extends Error {
  constructor(
    readonly code: 'missing-key' | 'refused' | 'unexpected' | 'rate-limited' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'CongressApiError';
  }
}

export const CONGRESS_MISSING_KEY =
  'Add your Congress.gov API key in Settings (on the More tab) to import this dataset.';

const paginationSchema = z.object({ count: z.number().int().nonnegative().optional() }).optional();

const listSchema = z.object({
  bills: z.array(
    z.object({
      congress: z.union([z.number(), z.string()]),
      number: z.union([z.string(), z.number()]).transform(String),
      type: z.string(),
      updateDate: z.string().optional(),
    }),
  ),
  pagination: paginationSchema,
});

export interface CongressListedBill {
  number: string;
  type: string;
  /** When congress.gov last changed it ("2022-09-29" or with a time), as listed. */
  updateDate: string | null;
}

export interface CongressListPage {
  bills: CongressListedBill[];
  /** Bills the whole list holds, when the API says. */
  count: number | null;
}

function unreadable(what: string): CongressApiError {
  return new CongressApiError(
    'unexpected',
    `congress.gov answered the ${what} with something Docket cannot read.`,
  );
}

/** A page of the list of bills; throws when it is not one. */
export function parseCongressBillList(body: Uint8Array): CongressListPage {
  const parsed = listSchema.safeParse(jsonOrUndefined(body));
  if (!parsed.success) throw unreadable('list of bills');
  return {
    bills: parsed.data.bills.map((bill) => ({
      number: bill.number,
      type: bill.type.toLowerCase(),
      updateDate: bill.updateDate ?? null,
    })),
    count: parsed.data.pagination?.count ?? null,
  };
}

export interface CongressRead {
  /** The bills to read now. */
  bills: CongressListedBill[];
  /** Where the next refresh goes on from: null when every listed bill is read (the next one asks
   *  from the time this one asked), else the first day of `updateDate` not read, ISO. */
  resumeFrom: string | null;
}

/**
 * Which listed bills one import reads: all of them when they are at most CONGRESS_API_MAX_BILLS;
 * else whole days of `updateDate`, oldest first, up to that many, and the next refresh goes on
 * from the first day left (a bill changed again since has a later day, so none is missed). A
 * single day with more than that is refused.
 */
export function congressBillsToRead(listed: readonly CongressListedBill[]): CongressRead {
  if (listed.length <= CONGRESS_API_MAX_BILLS) return { bills: [...listed], resumeFrom: null };
  const day = (bill: CongressListedBill) => (bill.updateDate ?? '').slice(0, 10);
  const sorted = [...listed].sort((a, b) => day(a).localeCompare(day(b)));
  let end = 0;
  while (end < sorted.length) {
    const current = day(sorted[end] as CongressListedBill);
    let next = end;
    while (next < sorted.length && day(sorted[next] as CongressListedBill) === current) next++;
    if (next > CONGRESS_API_MAX_BILLS) break;
    end = next;
  }
  const first = sorted[end];
  if (end === 0 || first === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(day(first))) {
    throw new CongressApiError(
      'too-large',
      `congress.gov lists more than ${CONGRESS_API_MAX_BILLS} bills changed on one day; Docket reads at most that many in one import through the API (it allows 5,000 requests an hour). For a whole Congress, add the dataset from GovInfo bulk data.`,
    );
  }
  return { bills: sorted.slice(0, end), resumeFrom: `${day(first)}T00:00:00.000Z` };
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A bill's detail (`bill`); throws when it is not one. */
export function parseCongressBill(body: Uint8Array): Json {
  const json = jsonOrUndefined(body);
  const bill = isJson(json) ? json.bill : undefined;
  if (!isJson(bill)) throw unreadable('bill');
  return bill;
}

/** How many of a part the detail says there are (0 when it lists none). */
export function congressPartCount(bill: Json, part: CongressBillPart): number {
  const value = bill[part];
  if (!isJson(value)) return 0;
  return typeof value.count === 'number' ? value.count : 0;
}

/** A page of a bill's part: its items (subjects: its one object), and the list's count. */
export function parseCongressPart(
  body: Uint8Array,
  part: CongressBillPart,
): { items: unknown[]; count: number | null } {
  const json = jsonOrUndefined(body);
  if (!isJson(json)) throw unreadable(`bill's ${part}`);
  const value = json[part];
  const count =
    isJson(json.pagination) && typeof json.pagination.count === 'number'
      ? json.pagination.count
      : null;
  if (part === 'subjects') {
    if (!isJson(value)) throw unreadable(`bill's ${part}`);
    return { items: [value], count };
  }
  if (!Array.isArray(value)) throw unreadable(`bill's ${part}`);
  return { items: value, count };
}

/** What a refused request says: api.data.gov's `error.message`, with the status. */
export function congressRefusal(status: number, body: Uint8Array): CongressApiError {
  const json = jsonOrUndefined(body);
  const error = isJson(json) && isJson(json.error) ? json.error : null;
  const message =
    error !== null && typeof error.message === 'string' ? error.message.slice(0, 500) : null;
  if (status === 401 || status === 403) {
    return new CongressApiError(
      'refused',
      `congress.gov refused the API key: ${message ?? `it answered ${status}`}`,
    );
  }
  return new CongressApiError(
    'unexpected',
    `congress.gov answered ${status}${message === null ? '.' : `: ${message}`}`,
  );
}

/** What a 429 that is not waited through says. */
export function congressRateLimited(seconds: number | null): CongressApiError {
  return new CongressApiError('rate-limited', rateLimitedMessage('congress.gov', seconds));
}

// The detail's fields the BILLSTATUS importer reads; the rest (and the detail's references to
// its parts) are left out of the document.
const detailFields = [
  'number',
  'type',
  'congress',
  'introducedDate',
  'updateDate',
  'title',
  'latestAction',
  'sponsors',
  'policyArea',
  'laws',
] as const;

function escapeXml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot hold (C0 controls but tab and line breaks) are dropped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
  );
}

/** A JSON value as BILLSTATUS's markup: an object's fields as elements, a list's members as
 *  <item> (`member` for lists BILLSTATUS names otherwise). */
function xmlOf(name: string, value: unknown, member = 'item'): string {
  if (value === null || value === undefined) return '';
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) return '';
  if (Array.isArray(value)) {
    return `<${name}>${value.map((item) => xmlOf(member, item)).join('')}</${name}>`;
  }
  if (isJson(value)) {
    return `<${name}>${Object.entries(value)
      .map(([key, field]) => xmlOf(key, field))
      .join('')}</${name}>`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return `<${name}>${escapeXml(String(value))}</${name}>`;
  }
  return '';
}

/** One bill from the API (its detail and the parts read) as a BILLSTATUS 3.0.0 document. */
export function congressBillStatusXml(
  bill: Json,
  parts: Partial<Record<CongressBillPart, unknown[]>>,
): string {
  const fields: string[] = [];
  for (const field of detailFields) fields.push(xmlOf(field, bill[field]));
  for (const part of congressBillParts) {
    const items = parts[part];
    if (items === undefined) continue;
    if (part === 'subjects') fields.push(xmlOf('subjects', items[0]));
    else if (part === 'summaries') fields.push(xmlOf('summaries', items, 'summary'));
    else fields.push(xmlOf(part, items));
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<billStatus><version>3.0.0</version><bill>${fields.join('')}</bill></billStatus>\n`;
}
