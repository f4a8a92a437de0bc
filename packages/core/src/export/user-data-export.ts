import type { Bill } from '../bills/bill.ts';
import { annotationTargetText } from '../text/annotation-targets.ts';
import { readVersionTexts } from '../text/version-text-rows.ts';
import { withFetchedTexts } from '../text/version-text.ts';
import { exportDocketCsv } from './bill-exporter-docket-csv.ts';
import type { BillListQuery } from '../lists/bill-list-query.ts';
import { BillCatalog, billMarksOf } from '../lists/bill-list-query.ts';
import { BillSearchIndex } from '../lists/bill-search-index.ts';
import { readRemovedBillNotesIn } from '../lists/removed-bill-notes.ts';
import { toCsv } from '../encoding/csv-table.ts';
import { encodeItem, encodeList, neutralizeFormula } from '../importers/docket-csv-layout.ts';
import type {
  Annotation,
  BillTag,
  Decision,
  Position,
  StoredBill,
  Tag,
  VersionText,
} from '../store/local-records.ts';
import { userWorkTables } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalStore } from '../store/local-store.ts';
import { MAX_CELL_CHARACTERS, snapshotToReportCsv } from './report-csv.ts';
import { annotationsToJsonLd } from '../text/web-annotation-jsonld.ts';

// Export of the user's work (PRODUCT.md, export / import): the chosen bills with the user's
// tags, positions and decisions as a spreadsheet-safe CSV or as Docket JSON, and the
// annotations on them as W3C Web Annotation JSON-LD. user-data-import.ts reads all three back;
// exporting and importing into an empty device gives back the same rows, field for field.
//
// ## Docket JSON, version 1
//
//   {
//     "format": "docket-export", "version": 1,
//     "exportedAt": ISO time, "selection": "all" | "tracked" | "tag:<name>" | "filtered",
//     "bills":     Bill[]       the bill records as imported (bill.ts), without datasetIds:
//                               which datasets provide a bill is this device's business
//     "tags":      Tag[]        the tags the exported bills carry (every tag when "all")
//     "billTags":  BillTag[]    `${billId}|${tagId}` assignments
//     "positions": Position[]   each with its `reason` when the user gave one (files from
//                               before reasons have none, and still read)
//     "decisions": Decision[]
//   }
//
// ## Docket CSV with the user's columns
//
// Docket's own CSV (docket-csv-layout.ts, written by bill-exporter-docket-csv.ts), so the same
// file can also be added as a dataset, with six columns in front:
//
//   tags                 list of  name; colour; tag id; created; updated; tagged at
//   position             support, oppose, watch, none, or blank
//   position_updated_at
//   position_reason      why, in the user's words (files from before it lack the column)
//   decision             track, dismiss, later, or blank
//   decided_at
//
// The bill's `id` column stays last, so a file cut off mid-row fails its id check. Every cell
// starting with = + - or @ is neutralised for spreadsheets, and restored on import.

export const DOCKET_EXPORT_FORMAT = 'docket-export';
export const DOCKET_EXPORT_VERSION = 1;

export const userCsvColumns = [
  'tags',
  'position',
  'position_updated_at',
  'position_reason',
  'decision',
  'decided_at',
] as const;

export type ExportSelection =
  | { readonly kind: 'all' }
  | { readonly kind: 'tracked' }
  | { readonly kind: 'tag'; readonly tagId: string }
  /** "Notes on removed bills": the user's rows on bills no longer on this device, without
   *  bills (the rows keep each bill's number and title, `billLabel`); JSON and annotations. */
  | { readonly kind: 'removed' }
  /** The Tracked tab's list as its URL query has it: search words, filters and order. */
  | { readonly kind: 'list'; readonly query: BillListQuery };

/** What an export holds: bills without datasetIds, and the user's rows on them. */
export interface UserDataSnapshot {
  readonly selection: string;
  readonly bills: readonly Bill[];
  readonly tags: readonly Tag[];
  readonly billTags: readonly BillTag[];
  readonly positions: readonly Position[];
  readonly decisions: readonly Decision[];
  readonly annotations: readonly Annotation[];
  /** The text versions this device fetched for annotated bills: the text their annotations are
   *  on, for positions in code points. Never written out themselves. */
  readonly versionTexts?: readonly VersionText[];
}

export interface DocketExportFile {
  format: typeof DOCKET_EXPORT_FORMAT;
  version: typeof DOCKET_EXPORT_VERSION;
  exportedAt: string;
  selection: string;
  bills: Bill[];
  tags: Tag[];
  billTags: BillTag[];
  positions: Position[];
  decisions: Decision[];
}

export const exportTables = ['bills', ...userWorkTables] as const;

/** The bill as imported: without the datasets that hold it on this device, nor the store's
 *  derived fields. */
function withoutDatasets(bill: StoredBill): Bill {
  const copy: Partial<StoredBill> = { ...bill };
  delete copy.datasetIds;
  delete copy.deckKeys;
  return copy as Bill;
}

/**
 * The bills of the Tracked tab's list for a query, in its order: the same catalog and search
 * index the list's worker uses (bill-list-query.ts), so the file holds what the list shows.
 */
async function listedBills(tx: LocalReadTransaction, query: BillListQuery): Promise<StoredBill[]> {
  const bills = await tx.all('bills');
  const marks = billMarksOf(
    await tx.all('decisions'),
    await tx.all('billTags'),
    await tx.all('positions'),
  );
  const catalog = new BillCatalog(new BillSearchIndex());
  for (const bill of bills) catalog.put(bill, bill.changeHash);
  catalog.setMarks(marks);
  const byId = new Map(bills.map((bill) => [bill.id, bill]));
  const picked: StoredBill[] = [];
  for (const doc of catalog.query(query)) {
    const id = catalog.row(doc)?.id;
    const bill = id === undefined ? undefined : byId.get(id);
    if (bill !== undefined) picked.push(bill);
  }
  return picked;
}

async function selectedBills(
  tx: LocalReadTransaction,
  selection: Exclude<ExportSelection, { kind: 'removed' }>,
): Promise<StoredBill[]> {
  if (selection.kind === 'all') return tx.all('bills');
  if (selection.kind === 'list') return listedBills(tx, selection.query);
  const ids =
    selection.kind === 'tracked'
      ? (await tx.where('decisions', 'decision', 'track')).map((row) => row.billId)
      : (await tx.where('billTags', 'tagId', selection.tagId)).map((row) => row.billId);
  const bills = await tx.getMany('bills', [...new Set(ids)].sort());
  return bills.filter((bill): bill is StoredBill => bill !== undefined);
}

/** The versions this device fetched of the annotated bills (the texts annotations may be on). */
async function versionTextsOf(
  tx: LocalReadTransaction,
  annotations: readonly Annotation[],
): Promise<VersionText[]> {
  const texts: VersionText[] = [];
  for (const billId of new Set(annotations.map((row) => row.billId))) {
    texts.push(...(await readVersionTexts(tx, billId)));
  }
  return texts;
}

/** The notes on removed bills: their rows and the tags they carry, and no bill. */
async function removedSnapshot(tx: LocalReadTransaction): Promise<UserDataSnapshot> {
  const notes = await readRemovedBillNotesIn(tx);
  const tags = new Map(notes.flatMap((entry) => entry.tags).map((tag) => [tag.id, tag]));
  return {
    selection: 'removed',
    bills: [],
    tags: [...tags.values()],
    billTags: notes.flatMap((entry) => entry.billTags),
    positions: notes.flatMap((entry) => (entry.position === null ? [] : [entry.position])),
    decisions: notes.flatMap((entry) => (entry.decision === null ? [] : [entry.decision])),
    annotations: notes.flatMap((entry) => entry.annotations),
  };
}

/** The chosen bills and the user's rows on them, read in one transaction. */
export async function readUserDataSnapshot(
  store: LocalStore,
  selection: ExportSelection,
): Promise<UserDataSnapshot> {
  return store.read([...exportTables, 'versionTexts'], async (tx) => {
    if (selection.kind === 'removed') return removedSnapshot(tx);
    const stored = await selectedBills(tx, selection);
    const ids = new Set(stored.map((bill) => bill.id));
    const pick = <T extends { billId: string }>(rows: readonly T[]) =>
      rows.filter((row) => ids.has(row.billId));
    const allTags = await tx.all('tags');
    const billTags = pick(await tx.all('billTags'));
    const usedTagIds = new Set(billTags.map((row) => row.tagId));
    const annotations = pick(await tx.all('annotations'));
    let label: string = selection.kind === 'list' ? 'filtered' : selection.kind;
    if (selection.kind === 'tag') {
      const tag = allTags.find((candidate) => candidate.id === selection.tagId);
      label = `tag:${tag?.name ?? selection.tagId}`;
    }
    return {
      selection: label,
      bills: stored.map(withoutDatasets),
      tags: selection.kind === 'all' ? allTags : allTags.filter((tag) => usedTagIds.has(tag.id)),
      billTags,
      positions: pick(await tx.all('positions')),
      decisions: pick(await tx.all('decisions')),
      annotations,
      versionTexts: await versionTextsOf(tx, annotations),
    };
  });
}

export function snapshotToDocketJson(snapshot: UserDataSnapshot, exportedAt: string): string {
  const file: DocketExportFile = {
    format: DOCKET_EXPORT_FORMAT,
    version: DOCKET_EXPORT_VERSION,
    exportedAt,
    selection: snapshot.selection,
    bills: [...snapshot.bills],
    tags: [...snapshot.tags],
    billTags: [...snapshot.billTags],
    positions: [...snapshot.positions],
    decisions: [...snapshot.decisions],
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The header line exportDocketCsv writes, which each bill's own output starts with. */
const DOCKET_CSV_HEADER_LENGTH = exportDocketCsv([], { byteOrderMark: false }).length;

/**
 * Docket CSV with the user's columns, UTF-8 byte-order mark first (Excel needs it to read
 * UTF-8), one row per bill, CRLF line ends.
 */
export function snapshotToCsv(snapshot: UserDataSnapshot): string {
  const tagsById = new Map(snapshot.tags.map((tag) => [tag.id, tag]));
  const tagsOf = new Map<string, BillTag[]>();
  for (const row of snapshot.billTags) {
    const list = tagsOf.get(row.billId) ?? [];
    list.push(row);
    tagsOf.set(row.billId, list);
  }
  const positions = new Map(snapshot.positions.map((row) => [row.billId, row]));
  const decisions = new Map(snapshot.decisions.map((row) => [row.billId, row]));
  const header = toCsv([[...userCsvColumns]]).slice(0, -2);
  const docketHeader = exportDocketCsv([], { byteOrderMark: false });
  const parts: string[] = [`\uFEFF${header},${docketHeader}`];
  for (const bill of snapshot.bills) {
    const assignments = (tagsOf.get(bill.id) ?? []).flatMap((row) => {
      const tag = tagsById.get(row.tagId);
      return tag === undefined
        ? []
        : [encodeItem([tag.name, tag.color, tag.id, tag.createdAt, tag.updatedAt, row.createdAt])];
    });
    const position = positions.get(bill.id);
    const decision = decisions.get(bill.id);
    const userCells = [
      encodeList(assignments),
      position?.position ?? '',
      position?.updatedAt ?? '',
      position?.reason ?? '',
      decision?.decision ?? '',
      decision?.decidedAt ?? '',
    ].map(neutralizeFormula);
    const billRow = exportDocketCsv([bill], { byteOrderMark: false }).slice(
      DOCKET_CSV_HEADER_LENGTH,
    );
    parts.push(`${toCsv([userCells]).slice(0, -2)},${billRow}`);
  }
  return parts.join('');
}

/** `newUuid` gives the collection and its page fresh ids (`randomIdSource` in the app). */
export function snapshotToJsonLd(
  snapshot: UserDataSnapshot,
  exportedAt: string,
  newUuid: () => string,
): string {
  const bills = new Map(snapshot.bills.map((bill) => [bill.id, bill]));
  const fetched = snapshot.versionTexts ?? [];
  const textOf = (annotation: Annotation) => {
    const bill = bills.get(annotation.billId);
    if (bill === undefined) return null;
    const copies = fetched.filter((copy) => copy.billId === bill.id);
    return annotationTargetText(withFetchedTexts(bill, copies), annotation.target);
  };
  const document = annotationsToJsonLd(snapshot.annotations, { exportedAt, newUuid, textOf });
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const exportFormats = ['csv', 'report', 'json', 'annotations'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export interface ExportedFile {
  readonly name: string;
  readonly mimeType: string;
  readonly text: string;
  /** Bills (CSV, report, JSON) or annotations written. */
  readonly count: number;
  /** Something the person should know about the file (cells a spreadsheet cannot hold, cut). */
  readonly notice?: string;
}

/** A calendar date as the reader writes it in a spreadsheet ("03/02/2025" in en-US). */
const readerDate = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZone: 'UTC',
});

function formatReaderDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : readerDate.format(parsed);
}

/** A file name for the export: what it holds and when, safe on every file system. */
export function exportFileName(
  format: ExportFormat,
  selection: string,
  exportedAt: string,
): string {
  const day = exportedAt.slice(0, 10);
  const what = selection
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .toLowerCase();
  const kind = format === 'annotations' ? 'annotations' : format === 'report' ? 'report' : 'bills';
  const stem = `docket-${kind}-${what || 'export'}-${day}`;
  if (format === 'csv' || format === 'report') return `${stem}.csv`;
  return format === 'json' ? `${stem}.json` : `${stem}.jsonld`;
}

/**
 * Reads the selection and writes it in the format. `newUuid` makes the ids an annotation
 * export gives itself (the command context's `newId`, random UUIDs).
 */
export async function exportUserData(
  store: LocalStore,
  selection: ExportSelection,
  format: ExportFormat,
  exportedAt: string,
  newUuid: () => string,
): Promise<ExportedFile> {
  const snapshot = await readUserDataSnapshot(store, selection);
  const name = exportFileName(format, snapshot.selection, exportedAt);
  if (format === 'csv') {
    return {
      name,
      mimeType: 'text/csv;charset=utf-8',
      text: snapshotToCsv(snapshot),
      count: snapshot.bills.length,
    };
  }
  if (format === 'report') {
    const report = snapshotToReportCsv(snapshot, { formatDate: formatReaderDate });
    return {
      name,
      mimeType: 'text/csv;charset=utf-8',
      text: report.text,
      count: report.rows,
      ...(report.cutCells > 0
        ? {
            notice: `${report.cutCells === 1 ? '1 cell was' : `${report.cutCells} cells were`} longer than a spreadsheet holds (${MAX_CELL_CHARACTERS.toLocaleString('en-US')} characters) and cut with “…”.`,
          }
        : {}),
    };
  }
  if (format === 'json') {
    return {
      name,
      mimeType: 'application/json',
      text: snapshotToDocketJson(snapshot, exportedAt),
      count: snapshot.bills.length,
    };
  }
  return {
    name,
    mimeType: 'application/ld+json',
    text: snapshotToJsonLd(snapshot, exportedAt, newUuid),
    count: snapshot.annotations.length,
  };
}
