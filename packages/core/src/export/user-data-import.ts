import { z } from 'zod';
import type { Bill } from '../bills/bill.ts';
import { billChangeHash, billSchema, formatSchemaIssues } from '../bills/bill.ts';
import { readDocketCsvRecords } from '../importers/bill-importer-docket-csv.ts';
import type { CsvTable } from '../encoding/csv-table.ts';
import { parseCsvTable } from '../encoding/csv-table.ts';
import { decodeList, isDocketCsvHeader, restoreFormula } from '../importers/docket-csv-layout.ts';
import type { Decision, Position } from '../store/local-records.ts';
import {
  billTagSchema,
  POSITION_REASON_MAX,
  decisionSchema,
  decisions as decisionKinds,
  positionSchema,
  positions as positionKinds,
  tagSchema,
} from '../store/local-records.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';
import { DOCKET_EXPORT_FORMAT, DOCKET_EXPORT_VERSION, userCsvColumns } from './user-data-export.ts';
import { reportColumns } from './report-csv.ts';
import type { ImportedAnnotation } from '../text/web-annotation-jsonld.ts';
import {
  WebAnnotationError,
  annotationsFromJsonLd,
  isWebAnnotationJson,
} from '../text/web-annotation-jsonld.ts';

// Import of the files user-data-export.ts writes (Docket CSV with the user's columns, Docket
// JSON, Web Annotation JSON-LD), in two steps a screen can put a question between:
//
// 1. `readUserDataFile` detects the format from the content and validates all of it; anything
//    that does not fit is a UserDataImportError with a message for people, and nothing else
//    happens.
// 2. `previewUserDataImport` (user-data-import-plan.ts) says what would be added and changed; `applyUserDataImport` works
//    that out again inside its write transaction (the store may have moved since the preview)
//    and writes it: bills the device lacks into `bills` (not synced, no dataset), the user's
//    rows through OutboxWriter so they sync. One transaction: all of it or nothing.
//
// Tags are matched by name as people read it (case and Unicode composition aside), like
// tag-commands.ts does: a tag named like one the device has is that tag. A bill the device
// already has is left as it is; its dataset is what keeps it up to date.

/** Larger files are refused before they are read: no export of a real session comes near. */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
const MAX_ROWS = 500_000;
/** The colour of a tag whose file does not give one. */
export const DEFAULT_TAG_COLOUR = '#1a7f37';

export type UserDataFileKind = 'csv' | 'json' | 'annotations';

export const userDataFileKindWords: Readonly<Record<UserDataFileKind, string>> = {
  csv: 'Docket CSV',
  json: 'Docket JSON',
  annotations: 'Web Annotation JSON-LD',
};

/** A tag as a file gives it: only the name is sure. */
export interface ImportedTag {
  readonly id: string | null;
  readonly name: string;
  readonly color: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

export interface ImportedBillTag {
  readonly billId: string;
  readonly tagName: string;
  readonly createdAt: string | null;
}

/** Everything a file holds, validated. */
export interface UserDataBundle {
  readonly kind: UserDataFileKind;
  readonly bills: readonly Bill[];
  readonly tags: readonly ImportedTag[];
  readonly billTags: readonly ImportedBillTag[];
  readonly positions: readonly Position[];
  readonly decisions: readonly Decision[];
  readonly annotations: readonly ImportedAnnotation[];
}

/** A file that cannot be imported, and why, in words for the person who picked it. */
export class UserDataImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserDataImportError';
  }
}

/** A value quoted in a message, cut short. */
export const clip = (text: string, length = 80): string =>
  text.length > length ? `${text.slice(0, length)}…` : text;

/** Names are compared as people read them (tag-commands.ts does the same). */
export function tagNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Stops the import with a message for people. */
export function refuse(message: string): never {
  throw new UserDataImportError(message);
}

function requireDistinct<T>(rows: readonly T[], key: (row: T) => string, what: string): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const value = key(row);
    if (seen.has(value)) refuse(`${what} ${JSON.stringify(clip(value))} appears twice.`);
    seen.add(value);
  }
}

/** Tags by name, first one kept: two with the same name are the same tag. */
function distinctTags(tags: readonly ImportedTag[]): ImportedTag[] {
  const byName = new Map<string, ImportedTag>();
  for (const tag of tags)
    if (!byName.has(tagNameKey(tag.name))) byName.set(tagNameKey(tag.name), tag);
  return [...byName.values()];
}

// ---- Docket JSON ----

const headSchema = z.object({ format: z.literal(DOCKET_EXPORT_FORMAT), version: z.number() });
const docketJsonSchema = z.object({
  format: z.literal(DOCKET_EXPORT_FORMAT),
  version: z.literal(DOCKET_EXPORT_VERSION),
  exportedAt: z.string().max(100).optional(),
  selection: z.string().max(1000).optional(),
  bills: z.array(z.unknown()).max(MAX_ROWS),
  tags: z.array(tagSchema).max(MAX_ROWS),
  billTags: z.array(billTagSchema).max(MAX_ROWS),
  positions: z.array(positionSchema).max(MAX_ROWS),
  decisions: z.array(decisionSchema).max(MAX_ROWS),
});

function readBill(value: unknown, label: string): Bill {
  const parsed = billSchema.safeParse(value);
  if (!parsed.success) refuse(`${label} is not a valid bill: ${formatSchemaIssues(parsed.error)}`);
  // The hash is the device's own bookkeeping: recomputed, so an edited file cannot lie with it.
  return { ...parsed.data, changeHash: billChangeHash(parsed.data) };
}

function readDocketJson(value: unknown): UserDataBundle {
  const head = headSchema.safeParse(value);
  if (head.success && head.data.version !== DOCKET_EXPORT_VERSION) {
    refuse(
      `This Docket export has version ${head.data.version}; this version of Docket reads version ${DOCKET_EXPORT_VERSION}.`,
    );
  }
  const parsed = docketJsonSchema.safeParse(value);
  if (!parsed.success)
    refuse(`This Docket export does not fit: ${formatSchemaIssues(parsed.error)}.`);
  const file = parsed.data;
  const bills = file.bills.map((bill, index) => readBill(bill, `Bill ${index + 1}`));
  requireDistinct(bills, (bill) => bill.id, 'The bill');
  requireDistinct(file.tags, (tag) => tag.id, 'The tag id');
  requireDistinct(file.billTags, (row) => row.id, 'The tag assignment');
  requireDistinct(file.positions, (row) => row.billId, 'The position of bill');
  requireDistinct(file.decisions, (row) => row.billId, 'The decision on bill');
  for (const [index, tag] of file.tags.entries()) {
    if (tag.name.trim() === '') refuse(`Tag ${index + 1} has no name.`);
  }
  const tagNames = new Map(file.tags.map((tag) => [tag.id, tag.name.trim()]));
  const billTags = file.billTags.map((row, index) => {
    const tagName = tagNames.get(row.tagId);
    if (tagName === undefined) {
      refuse(
        `Tag assignment ${index + 1} names the tag ${JSON.stringify(clip(row.tagId))}, which the file does not hold.`,
      );
    }
    if (row.id !== `${row.billId}|${row.tagId}`) {
      refuse(
        `Tag assignment ${index + 1} has the id ${JSON.stringify(clip(row.id))}, which does not match its bill and tag.`,
      );
    }
    return { billId: row.billId, tagName, createdAt: row.createdAt };
  });
  return {
    kind: 'json',
    bills,
    tags: distinctTags(
      file.tags.map((tag) => ({ ...tag, name: tag.name.trim(), color: tag.color.toLowerCase() })),
    ),
    billTags,
    positions: file.positions,
    decisions: file.decisions,
    annotations: [],
  };
}

/** The header of the report CSV (report-csv.ts), as parseCsvTable gives it (lower case). */
function isReportHeader(header: readonly string[]): boolean {
  return reportColumns.every((column, at) => header[at] === column.toLowerCase());
}

// ---- Docket CSV with the user's columns ----

/** The CSV's table and its bills, one a row; refuses a file that is not a whole Docket CSV. */
function readCsvBills(
  text: string,
  file: { name: string; bytes: Uint8Array },
): { table: CsvTable; bills: Bill[] } {
  const table = parseCsvTable(text);
  if (!isDocketCsvHeader(table.header)) {
    if (isReportHeader(table.header)) {
      refuse(
        'This is a Docket report, made for reading in a spreadsheet; it cannot be imported. Import a CSV or JSON export instead.',
      );
    }
    refuse('This CSV is not a Docket CSV: its header needs identifier and title columns.');
  }
  const problem = table.problems[0];
  if (problem !== undefined)
    refuse(`The CSV is damaged at line ${problem.line}: ${problem.reason}.`);
  if (table.rows.length > MAX_ROWS) refuse(`The CSV has more than ${MAX_ROWS} rows.`);
  const outcomes = [...readDocketCsvRecords([{ name: file.name, bytes: file.bytes }])];
  for (const outcome of outcomes) {
    if (!outcome.ok) refuse(`${outcome.error.record ?? 'The CSV'}: ${outcome.error.reason}.`);
  }
  const bills = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.bill] : []));
  if (bills.length !== table.rows.length) refuse('The CSV could not be read row by row.');
  requireDistinct(bills, (bill) => bill.id, 'The bill');
  return { table, bills };
}

/** A row's cell, its formula guard taken off and trimmed ('' when the column is missing). */
type Cell = (column: string) => string;

/** A row's tags (its `tags` cell, a list of each tag's parts) into `tags` and `billTags`. */
function readRowTags(
  cell: Cell,
  where: string,
  billId: string,
  nowIso: string,
  into: { tags: ImportedTag[]; billTags: ImportedBillTag[] },
): void {
  for (const [position, parts] of decodeList(cell('tags')).entries()) {
    const [
      name = null,
      color = null,
      id = null,
      createdAt = null,
      updatedAt = null,
      taggedAt = null,
    ] = parts;
    const tag = tagSchema.safeParse({
      id: id ?? 'placeholder',
      name: name ?? '',
      color: color ?? DEFAULT_TAG_COLOUR,
      createdAt: createdAt ?? nowIso,
      updatedAt: updatedAt ?? createdAt ?? nowIso,
    });
    if (!tag.success) refuse(`${where}, tag ${position + 1}: ${formatSchemaIssues(tag.error)}.`);
    into.tags.push({
      id,
      name: tag.data.name.trim(),
      color: tag.data.color.toLowerCase(),
      createdAt,
      updatedAt,
    });
    into.billTags.push({ billId, tagName: tag.data.name.trim(), createdAt: taggedAt });
  }
}

/** A row's position and its reason, or null when the row gives neither; `hasReasons` says
 *  whether the file has the position_reason column. */
function readRowPosition(
  cell: Cell,
  where: string,
  billId: string,
  hasReasons: boolean,
  nowIso: string,
): Position | null {
  const position = cell('position');
  // A file from before reasons has no such column: it says nothing about them.
  const reason = hasReasons ? cell('position_reason') : undefined;
  if (position === '' && (reason ?? '') === '') return null;
  const kind = position === '' ? 'none' : position.toLowerCase();
  if (!(positionKinds as readonly string[]).includes(kind)) {
    refuse(
      `${where}: the position "${clip(position, 30)}" is not one of ${positionKinds.join(', ')}.`,
    );
  }
  if (reason !== undefined && reason.length > POSITION_REASON_MAX) {
    refuse(
      `${where}: the reason has ${reason.length.toLocaleString('en-US')} characters; a reason is at most ${POSITION_REASON_MAX.toLocaleString('en-US')}.`,
    );
  }
  return positionSchema.parse({
    billId,
    position: kind,
    ...(reason === undefined ? {} : { reason }),
    updatedAt: cell('position_updated_at') || nowIso,
  });
}

/** A row's decision, or null when it gives none. */
function readRowDecision(
  cell: Cell,
  where: string,
  billId: string,
  nowIso: string,
): Decision | null {
  const decision = cell('decision');
  if (decision === '') return null;
  const parsed = decisionSchema.safeParse({
    billId,
    decision: decision.toLowerCase(),
    decidedAt: cell('decided_at') || nowIso,
  });
  if (!parsed.success) {
    refuse(
      `${where}: the decision "${clip(decision, 30)}" is not one of ${decisionKinds.join(', ')}.`,
    );
  }
  return parsed.data;
}

function readCsv(
  text: string,
  file: { name: string; bytes: Uint8Array },
  nowIso: string,
): UserDataBundle {
  const { table, bills } = readCsvBills(text, file);
  const tags: ImportedTag[] = [];
  const billTags: ImportedBillTag[] = [];
  const positions: Position[] = [];
  const decisions: Decision[] = [];
  const hasUserColumns = userCsvColumns.some((column) => table.header.includes(column));
  const hasReasons = table.header.includes('position_reason');
  table.rows.forEach((row, index) => {
    const bill = bills[index];
    if (!hasUserColumns || bill === undefined) return;
    const where = `Row at line ${row.line} (${bill.identifier})`;
    const cell = (column: string) => restoreFormula(row.values.get(column) ?? '').trim();
    readRowTags(cell, where, bill.id, nowIso, { tags, billTags });
    const position = readRowPosition(cell, where, bill.id, hasReasons, nowIso);
    if (position !== null) positions.push(position);
    const decision = readRowDecision(cell, where, bill.id, nowIso);
    if (decision !== null) decisions.push(decision);
  });
  return {
    kind: 'csv',
    bills,
    tags: distinctTags(tags),
    billTags,
    positions,
    decisions,
    annotations: [],
  };
}

/**
 * Reads an export file, whichever of the three it is, and validates every row. Throws
 * UserDataImportError (a message for people) for anything else.
 */
export function readUserDataFile(
  file: { name: string; bytes: Uint8Array },
  nowIso: string,
): UserDataBundle {
  if (file.bytes.length === 0) refuse('The file is empty.');
  if (file.bytes.length > MAX_IMPORT_BYTES) {
    refuse(
      `The file is larger than ${MAX_IMPORT_BYTES / (1024 * 1024)} MB; Docket exports are smaller.`,
    );
  }
  const text = decodeUtf8(file.bytes);
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      refuse(
        `The file is not valid JSON: ${error instanceof Error ? clip(error.message, 200) : 'unreadable'}.`,
      );
    }
    if (
      headSchema.safeParse(value).success ||
      (value as { format?: unknown } | null)?.format === DOCKET_EXPORT_FORMAT
    ) {
      return readDocketJson(value);
    }
    if (isWebAnnotationJson(value) || Array.isArray(value)) {
      let annotations: ImportedAnnotation[];
      try {
        annotations = annotationsFromJsonLd(value, nowIso);
      } catch (error) {
        if (error instanceof WebAnnotationError)
          refuse(`These annotations cannot be imported: ${error.message}.`);
        throw error;
      }
      const ids = annotations.flatMap((annotation) =>
        annotation.id === null ? [] : [annotation.id],
      );
      requireDistinct(ids, (id) => id, 'The annotation');
      return {
        kind: 'annotations',
        bills: [],
        tags: [],
        billTags: [],
        positions: [],
        decisions: [],
        annotations,
      };
    }
    refuse('This JSON is neither a Docket export nor Web Annotation JSON-LD.');
  }
  if (text.includes('\u0000')) refuse('This is not a text file Docket exports.');
  return readCsv(text, file, nowIso);
}
