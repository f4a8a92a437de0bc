import type { Bill, BillOverrides } from '../bills/bill.ts';
import type { Member } from '../bills/member-votes.ts';
import { compareBills, mergeDuplicateBills } from '../bills/bill-merge.ts';
import type { BillFormat } from './bill-format-detection.ts';
import { billFormatReaders, billFormats, detectExpandedFiles } from './bill-format-detection.ts';
import { readLegiScanRecords } from './bill-importer-legiscan.ts';
import type { ImportError, ImportFile, RecordOutcome } from './bill-import-record.ts';
import { addMember } from './bill-import-record.ts';
import { forgetParsedJson } from '../encoding/loose-json.ts';
import type { ImportLimits } from '../encoding/zip-archive.ts';
import { defaultImportLimits, expandArchives } from '../encoding/zip-archive.ts';
import type { FileNotUsed } from './dataset-files-not-used.ts';
import { fileNotUsed, NOTE_NOT_USED } from './dataset-files-not-used.ts';

// The one entry point for turning files into bills: unzip, detect, read with the right
// importer, merge records of the same bill, sort. It never throws; everything that goes wrong
// comes back in `errors`, each naming the file and, when known, the record.

export interface ImportBillsOptions extends BillOverrides {
  /** Size limits for files and archives (defaults in zip-archive.ts). */
  limits?: Partial<ImportLimits>;
  /** Called for every record as it is read, for progress reporting. */
  onRecord?: (outcome: RecordOutcome) => void;
}

export interface ImportBillsResult {
  format: BillFormat | 'mixed' | null;
  formats: BillFormat[];
  /** One per id, sorted by jurisdiction, session, type and number. */
  bills: Bill[];
  errors: ImportError[];
  /** Files read that brought nothing to any bill, with why (a README beside the data, a
   *  LegiScan text of a bill not imported). */
  notUsed: FileNotUsed[];
  /**
   * Who the members in the bills' votes are (each vote's `members` names them by key), one entry
   * per id: the first read, its missing party, district or role filled from later ones. Only
   * members a source describes are here; a key with no entry is a member the source names only.
   */
  members: Member[];
  /** Records read, whether they became bills or errors. */
  recordsRead: number;
  /** Files examined after ZIPs were expanded. */
  filesRead: number;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What importBills read from a run of files before records of one bill are merged: every bill
 * read, in the order read. Slices of files that stand alone (each file's bills need no other
 * file, as with BILLSTATUS XML) can be read apart, on several threads, and combined.
 */
export interface ImportSlice<Kept = Bill> extends Omit<ImportBillsResult, 'bills'> {
  /** Every bill read, in order, or what the reader's `keep` made of each. */
  records: Kept[];
}

export function importBills(
  files: readonly ImportFile[],
  options: ImportBillsOptions = {},
): ImportBillsResult {
  return combineImportSlices(
    [readImportSlice(files, options)],
    files.map((file) => file.name),
  );
}

/**
 * Reads `files` with their importers, without merging records of the same bill. `keep` turns
 * each bill into what the slice keeps of it as soon as it is read (the CLI keeps its JSON line):
 * a bill's strings are often slices of its whole file's text, so a bill kept to the end of the
 * slice keeps that text alive with it, and the collector copies both from one generation to the
 * next; turned into what is kept at once, they die young.
 */
export function readImportSlice(
  files: readonly ImportFile[],
  options?: ImportBillsOptions,
): ImportSlice;
export function readImportSlice<Kept>(
  files: readonly ImportFile[],
  options: ImportBillsOptions,
  keep: (bill: Bill) => Kept,
): ImportSlice<Kept>;
export function readImportSlice(
  files: readonly ImportFile[],
  options: ImportBillsOptions = {},
  keep?: (bill: Bill) => unknown,
): ImportSlice<unknown> {
  const limits: ImportLimits = { ...defaultImportLimits, ...options.limits };
  const overrides: BillOverrides = { jurisdiction: options.jurisdiction, session: options.session };
  const errors: ImportError[] = [];
  const notUsed: FileNotUsed[] = [];
  const records: unknown[] = [];
  const members = new Map<string, Member>();
  let recordsRead = 0;
  let filesRead = 0;
  let format: ImportBillsResult['format'] = null;
  let formats: BillFormat[] = [];
  try {
    const expanded = expandArchives(files, limits);
    errors.push(...expanded.errors);
    filesRead = expanded.files.length;
    const detection = detectExpandedFiles(expanded.files);
    format = detection.format;
    formats = detection.formats;
    for (const { file, reason } of detection.unknown) errors.push({ file, record: null, reason });
    for (const billFormat of billFormats) {
      const formatFiles = detection.filesByFormat.get(billFormat);
      if (!formatFiles) continue;
      const outcomes =
        billFormat === 'legiscan'
          ? readLegiScanRecords(formatFiles, overrides, (item) => notUsed.push(item))
          : billFormatReaders[billFormat](formatFiles, overrides);
      for (const outcome of outcomes) {
        recordsRead++;
        options.onRecord?.(outcome);
        if (outcome.ok) {
          records.push(keep === undefined ? outcome.bill : keep(outcome.bill));
          for (const member of outcome.members ?? []) addMember(members, member);
        } else errors.push(outcome.error);
      }
    }
    for (const file of detection.ignored) notUsed.push(fileNotUsed(file.name, NOTE_NOT_USED));
  } catch (error) {
    // Importers guard each record; this is the last line for a bug outside any record.
    errors.push({
      file: files.map((file) => file.name).join(', '),
      record: null,
      reason: `import failed: ${describe(error)}`,
    });
  }
  forgetParsedJson();
  return {
    format,
    formats,
    records,
    errors,
    notUsed,
    members: [...members.values()],
    recordsRead,
    filesRead,
  };
}

/**
 * Slices read in the order of their files, as one import: records of one bill merged (in the
 * order read, as if one slice had read them all), bills sorted, errors and notes in order.
 */
export function combineImportSlices(
  slices: readonly ImportSlice[],
  fileNames: readonly string[],
): ImportBillsResult {
  const byId = new Map<string, Bill[]>();
  for (const slice of slices) {
    for (const bill of slice.records) {
      const list = byId.get(bill.id);
      if (list) list.push(bill);
      else byId.set(bill.id, [bill]);
    }
  }
  const bills = [...byId.values()].map(mergeDuplicateBills).sort(compareBills);
  return { ...combineSliceReports(slices, fileNames, bills.length), bills };
}

/**
 * Everything of slices read in order but their bills: formats, errors, notes, the member
 * directory and counts, with the error that nothing was found when `billCount` is 0 and nothing
 * else went wrong.
 */
export function combineSliceReports(
  slices: readonly Omit<ImportSlice, 'records'>[],
  fileNames: readonly string[],
  billCount: number,
): Omit<ImportBillsResult, 'bills'> {
  const errors: ImportError[] = [];
  const notUsed: FileNotUsed[] = [];
  const members = new Map<string, Member>();
  const seen = new Set<BillFormat>();
  let recordsRead = 0;
  let filesRead = 0;
  for (const slice of slices) {
    errors.push(...slice.errors);
    notUsed.push(...slice.notUsed);
    for (const member of slice.members) addMember(members, member);
    for (const format of slice.formats) seen.add(format);
    recordsRead += slice.recordsRead;
    filesRead += slice.filesRead;
  }
  const formats = billFormats.filter((format) => seen.has(format));
  const format =
    formats.length === 0 ? null : formats.length === 1 ? (formats[0] ?? null) : 'mixed';
  if (billCount === 0 && errors.length === 0) {
    errors.push({
      file: fileNames.join(', ') || '(no files)',
      record: null,
      reason: 'no bills found in the files',
    });
  }
  return {
    format,
    formats,
    errors,
    notUsed,
    members: [...members.values()],
    recordsRead,
    filesRead,
  };
}
