import { z } from 'zod';
import { contentHash } from './canonical-hash.ts';
import { isUsStateCode, jurisdictionFromName, jurisdictionFromOcdId } from './us-jurisdictions.ts';

// The one bill record every importer produces and every screen reads. Sources disagree on almost
// everything (names of fields, status words, identifier spelling, date formats); this module is
// where they are made to agree, and the schema below is the gate every bill passes through before
// anyone else sees it.

/** The common status vocabulary; each source's own status maps onto it (bill-status-mapping.ts). */
export const billStatuses = [
  'introduced',
  'in-committee',
  'passed-one-chamber',
  'passed-both',
  'enacted',
  'vetoed',
  'failed',
  'other',
] as const;
export type BillStatus = (typeof billStatuses)[number];

/** The format a bill was read from. */
export const billSources = [
  'legiscan',
  'openstates',
  'billstatus',
  'congress-json',
  'docket-csv',
] as const;
export type BillSource = (typeof billSources)[number];

/** Open States' chamber words: upper (Senate), lower (House/Assembly), the whole legislature
 *  (unicameral bodies, joint committees) and the executive (governor, President). */
export const chambers = ['upper', 'lower', 'legislature', 'executive'] as const;
export type Chamber = (typeof chambers)[number];

/** 'sponsor' is for sources that do not say whether a sponsor is the primary one. */
export const sponsorRoles = ['primary', 'sponsor', 'cosponsor'] as const;
export type SponsorRole = (typeof sponsorRoles)[number];

/** Size limits: generous for real legislation, small enough that a hostile file cannot make one
 *  record hold the whole heap. A record over a limit is refused with the field's name. */
export const billLimits = {
  shortText: 500,
  title: 20_000,
  actionText: 20_000,
  summary: 5_000_000,
  textBody: 20_000_000,
  url: 2_000,
  listItems: 20_000,
} as const;

export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/**
 * YYYY-MM-DD from the date forms sources use: '2019-01-03', '2019-01-03T05:00:00Z',
 * '2025-01-03T23:21:55+00:00', '2012-02-21 00:00:00' and US '01/03/2019'. The calendar date is
 * the one written in the source (its own time zone), which is what the legislature meant.
 * Anything else, including LegiScan's '0000-00-00', is no date.
 */
export function toIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(text);
  if (iso?.[1]) return isIsoDate(iso[1]) ? iso[1] : null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (us?.[1] && us[2] && us[3]) {
    const date = `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
    return isIsoDate(date) ? date : null;
  }
  return null;
}

// Control characters other than tab and newline have no business in bill text, and some of
// them break terminals, CSV readers and XML writers downstream.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

// Whatever cleanLine would change: a control character, whitespace other than a plain space, two
// spaces in a row, or a space at either end. Most text has none of these and is returned as it is
// (no flag: `test` on a global regex would carry its position from one call to the next).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_TO_CLEAN = /[\u0000-\u001F\u007F]|[^\S ]| {2}|^ | $/;

/** One line of text: whitespace runs become one space; empty becomes null. */
export function cleanLine(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!LINE_TO_CLEAN.test(value)) return value === '' ? null : value;
  const text = value.replace(CONTROL_CHARACTERS, '').replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** A block of text: line breaks kept, trailing spaces and runs of blank lines trimmed. */
export function cleanBlock(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const lines = value.replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '').split('\n');
  // trimEnd per line rather than a regex: a regex over a long run of spaces backtracks badly.
  const text = lines
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' ? null : text;
}

/** Only http(s) links survive: a bill file must not be able to plant a javascript: link. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (url.length > billLimits.url || !/^https?:\/\/[^\s]+$/i.test(url)) return null;
  return url;
}

/**
 * 'us' for Congress and 'us-<code>' for states and territories. Accepts those forms, a bare
 * postal code ('CA'), a name ('North Carolina') or an Open Civic Data id; other lower-case
 * codes such as 'ca-on' pass through for non-US sources.
 */
export function normalizeJurisdiction(value: string): string | null {
  const text = value.trim();
  const lower = text.toLowerCase();
  if (lower === 'us') return 'us';
  if (/^[a-z]{2}$/.test(lower)) return isUsStateCode(lower) ? `us-${lower}` : null;
  if (/^us-[a-z]{2}$/.test(lower)) return isUsStateCode(lower.slice(3)) ? lower : null;
  if (lower.startsWith('ocd-')) return jurisdictionFromOcdId(lower);
  if (/^[a-z]{2}(-[a-z0-9]{1,12}){1,2}$/.test(lower)) return lower;
  return jurisdictionFromName(text);
}

/** A bill's type and number, the parts its id is built from. */
export interface BillNumbering {
  /** Lower case letters (and digits after the first letter): 'sjres', 'hb', 'sbx2'. */
  type: string;
  /** Digits without leading zeros, then an optional upper-case letter: '1', '1044', '12A'. */
  number: string;
}

const CONGRESS_LABELS: Readonly<Record<string, string>> = {
  hr: 'H.R.',
  s: 'S.',
  hres: 'H.Res.',
  sres: 'S.Res.',
  hjres: 'H.J.Res.',
  sjres: 'S.J.Res.',
  hconres: 'H.Con.Res.',
  sconres: 'S.Con.Res.',
};

// Only the spelling GovInfo itself uses ('H' for a House bill) is an alias; other sources'
// private vocabularies (LegiScan's 'HB' for H.R.) are translated in their importers.
const CONGRESS_ALIASES: Readonly<Record<string, string>> = { h: 'hr' };

// States' bill types written out in words, as legislatures' own pages and journals write them
// ("House Bill 5", "Senate Joint Resolution 3"), to the abbreviations their numbering uses.
const STATE_LONG_FORMS: readonly [RegExp, string][] = [
  [/^(HOUSE|SENATE|ASSEMBLY) JOINT RESOLUTION\b/, '$1JR'],
  [/^(HOUSE|SENATE|ASSEMBLY) CONCURRENT RESOLUTION\b/, '$1CR'],
  [/^(HOUSE|SENATE|ASSEMBLY) (BILL|RESOLUTION|FILE)\b/, '$1$2'],
  [/^LEGISLATIVE (BILL|DOCUMENT)\b/, 'L$1'],
];
const CHAMBER_LETTERS: Readonly<Record<string, string>> = {
  HOUSE: 'H',
  SENATE: 'S',
  ASSEMBLY: 'A',
  BILL: 'B',
  RESOLUTION: 'R',
  FILE: 'F',
  DOCUMENT: 'D',
};

function stateLongForm(text: string): string {
  for (const [pattern, replacement] of STATE_LONG_FORMS) {
    if (!pattern.test(text)) continue;
    return text.replace(pattern, (...groups: unknown[]) =>
      replacement.replace(/\$(\d)/g, (_, at: string) => {
        const word = groups[Number(at)];
        return typeof word === 'string' ? (CHAMBER_LETTERS[word] ?? word) : '';
      }),
    );
  }
  return text;
}

/**
 * Splits an identifier as people and sources write it ("S.J.Res. 1", "SJRES 1", "sjres1",
 * "HB 1044", "SBX2 5", Texas's "S.B. No. 5", "HB0001", "SB 2-A", and for states "House Bill 5")
 * into type and number. Dots, hyphens and underscores are ignored, and so is a number sign
 * ("No.", "#"); a space before a digit, when there is one, marks where the number starts, which
 * keeps "SBX2 5" apart from "SBX 25". Returns null for anything that is not letters followed by a
 * number.
 */
export function parseBillIdentifier(
  raw: string,
  jurisdiction: string | null,
): BillNumbering | null {
  if (raw.length > 100) return null;
  const spaced = raw
    .normalize('NFKC')
    .toUpperCase()
    // Between digits a hyphen or dot joins them, as it always has (ids must not move).
    .replace(/(\d)[.\-_](?=\d)/g, '$1')
    .replace(/[.\-_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    // "S.B. No. 5", "HB #12": the number sign is no part of the type.
    .replace(/ ?(?:\bNO|\bNUMBER|#) ?(?=\d)/, ' ')
    .trim();
  const worded = jurisdiction === 'us' ? spaced : stateLongForm(spaced);
  const compact = worded
    // Hyphens and dots join ("H-1234", "S.J.Res.1"); a space only where one was written.
    .replace(/(\d) (?=[A-Z]$)/, '$1')
    // "S. J. Res. 1" is written with spaces between the letter groups.
    .replace(/([A-Z]) (?=[A-Z])/g, '$1');
  const match = /^([A-Z][A-Z0-9]*?) ?0*(\d+)([A-Z]?)$/.exec(compact);
  if (!match?.[1] || match[2] === undefined) return null;
  let type = match[1].toLowerCase();
  if (jurisdiction === 'us') type = CONGRESS_ALIASES[type] ?? type;
  if (type.length > 20 || match[2].length > 10) return null;
  return { type, number: `${match[2]}${match[3] ?? ''}` };
}

/** The identifier as people write it: "S.J.Res. 1" for Congress, "HB 1044" for states. */
export function formatBillIdentifier(jurisdiction: string, numbering: BillNumbering): string {
  const label = jurisdiction === 'us' ? CONGRESS_LABELS[numbering.type] : undefined;
  return `${label ?? numbering.type.toUpperCase()} ${numbering.number}`;
}

/** Lower-case letters and digits of a session name, joined by hyphens. */
export function sessionSlug(session: string): string {
  return session
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .replace(/-+$/, '');
}

/**
 * The stable id: jurisdiction, session and normalized type and number, and nothing else, so the
 * same bill read from two sources (or re-imported next week) is the same record.
 * Example: 'us/116/sjres-1'.
 */
export function billId(jurisdiction: string, session: string, numbering: BillNumbering): string {
  return `${jurisdiction}/${sessionSlug(session)}/${numbering.type}-${numbering.number.toLowerCase()}`;
}

const isoDateSchema = z.string().refine(isIsoDate, { message: 'not a YYYY-MM-DD date' });
const textSchema = (max: number) => z.string().min(1).max(max);
const countSchema = z.number().int().min(0).max(1_000_000);
const urlSchema = z
  .string()
  .max(billLimits.url)
  .regex(/^https?:\/\/[^\s]+$/i, { message: 'not an http(s) link' });

export const sponsorSchema = z.strictObject({
  name: textSchema(billLimits.shortText),
  role: z.enum(sponsorRoles),
  party: textSchema(100).nullable(),
  /** The source's id for the person: a bioguide id for Congress, LegiScan's people_id, an
   *  Open States ocd-person id. */
  externalId: textSchema(200).nullable(),
});
export type Sponsor = z.infer<typeof sponsorSchema>;

export const billActionSchema = z.strictObject({
  date: isoDateSchema.nullable(),
  text: textSchema(billLimits.actionText),
  chamber: z.enum(chambers).nullable(),
});
export type BillAction = z.infer<typeof billActionSchema>;

export const billTextSchema = z.strictObject({
  date: isoDateSchema.nullable(),
  /** The version's name in the source: "Introduced", "Enrolled Bill", "Comm Sub". */
  type: textSchema(billLimits.shortText),
  url: urlSchema.nullable(),
  mimeType: textSchema(200).nullable(),
  /** The text itself, as plain text, when the source carries it. */
  text: textSchema(billLimits.textBody).nullable(),
});
export type BillText = z.infer<typeof billTextSchema>;

export const billVoteSchema = z.strictObject({
  date: isoDateSchema.nullable(),
  chamber: z.enum(chambers).nullable(),
  motion: textSchema(billLimits.actionText),
  yes: countSchema.nullable(),
  no: countSchema.nullable(),
  /** Everyone else on the roll: not voting, absent, present, abstaining, excused. */
  other: countSchema.nullable(),
  passed: z.boolean().nullable(),
});
export type BillVote = z.infer<typeof billVoteSchema>;

const billContentShape = {
  id: z
    .string()
    .max(700)
    .regex(/^[a-z0-9-]+\/[a-z0-9-]+\/[a-z][a-z0-9]*-[0-9]+[a-z]?$/, { message: 'not a bill id' }),
  source: z.enum(billSources),
  /** The source's own id for the bill (LegiScan bill_id, an ocd-bill id, 'sjres1-116'). */
  sourceId: textSchema(billLimits.shortText).nullable(),
  jurisdiction: z
    .string()
    .max(40)
    .regex(/^[a-z]{2}(-[a-z0-9]{1,12}){0,2}$/, { message: 'not a jurisdiction code' }),
  session: textSchema(200),
  type: z
    .string()
    .max(20)
    .regex(/^[a-z][a-z0-9]*$/),
  number: z
    .string()
    .max(12)
    .regex(/^(0|[1-9][0-9]*)[A-Z]?$/),
  identifier: textSchema(100),
  title: textSchema(billLimits.title),
  /** The bill's other titles (official, popular, short titles of its parts), which search finds;
   *  absent when the source gives none, so bills without them keep their change hash. */
  alternativeTitles: z.array(textSchema(billLimits.title)).min(1).max(1_000).optional(),
  summary: textSchema(billLimits.summary).nullable(),
  introducedDate: isoDateSchema.nullable(),
  status: z.enum(billStatuses),
  /** The source's own words for the status the common one was derived from. */
  rawStatus: textSchema(billLimits.actionText).nullable(),
  statusDate: isoDateSchema.nullable(),
  /** Primary sponsors first. */
  sponsors: z.array(sponsorSchema).max(5_000),
  cosponsors: z.array(sponsorSchema).max(5_000),
  subjects: z.array(textSchema(billLimits.shortText)).max(2_000),
  /** Oldest first. */
  actions: z.array(billActionSchema).max(billLimits.listItems),
  texts: z.array(billTextSchema).max(1_000),
  votes: z.array(billVoteSchema).max(5_000),
  url: urlSchema.nullable(),
};

function idMatchesParts(bill: {
  id: string;
  jurisdiction: string;
  session: string;
  type: string;
  number: string;
}): boolean {
  return bill.id === billId(bill.jurisdiction, bill.session, bill);
}
const idMismatch = { message: 'id does not match jurisdiction, session, type and number' };

/** Everything but the change hash: what the hash is computed over. */
export const billContentSchema = z
  .strictObject(billContentShape)
  .refine(idMatchesParts, idMismatch);
export type BillContent = z.infer<typeof billContentSchema>;

// What billContentSchema checks, written out by hand for the content finalizeBill builds: zod
// takes a fifth of normalizing a bill, and every imported bill passes through here. It may refuse
// more than the schema does, never less: when it says no, the schema decides and says why.
const ID_PATTERN = /^[a-z0-9-]+\/[a-z0-9-]+\/[a-z][a-z0-9]*-[0-9]+[a-z]?$/;
const JURISDICTION_PATTERN = /^[a-z]{2}(-[a-z0-9]{1,12}){0,2}$/;
const TYPE_PATTERN = /^[a-z][a-z0-9]*$/;
const NUMBER_PATTERN = /^(0|[1-9][0-9]*)[A-Z]?$/;
const URL_PATTERN = /^https?:\/\/[^\s]+$/i;

function isText(value: unknown, max: number): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= max;
}
function isTextOrNull(value: unknown, max: number): boolean {
  return value === null || isText(value, max);
}
function isDateOrNull(value: unknown): boolean {
  return value === null || (typeof value === 'string' && isIsoDate(value));
}
function isUrlOrNull(value: unknown): boolean {
  return (
    value === null ||
    (typeof value === 'string' && value.length <= billLimits.url && URL_PATTERN.test(value))
  );
}
function isCountOrNull(value: unknown): boolean {
  return (
    value === null ||
    (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000)
  );
}
function isOneOf(value: unknown, options: readonly string[]): boolean {
  return typeof value === 'string' && options.includes(value);
}
function isChamberOrNull(value: unknown): boolean {
  return value === null || isOneOf(value, chambers);
}
/** Exactly these own keys and no others (the schema's objects are strict). */
function hasKeys(value: object, count: number): boolean {
  let keys = 0;
  for (const key in value) if (Object.hasOwn(value, key)) keys++;
  return keys === count;
}

function isSponsor(sponsor: Sponsor): boolean {
  return (
    hasKeys(sponsor, 4) &&
    isText(sponsor.name, billLimits.shortText) &&
    isOneOf(sponsor.role, sponsorRoles) &&
    isTextOrNull(sponsor.party, 100) &&
    isTextOrNull(sponsor.externalId, 200)
  );
}
function isAction(action: BillAction): boolean {
  return (
    hasKeys(action, 3) &&
    isDateOrNull(action.date) &&
    isText(action.text, billLimits.actionText) &&
    isChamberOrNull(action.chamber)
  );
}
function isTextVersion(version: BillText): boolean {
  return (
    hasKeys(version, 5) &&
    isDateOrNull(version.date) &&
    isText(version.type, billLimits.shortText) &&
    isUrlOrNull(version.url) &&
    isTextOrNull(version.mimeType, 200) &&
    isTextOrNull(version.text, billLimits.textBody)
  );
}
function isVote(vote: BillVote): boolean {
  return (
    hasKeys(vote, 7) &&
    isDateOrNull(vote.date) &&
    isChamberOrNull(vote.chamber) &&
    isText(vote.motion, billLimits.actionText) &&
    isCountOrNull(vote.yes) &&
    isCountOrNull(vote.no) &&
    isCountOrNull(vote.other) &&
    (vote.passed === null || typeof vote.passed === 'boolean')
  );
}
function everyOf<T extends object>(
  list: readonly T[],
  max: number,
  check: (item: T) => boolean,
): boolean {
  if (!Array.isArray(list) || list.length > max) return false;
  for (const item of list as readonly unknown[]) {
    if (typeof item !== 'object' || item === null || !check(item as T)) return false;
  }
  return true;
}

/** True only for content billContentSchema accepts as it is. */
function isValidContent(content: BillContent): boolean {
  const { subjects, alternativeTitles } = content;
  if (!Array.isArray(subjects) || subjects.length > 2_000) return false;
  for (const subject of subjects) if (!isText(subject, billLimits.shortText)) return false;
  if (alternativeTitles !== undefined) {
    if (!Array.isArray(alternativeTitles)) return false;
    if (alternativeTitles.length < 1 || alternativeTitles.length > 1_000) return false;
    for (const title of alternativeTitles) if (!isText(title, billLimits.title)) return false;
  }
  return (
    hasKeys(content, alternativeTitles === undefined ? 21 : 22) &&
    typeof content.id === 'string' &&
    content.id.length <= 700 &&
    ID_PATTERN.test(content.id) &&
    isOneOf(content.source, billSources) &&
    isTextOrNull(content.sourceId, billLimits.shortText) &&
    typeof content.jurisdiction === 'string' &&
    content.jurisdiction.length <= 40 &&
    JURISDICTION_PATTERN.test(content.jurisdiction) &&
    isText(content.session, 200) &&
    typeof content.type === 'string' &&
    content.type.length <= 20 &&
    TYPE_PATTERN.test(content.type) &&
    typeof content.number === 'string' &&
    content.number.length <= 12 &&
    NUMBER_PATTERN.test(content.number) &&
    isText(content.identifier, 100) &&
    isText(content.title, billLimits.title) &&
    isTextOrNull(content.summary, billLimits.summary) &&
    isDateOrNull(content.introducedDate) &&
    isOneOf(content.status, billStatuses) &&
    isTextOrNull(content.rawStatus, billLimits.actionText) &&
    isDateOrNull(content.statusDate) &&
    everyOf(content.sponsors, 5_000, isSponsor) &&
    everyOf(content.cosponsors, 5_000, isSponsor) &&
    everyOf(content.actions, billLimits.listItems, isAction) &&
    everyOf(content.texts, 1_000, isTextVersion) &&
    everyOf(content.votes, 5_000, isVote) &&
    isUrlOrNull(content.url) &&
    idMatchesParts(content)
  );
}

export const billSchema = z
  .strictObject({
    ...billContentShape,
    /** FNV-1a 64 of the canonical JSON of every other field: equal content, equal hash. */
    changeHash: z.string().regex(/^[0-9a-f]{16}$/, { message: 'not a change hash' }),
  })
  .refine(idMatchesParts, idMismatch);
export type Bill = z.infer<typeof billSchema>;

export function billChangeHash(content: BillContent | Bill): string {
  const rest: Partial<Bill> = { ...content };
  delete rest.changeHash;
  return contentHash(rest);
}

/**
 * What an importer fills in before the bill is normalized. Nullable where a source may lack the
 * value, so the refusal reason can say which value was missing.
 */
export interface BillDraft {
  source: BillSource;
  sourceId: string | null;
  jurisdiction: string | null;
  session: string | null;
  /** In any of the forms parseBillIdentifier accepts. */
  identifier: string | null;
  title: string | null;
  /** Other titles the source gives; the title itself and repeats are dropped. */
  alternativeTitles?: readonly (string | null)[];
  summary: string | null;
  introducedDate: string | null;
  status: BillStatus;
  rawStatus: string | null;
  statusDate: string | null;
  sponsors: Sponsor[];
  cosponsors: Sponsor[];
  subjects: string[];
  actions: BillAction[];
  texts: BillText[];
  votes: BillVote[];
  url: string | null;
}

/** Values that replace what the source says, for sources that leave them out or get them wrong. */
export interface BillOverrides {
  jurisdiction?: string | undefined;
  session?: string | undefined;
}

export type FinalizeResult = { ok: true; bill: Bill } | { ok: false; reason: string };

export function formatSchemaIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}

function cleanSponsor(sponsor: Sponsor): Sponsor | null {
  const name = cleanLine(sponsor.name);
  if (name === null) return null;
  return {
    name,
    role: sponsor.role,
    party: cleanLine(sponsor.party),
    externalId: cleanLine(sponsor.externalId),
  };
}

/** Subjects are a set: trimmed, de-duplicated ignoring case, in a fixed (code-unit) order. */
function cleanSubjects(subjects: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const subject of subjects) {
    const clean = cleanLine(subject);
    if (clean !== null && !byKey.has(clean.toLowerCase())) byKey.set(clean.toLowerCase(), clean);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** Distinct titles other than the bill's own, ignoring case and spacing, in the source's order. */
function cleanAlternativeTitles(
  titles: readonly (string | null)[],
  title: string,
): string[] | undefined {
  const seen = new Set([title.toLowerCase()]);
  const kept: string[] = [];
  for (const candidate of titles) {
    const clean = cleanLine(candidate);
    if (clean === null || clean.length > billLimits.title || seen.has(clean.toLowerCase()))
      continue;
    seen.add(clean.toLowerCase());
    kept.push(clean);
    if (kept.length === 1_000) break;
  }
  return kept.length === 0 ? undefined : kept;
}

function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

/**
 * Turns a draft into a bill: applies overrides, normalizes the identifier and builds the id,
 * tidies text, validates against the schema and computes the change hash. Either the whole bill
 * comes back valid or a reason comes back; there is no half record.
 */
export function finalizeBill(draft: BillDraft, overrides: BillOverrides = {}): FinalizeResult {
  const rawJurisdiction = overrides.jurisdiction ?? draft.jurisdiction;
  if (rawJurisdiction === null) {
    return { ok: false, reason: 'jurisdiction unknown: give one with the jurisdiction option' };
  }
  const jurisdiction = normalizeJurisdiction(rawJurisdiction);
  if (jurisdiction === null) {
    return { ok: false, reason: `unknown jurisdiction "${clip(rawJurisdiction)}"` };
  }
  const session = cleanLine(overrides.session ?? draft.session);
  if (session === null) return { ok: false, reason: 'missing session' };
  if (sessionSlug(session) === '') {
    return { ok: false, reason: `session "${clip(session)}" has no letters or digits` };
  }
  const rawIdentifier = cleanLine(draft.identifier);
  if (rawIdentifier === null) return { ok: false, reason: 'missing bill identifier' };
  const numbering = parseBillIdentifier(rawIdentifier, jurisdiction);
  if (numbering === null) {
    return { ok: false, reason: `unrecognised bill identifier "${clip(rawIdentifier)}"` };
  }
  const title = cleanLine(draft.title);
  if (title === null) return { ok: false, reason: 'missing title' };

  const alternativeTitles = cleanAlternativeTitles(draft.alternativeTitles ?? [], title);
  const content: BillContent = {
    id: billId(jurisdiction, session, numbering),
    source: draft.source,
    sourceId: cleanLine(draft.sourceId),
    jurisdiction,
    session,
    type: numbering.type,
    number: numbering.number,
    identifier: formatBillIdentifier(jurisdiction, numbering),
    title,
    ...(alternativeTitles === undefined ? {} : { alternativeTitles }),
    summary: cleanBlock(draft.summary),
    introducedDate: draft.introducedDate,
    status: draft.status,
    rawStatus: cleanLine(draft.rawStatus),
    statusDate: draft.statusDate,
    sponsors: draft.sponsors.map(cleanSponsor).filter((s): s is Sponsor => s !== null),
    cosponsors: draft.cosponsors.map(cleanSponsor).filter((s): s is Sponsor => s !== null),
    subjects: cleanSubjects(draft.subjects),
    actions: draft.actions.flatMap((action) => {
      const text = cleanLine(action.text);
      return text === null ? [] : [{ date: action.date, text, chamber: action.chamber }];
    }),
    texts: draft.texts.map((version) => ({
      date: version.date,
      type: cleanLine(version.type) ?? 'Text',
      url: version.url,
      mimeType: cleanLine(version.mimeType),
      text: cleanBlock(version.text),
    })),
    votes: draft.votes.map((vote) => ({ ...vote, motion: cleanLine(vote.motion) ?? 'Vote' })),
    url: draft.url,
  };
  if (isValidContent(content)) {
    // In the schema's key order, as the schema's output would have it.
    content.votes = content.votes.map((vote) => ({
      date: vote.date,
      chamber: vote.chamber,
      motion: vote.motion,
      yes: vote.yes,
      no: vote.no,
      other: vote.other,
      passed: vote.passed,
    }));
    return { ok: true, bill: { ...content, changeHash: billChangeHash(content) } };
  }
  const parsed = billContentSchema.safeParse(content);
  if (!parsed.success) return { ok: false, reason: formatSchemaIssues(parsed.error) };
  return { ok: true, bill: { ...parsed.data, changeHash: billChangeHash(parsed.data) } };
}

/**
 * Oldest first, for lists whose direction is not known (texts, votes): a list that runs backwards
 * by its first and last dates is turned round before a stable sort by date. Actions are never
 * ordered this way: a one-day list has no direction to read, so `inSourceOrder` takes it from the
 * source instead.
 */
export function chronological<T extends { date: string | null }>(items: readonly T[]): T[] {
  const list = [...items];
  const dated = list.filter((item) => item.date !== null);
  const first = dated[0]?.date;
  const last = dated[dated.length - 1]?.date;
  if (first && last && first > last) list.reverse();
  return list.sort((a, b) => {
    if (a.date === b.date) return 0;
    if (a.date === null) return 1;
    if (b.date === null) return -1;
    return a.date < b.date ? -1 : 1;
  });
}

/** An action (or anything dated) with what its source says about where it stands in time. */
export interface SourceOrderEntry<T> {
  item: T;
  date: string | null;
  /** The time of day as 'HH:MM:SS' (24-hour, so it sorts as text), where the source gives one. */
  time: string | null;
  /** Opens its day whatever the listing says: an introduction precedes the day's other actions. */
  opensDay?: boolean;
}

export interface SourceOrderOptions<T> {
  /** The direction the source documents for its list. */
  listing: 'oldest-first' | 'newest-first';
  /** The source's own latest action, where it names one: it ends its day. */
  isLatest?: ((item: T) => boolean) | undefined;
}

function compareDates(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * Oldest first, from each source's own order information: the date, then the time of day where
 * the source gives one, then the place in the source's list read in its documented direction.
 * Within a day, actions that carry a time are put in time order among the places such actions
 * hold, and the others keep their place in the list, so a day that mixes timed floor actions with
 * untimed ones stays as the source told it. Undated items go last. The source's own latest
 * action, when it names one, ends its day.
 */
export function inSourceOrder<T>(
  entries: readonly SourceOrderEntry<T>[],
  options: SourceOrderOptions<T>,
): T[] {
  const listed = options.listing === 'newest-first' ? [...entries].reverse() : [...entries];
  const sorted = listed
    .map((entry, position) => ({ entry, position }))
    .sort(
      (a, b) =>
        compareDates(a.entry.date, b.entry.date) ||
        Number(b.entry.opensDay === true) - Number(a.entry.opensDay === true) ||
        a.position - b.position,
    );
  let start = 0;
  while (start < sorted.length) {
    const head = sorted[start];
    let end = start + 1;
    while (
      end < sorted.length &&
      sorted[end]?.entry.date === head?.entry.date &&
      sorted[end]?.entry.opensDay === head?.entry.opensDay
    ) {
      end++;
    }
    const slots: number[] = [];
    for (let at = start; at < end; at++) if (sorted[at]?.entry.time != null) slots.push(at);
    const timed = slots
      .map((at) => sorted[at])
      .filter((value) => value !== undefined)
      .sort((a, b) => compareDates(a.entry.time, b.entry.time) || a.position - b.position);
    slots.forEach((at, index) => {
      const value = timed[index];
      if (value !== undefined) sorted[at] = value;
    });
    start = end;
  }
  const items = sorted.map(({ entry }) => entry.item);
  const { isLatest } = options;
  if (isLatest === undefined) return items;
  const lastDate = sorted.findLast(({ entry }) => entry.date !== null)?.entry.date ?? null;
  if (lastDate === null) return items;
  const dayEnd = sorted.findLastIndex(({ entry }) => entry.date === lastDate);
  const latest = sorted.findLastIndex(
    ({ entry }) => entry.date === lastDate && isLatest(entry.item),
  );
  if (latest < 0 || latest === dayEnd) return items;
  const [moved] = items.splice(latest, 1);
  if (moved !== undefined) items.splice(dayEnd, 0, moved);
  return items;
}

/** '17:27:30', '17:27', '07:15PM' or '7:15 pm' as 'HH:MM:SS'; null for anything else. */
export function timeOfDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(value.trim());
  if (!match?.[1] || !match[2]) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3] ?? '0');
  const half = match[4]?.toUpperCase();
  if (half !== undefined) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'PM' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
}

/** The time of day a timestamp is written with ('2019-04-15T16:33:01-04:00' gives '16:33:01'),
 *  in the zone it is written in, as its date is; null for a bare date. */
export function timeOfTimestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2}(?::\d{2})?)/.exec(value.trim());
  return match?.[1] ? timeOfDay(match[1]) : null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Jurisdiction, session, type, then number in numeric order (HB 2 before HB 10). */
export function compareBills(a: Bill, b: Bill): number {
  return (
    compareText(a.jurisdiction, b.jurisdiction) ||
    compareText(a.session, b.session) ||
    compareText(a.type, b.type) ||
    Number.parseInt(a.number, 10) - Number.parseInt(b.number, 10) ||
    compareText(a.number, b.number) ||
    compareText(a.id, b.id)
  );
}

// When two sources describe the same bill, the official record wins ties.
const SOURCE_RANK: Readonly<Record<BillSource, number>> = {
  billstatus: 0,
  'congress-json': 1,
  openstates: 2,
  legiscan: 3,
  'docket-csv': 4,
};

function sameSponsor(a: Sponsor, b: Sponsor): boolean {
  if (a.externalId !== null && b.externalId !== null) return a.externalId === b.externalId;
  return a.name.toLowerCase() === b.name.toLowerCase();
}

/**
 * One bill from several records with the same id. The most up-to-date record (latest status
 * date, then most actions, then the more official source, then the first given) is kept whole;
 * values it lacks are taken from the others, and sponsors' missing parties are filled in from
 * matching sponsors. The result is deterministic for the same input in the same order.
 */
export function mergeDuplicateBills(bills: readonly Bill[]): Bill {
  const ranked = bills
    .map((bill, index) => ({ bill, index }))
    .sort(
      (x, y) =>
        compareText(y.bill.statusDate ?? '', x.bill.statusDate ?? '') ||
        y.bill.actions.length - x.bill.actions.length ||
        SOURCE_RANK[x.bill.source] - SOURCE_RANK[y.bill.source] ||
        x.index - y.index,
    )
    .map(({ bill }) => bill);
  const [primary, ...others] = ranked;
  if (primary === undefined) throw new Error('mergeDuplicateBills: no bills');
  if (others.length === 0) return primary;
  const merged: Bill = { ...primary };
  for (const other of others) {
    if (merged.alternativeTitles === undefined && other.alternativeTitles !== undefined) {
      const titles = cleanAlternativeTitles(
        [other.title, ...other.alternativeTitles],
        merged.title,
      );
      if (titles !== undefined) merged.alternativeTitles = titles;
    }
    merged.summary ??= other.summary;
    merged.introducedDate ??= other.introducedDate;
    merged.rawStatus ??= other.rawStatus;
    merged.statusDate ??= other.statusDate;
    merged.url ??= other.url;
    merged.sourceId ??= other.sourceId;
    if (merged.sponsors.length === 0) merged.sponsors = other.sponsors;
    if (merged.cosponsors.length === 0) merged.cosponsors = other.cosponsors;
    if (merged.subjects.length === 0) merged.subjects = other.subjects;
    if (merged.actions.length === 0) merged.actions = other.actions;
    if (merged.texts.length === 0) merged.texts = other.texts;
    if (merged.votes.length === 0) merged.votes = other.votes;
    const fillParty = (sponsor: Sponsor): Sponsor => {
      if (sponsor.party !== null) return sponsor;
      const match = [...other.sponsors, ...other.cosponsors].find((candidate) =>
        sameSponsor(candidate, sponsor),
      );
      return match?.party ? { ...sponsor, party: match.party } : sponsor;
    };
    merged.sponsors = merged.sponsors.map(fillParty);
    merged.cosponsors = merged.cosponsors.map(fillParty);
  }
  return { ...merged, changeHash: billChangeHash(merged) };
}
