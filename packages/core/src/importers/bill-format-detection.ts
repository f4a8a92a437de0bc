import type { BillOverrides } from '../bills/bill.ts';
import { billSources, type BillSource } from '../bills/bill-vocabulary.ts';
import { isBillStatusXml, readBillStatusRecords } from './bill-importer-billstatus.ts';
import {
  isCongressJson,
  isCongressTextVersion,
  readCongressJsonRecords,
} from './bill-importer-congress-json.ts';
import { readDocketCsvRecords } from './bill-importer-docket-csv.ts';
import { legiScanRole, readLegiScanRecords } from './bill-importer-legiscan.ts';
import {
  openStatesCsvRole,
  openStatesJsonRole,
  readOpenStatesRecords,
} from './bill-importer-openstates.ts';
import type { ImportFile, RecordOutcome } from './bill-import-record.ts';
import { csvHeader } from '../encoding/csv-table.ts';
import { isDocketCsvHeader } from './docket-csv-layout.ts';
import { looksLikeJson, parseJsonBytes } from '../encoding/loose-json.ts';
import { decodeUtf8Head } from '../encoding/text-bytes.ts';
import { decodeXmlHead, DOCTYPE_REFUSED, hasDoctype } from '../text/xml-text.ts';
import type { ImportLimits } from '../encoding/zip-archive.ts';
import { defaultImportLimits, expandArchives, isZip } from '../encoding/zip-archive.ts';

// Formats are recognised by what files contain, never by their names: a LegiScan bill saved as
// "download (3).json" or a BILLSTATUS file renamed ".txt" still imports. Each importer owns the
// test for its own format; this module only asks them in turn.

/** The formats Docket reads: the ones a bill records as its `source`. */
export const billFormats = billSources;
export type BillFormat = BillSource;

/** Each format's reader, one registry for importBills and the import job's record stream. */
export const billFormatReaders: Readonly<
  Record<
    BillFormat,
    (files: readonly ImportFile[], overrides: BillOverrides) => Generator<RecordOutcome>
  >
> = {
  legiscan: readLegiScanRecords,
  openstates: readOpenStatesRecords,
  billstatus: readBillStatusRecords,
  'congress-json': readCongressJsonRecords,
  'docket-csv': readDocketCsvRecords,
};

export const UNKNOWN_FORMAT_MESSAGE =
  'Not a known bill format: expected LegiScan JSON or ZIP, Open States JSON or CSV, GovInfo BILLSTATUS XML, congress data.json, or Docket CSV.';

export type FileDetection =
  | { kind: 'format'; format: BillFormat }
  | { kind: 'zip' }
  /** Notes that travel with datasets (README, LICENSE, .DS_Store); skipped beside data files. */
  | { kind: 'ignored' }
  | { kind: 'unknown'; reason: string };

function isAccompanyingNote(name: string): boolean {
  const base = name.split('/').pop() ?? name;
  return (
    base.startsWith('.') ||
    /^(readme|license|licence|changelog|notice|copying)(\.[a-z]+)?$/i.test(base) ||
    /\.(md|txt|pdf|html?)$/i.test(base) ||
    /^(thumbs\.db|desktop\.ini)$/i.test(base)
  );
}

/** The format of one file, from its content. */
export function detectFile(file: ImportFile): FileDetection {
  if (isZip(file.bytes)) return { kind: 'zip' };
  const head = decodeUtf8Head(file.bytes);
  const xmlHead = decodeXmlHead(file.bytes);
  const trimmed = head.trimStart();
  if (trimmed === '') {
    return isAccompanyingNote(file.name)
      ? { kind: 'ignored' }
      : { kind: 'unknown', reason: 'file is empty' };
  }
  if (looksLikeJson(trimmed)) {
    const parsed = parseJsonBytes(file.bytes);
    if (!parsed.ok)
      return { kind: 'unknown', reason: `${parsed.reason}. ${UNKNOWN_FORMAT_MESSAGE}` };
    if (legiScanRole(parsed.value) !== null) return { kind: 'format', format: 'legiscan' };
    if (isCongressJson(parsed.value)) return { kind: 'format', format: 'congress-json' };
    // A data.json bill's text version, beside it in the scraper's layout.
    if (isCongressTextVersion(parsed.value)) return { kind: 'format', format: 'congress-json' };
    if (openStatesJsonRole(parsed.value) !== null) return { kind: 'format', format: 'openstates' };
  } else if (xmlHead.trimStart().startsWith('<')) {
    // The XML head is decoded from UTF-16 too: only BILLSTATUS is XML among the formats read.
    if (hasDoctype(xmlHead)) return { kind: 'unknown', reason: DOCTYPE_REFUSED };
    if (isBillStatusXml(xmlHead)) return { kind: 'format', format: 'billstatus' };
  } else {
    const header = csvHeader(trimmed);
    if (openStatesCsvRole(header, file.name) !== null)
      return { kind: 'format', format: 'openstates' };
    if (isDocketCsvHeader(header)) return { kind: 'format', format: 'docket-csv' };
  }
  return isAccompanyingNote(file.name)
    ? { kind: 'ignored' }
    : { kind: 'unknown', reason: UNKNOWN_FORMAT_MESSAGE };
}

export interface FormatDetection {
  /** The one format of the set, 'mixed' when it holds several (the unitedstates/congress layout
   *  keeps data.json and fdsys_billstatus.xml side by side), null when none. */
  format: BillFormat | 'mixed' | null;
  formats: BillFormat[];
  filesByFormat: Map<BillFormat, ImportFile[]>;
  ignored: ImportFile[];
  unknown: { file: string; reason: string }[];
}

/** Formats of files already expanded (no ZIPs among them). */
export function detectExpandedFiles(files: readonly ImportFile[]): FormatDetection {
  const filesByFormat = new Map<BillFormat, ImportFile[]>();
  const ignored: ImportFile[] = [];
  const unknown: { file: string; reason: string }[] = [];
  for (const file of files) {
    const detection = detectFile(file);
    switch (detection.kind) {
      case 'format': {
        const list = filesByFormat.get(detection.format);
        if (list) list.push(file);
        else filesByFormat.set(detection.format, [file]);
        break;
      }
      case 'ignored':
        ignored.push(file);
        break;
      case 'zip':
        unknown.push({
          file: file.name,
          reason: 'a ZIP inside a ZIP is not read; unzip the outer archive first',
        });
        break;
      case 'unknown':
        unknown.push({ file: file.name, reason: detection.reason });
        break;
    }
  }
  const formats = billFormats.filter((format) => filesByFormat.has(format));
  // Notes are only skipped beside data; a README given alone is refused like any unknown file.
  if (formats.length === 0) {
    for (const file of ignored) unknown.push({ file: file.name, reason: UNKNOWN_FORMAT_MESSAGE });
    ignored.length = 0;
  }
  const format =
    formats.length === 0 ? null : formats.length === 1 ? (formats[0] ?? null) : 'mixed';
  return { format, formats, filesByFormat, ignored, unknown };
}

/** The format of a single file or a set of files (a folder's files, ZIPs expanded). */
export function detectFormat(
  files: readonly ImportFile[],
  limits: ImportLimits = defaultImportLimits,
): FormatDetection {
  const expanded = expandArchives(files, limits);
  const detection = detectExpandedFiles(expanded.files);
  detection.unknown.unshift(
    ...expanded.errors.map((error) => ({ file: error.file, reason: error.reason })),
  );
  return detection;
}
