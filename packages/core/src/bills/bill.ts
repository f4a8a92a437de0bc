import { z } from 'zod';
import { contentHash } from './canonical-hash.ts';
import type { BillSource, BillStatus } from './bill-vocabulary.ts';
import {
  billLimits,
  billSources,
  billStatuses,
  chambers,
  sponsorRoles,
} from './bill-vocabulary.ts';
import { cleanAlternativeTitles, cleanBlock, cleanLine, isIsoDate } from './bill-text-cleaning.ts';
import { isMemberVoteList, memberVoteSchema } from './member-votes.ts';
import {
  billId,
  formatBillIdentifier,
  normalizeJurisdiction,
  parseBillIdentifier,
  sessionSlug,
} from './bill-identifiers.ts';

// The one bill record every importer produces and every screen reads. Sources disagree on almost
// everything (names of fields, status words, identifier spelling, date formats); this module is
// where they are made to agree, and the schema below is the gate every bill passes through before
// anyone else sees it.

// Its vocabulary is in bill-vocabulary.ts, text cleaning in bill-text-cleaning.ts, identifiers in
// bill-identifiers.ts, ordering and merging in bill-merge.ts.

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
  /**
   * The seat the person holds, as the source names it: "GA-4" for a representative of Congress,
   * "GA" for a senator, LegiScan's "HD-012". Left out (not null) where the source has none, so
   * bills imported before districts were read keep their change hash.
   */
  district: textSchema(100).optional(),
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
  /** LegiScan's doc_id of the version, which its API's getBillText serves the document by. */
  docId: z.number().int().positive().optional(),
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
  /**
   * Each member's vote (member-votes.ts), where the source lists them; left out (not empty)
   * where it gives totals only, so bills read before member votes were kept keep their hash.
   */
  members: z.array(memberVoteSchema).min(1).max(5_000).optional(),
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
    (sponsor.district === undefined
      ? hasKeys(sponsor, 4)
      : hasKeys(sponsor, 5) && isText(sponsor.district, 100)) &&
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
  const { docId } = version;
  return (
    (docId === undefined
      ? hasKeys(version, 5)
      : hasKeys(version, 6) && Number.isSafeInteger(docId) && docId > 0) &&
    isDateOrNull(version.date) &&
    isText(version.type, billLimits.shortText) &&
    isUrlOrNull(version.url) &&
    isTextOrNull(version.mimeType, 200) &&
    isTextOrNull(version.text, billLimits.textBody)
  );
}
function isVote(vote: BillVote): boolean {
  return (
    (vote.members === undefined
      ? hasKeys(vote, 7)
      : hasKeys(vote, 8) && isMemberVoteList(vote.members)) &&
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
  // Content without a change hash (every bill finalizeBill makes) is hashed as it is.
  if (!Object.hasOwn(content, 'changeHash')) return contentHash(content);
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

/** A schema's refusal in words: its first three issues, each with where it is. */
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
  const district = cleanLine(sponsor.district ?? null);
  return {
    name,
    role: sponsor.role,
    party: cleanLine(sponsor.party),
    ...(district === null ? {} : { district }),
    externalId: cleanLine(sponsor.externalId),
  };
}

/** Subjects are a set: trimmed, de-duplicated ignoring case, in a fixed (code-unit) order. */
function cleanSubjects(subjects: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const subject of subjects) {
    const clean = cleanLine(subject);
    if (clean === null) continue;
    const key = clean.toLowerCase();
    if (!byKey.has(key)) byKey.set(key, clean);
  }
  // The keys are distinct: sorting them alone orders the subjects as sorting the pairs did.
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((key) => byKey.get(key) as string);
}

/** The draft's actions with their text cleaned, those left with none dropped. */
function cleanActions(actions: readonly BillAction[]): BillAction[] {
  const cleaned: BillAction[] = [];
  for (const action of actions) {
    const text = cleanLine(action.text);
    if (text !== null) cleaned.push({ date: action.date, text, chamber: action.chamber });
  }
  return cleaned;
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
    actions: cleanActions(draft.actions),
    texts: draft.texts.map((version) => ({
      date: version.date,
      type: cleanLine(version.type) ?? 'Text',
      url: version.url,
      mimeType: cleanLine(version.mimeType),
      text: cleanBlock(version.text),
      ...(version.docId === undefined ? {} : { docId: version.docId }),
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
      ...(vote.members === undefined ? {} : { members: vote.members }),
    }));
    return { ok: true, bill: { ...content, changeHash: billChangeHash(content) } };
  }
  const parsed = billContentSchema.safeParse(content);
  if (!parsed.success) return { ok: false, reason: formatSchemaIssues(parsed.error) };
  return { ok: true, bill: { ...parsed.data, changeHash: billChangeHash(parsed.data) } };
}
