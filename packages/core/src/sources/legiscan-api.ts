import { z } from 'zod';
import { decodeBase64 } from '../encoding/base64.ts';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { rateLimitedMessage } from './source-api.ts';

// LegiScan's API (https://legiscan.com/legiscan, the "LegiScan API User Manual"), the two
// operations a dataset of a state's session needs. Requests are GETs of one address with the
// operation and the user's key in the query string:
//
//   ?key=KEY&op=getDatasetList&state=AK
//     {"status":"OK","datasetlist":[{"state_id":2,"session_id":1234,"special":0,
//       "year_start":2011,"year_end":2012,"session_name":"27th Legislature",
//       "session_title":"27th Legislature","dataset_hash":"…","dataset_date":"2012-06-03",
//       "dataset_size":123456,"access_key":"…"}, …]}
//   ?key=KEY&op=getDataset&id=SESSION_ID&access_key=ACCESS_KEY
//     {"status":"OK","dataset":{"state_id":2,"session_id":1234,"session_name":"…",
//       "dataset_hash":"…","dataset_date":"…","dataset_size":123456,
//       "mime_type":"application/zip","zip":"<base64 of the dataset ZIP>"}}
//
// A refusal is {"status":"ERROR","alert":{"message":"…"}}. A dataset is rebuilt weekly; its
// `dataset_hash` changes when its contents do, so a refresh whose hash is the one the last import
// kept ends after the list, one request. The key travels in the query string (LegiScan's API
// has no other way), so no URL of this API may be logged, traced or shown: the errors here name
// LegiScan and the operation, never the address.

export const LEGISCAN_API_URL = 'https://api.legiscan.com/';
export const LEGISCAN_API_HOST = 'api.legiscan.com';

/** Whether an address is LegiScan's API, whose query strings carry a key. */
export function isLegiscanApiUrl(url: string): boolean {
  return /^https?:\/\/api\.legiscan\.com(?::\d+)?(?:[/?#]|$)/i.test(url);
}

/** A state of LegiScan's lists: a postal code, or US for Congress. */
export function isLegiscanState(value: string): boolean {
  return /^[A-Z]{2}$/.test(value);
}

function apiUrl(params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `${LEGISCAN_API_URL}?${query}`;
}

/** getDatasetList for one state. */
export function legiscanDatasetListUrl(key: string, state: string): string {
  return apiUrl({ key, op: 'getDatasetList', state });
}

/** getDataset of one session, with the access key the list gave. */
export function legiscanDatasetUrl(key: string, sessionId: number, accessKey: string): string {
  return apiUrl({ key, op: 'getDataset', id: String(sessionId), access_key: accessKey });
}

const errorSchema = z.object({
  status: z.literal('ERROR'),
  alert: z.object({ message: z.string() }).optional(),
});

export const legiscanDatasetEntrySchema = z.object({
  state_id: z.number().int(),
  session_id: z.number().int().positive(),
  special: z.number().int().optional(),
  year_start: z.number().int().optional(),
  year_end: z.number().int().optional(),
  session_name: z.string().optional(),
  session_title: z.string().optional(),
  dataset_hash: z.string().min(1).max(200),
  dataset_date: z.string().optional(),
  dataset_size: z.number().int().nonnegative().optional(),
  access_key: z.string().min(1).max(200),
});
export type LegiscanDatasetEntry = z.infer<typeof legiscanDatasetEntrySchema>;

const datasetListSchema = z.object({
  status: z.literal('OK'),
  datasetlist: z.array(legiscanDatasetEntrySchema),
});

const datasetSchema = z.object({
  status: z.literal('OK'),
  dataset: z.object({
    session_id: z.number().int().positive(),
    session_name: z.string().optional(),
    dataset_hash: z.string().min(1).max(200),
    mime_type: z.string().optional(),
    zip: z.string().min(1),
  }),
});

/** Why LegiScan gave no dataset, in words the job shows as they are. */
export class LegiscanApiError extends Error {
  constructor(
    readonly code:
      'missing-key' | 'refused' | 'unexpected' | 'no-session' | 'rate-limited' | 'over-quota',
    message: string,
  ) {
    super(message);
    this.name = 'LegiscanApiError';
  }
}

export const LEGISCAN_MISSING_KEY =
  'Add your LegiScan API key in Settings (on the More tab) to import this dataset.';

/** An answer's body as LegiScan's refusal says it, or null when it is not one. */
function refusal(json: unknown): string | null {
  const parsed = errorSchema.safeParse(json);
  if (!parsed.success) return null;
  const message = parsed.data.alert?.message.trim() ?? '';
  return message === '' ? 'no reason given' : message.slice(0, 500);
}

/** The datasets getDatasetList lists for a state; throws saying why there are none. */
export function parseLegiscanDatasetList(body: Uint8Array): LegiscanDatasetEntry[] {
  const json = jsonOrUndefined(body);
  const refused = refusal(json);
  if (refused !== null) {
    throw new LegiscanApiError('refused', `LegiScan refused the API key: ${refused}`);
  }
  const parsed = datasetListSchema.safeParse(json);
  if (!parsed.success) {
    throw new LegiscanApiError(
      'unexpected',
      'LegiScan answered the list of datasets with something Docket cannot read.',
    );
  }
  return parsed.data.datasetlist;
}

/** The session's entry of the list; throws, naming the sessions there are, when it is absent. */
export function findLegiscanSession(
  list: readonly LegiscanDatasetEntry[],
  state: string,
  sessionId: number,
): LegiscanDatasetEntry {
  const entry = list.find((item) => item.session_id === sessionId);
  if (entry !== undefined) return entry;
  const offered = list
    .slice(0, 12)
    .map((item) => `${item.session_id} (${legiscanSessionLabel(item)})`)
    .join(', ');
  throw new LegiscanApiError(
    'no-session',
    `LegiScan has no dataset for session ${sessionId} of ${state}.${offered === '' ? '' : ` Its sessions: ${offered}.`}`,
  );
}

/** How a session of the list is named to people. */
export function legiscanSessionLabel(entry: LegiscanDatasetEntry): string {
  const name = entry.session_title ?? entry.session_name;
  if (name !== undefined && name.trim() !== '') return name.trim();
  if (entry.year_start !== undefined && entry.year_end !== undefined) {
    return entry.year_start === entry.year_end
      ? String(entry.year_start)
      : `${entry.year_start}-${entry.year_end}`;
  }
  return `session ${entry.session_id}`;
}

export interface LegiscanDatasetZip {
  hash: string;
  sessionId: number;
  zip: Uint8Array;
}

/** getDataset's answer: the dataset ZIP, decoded; throws saying why there is none. */
export function parseLegiscanDataset(body: Uint8Array): LegiscanDatasetZip {
  const json = jsonOrUndefined(body);
  const refused = refusal(json);
  if (refused !== null) {
    throw new LegiscanApiError('refused', `LegiScan refused to send the dataset: ${refused}`);
  }
  const parsed = datasetSchema.safeParse(json);
  const zip = parsed.success ? decodeBase64(parsed.data.dataset.zip) : null;
  if (!parsed.success || zip === null) {
    throw new LegiscanApiError(
      'unexpected',
      'LegiScan answered the dataset download with something Docket cannot read.',
    );
  }
  return { hash: parsed.data.dataset.dataset_hash, sessionId: parsed.data.dataset.session_id, zip };
}

/** What a 429 that is not waited through says. */
export function legiscanRateLimited(seconds: number | null): LegiscanApiError {
  return new LegiscanApiError('rate-limited', rateLimitedMessage('LegiScan', seconds));
}

// getBillText: one text version of a bill by the doc_id the bill's `texts` list gives it:
//
//   ?key=KEY&op=getBillText&id=DOC_ID
//     {"status":"OK","text":{"doc_id":153588,"bill_id":231132,"date":"2011-01-18",
//       "type":"Introduced","type_id":1,"mime":"application/pdf","mime_id":2,
//       "text_size":7939,"doc":"<base64 of the document>"}}
//
// The document is the state's own, as LegiScan keeps it: HTML, a PDF, or another word processor's
// file; `mime` says which (version-text.ts sniffs the bytes all the same).

/** getBillText of one document. */
export function legiscanBillTextUrl(key: string, docId: number): string {
  return apiUrl({ key, op: 'getBillText', id: String(docId) });
}

const billTextSchema = z.object({
  status: z.literal('OK'),
  text: z.object({
    doc_id: z.number().int().positive(),
    mime: z.string().max(200).optional(),
    doc: z.string().min(1),
  }),
});

export interface LegiscanBillText {
  docId: number;
  /** The document's type as LegiScan gives it ("text/html", "application/pdf"), or null. */
  mime: string | null;
  bytes: Uint8Array;
}

/** getBillText's answer: the document, decoded; throws saying why there is none. */
export function parseLegiscanBillText(body: Uint8Array, docId: number): LegiscanBillText {
  const json = jsonOrUndefined(body);
  const refused = refusal(json);
  if (refused !== null) {
    throw new LegiscanApiError('refused', `LegiScan refused to send the text: ${refused}`);
  }
  const parsed = billTextSchema.safeParse(json);
  const bytes = parsed.success ? decodeBase64(parsed.data.text.doc) : null;
  if (!parsed.success || bytes === null || parsed.data.text.doc_id !== docId) {
    throw new LegiscanApiError(
      'unexpected',
      `LegiScan answered the text of document ${docId} with something Docket cannot read.`,
    );
  }
  return { docId, mime: parsed.data.text.mime ?? null, bytes };
}
