import type { BillOverrides } from '../bills/bill.ts';
import type { BillFormat } from '../importers/bill-format-detection.ts';
import {
  billFormatReaders,
  billFormats,
  detectFile,
  UNKNOWN_FORMAT_MESSAGE,
} from '../importers/bill-format-detection.ts';
import { readLegiScanRecords } from '../importers/bill-importer-legiscan.ts';
import {
  CONGRESS_TEXT_VERSION_PATH,
  congressTextVersions,
  readCongressJsonRecords,
  type CongressTextVersions,
} from '../importers/bill-importer-congress-json.ts';
import type { ImportError, ImportFile, RecordOutcome } from '../importers/bill-import-record.ts';
import { forgetParsedJson } from '../encoding/loose-json.ts';
import type { ImportLimits, PendingFile } from '../encoding/zip-archive.ts';
import { defaultImportLimits, planArchives } from '../encoding/zip-archive.ts';
import type { FileNotUsed } from '../importers/dataset-files-not-used.ts';
import { fileNotUsed, NOTE_NOT_USED } from '../importers/dataset-files-not-used.ts';

// The streaming half of importBills (bill-import.ts): the same archives, detection and readers,
// but one file at a time, handing out records as they are read, so an import job can write them
// in chunks while it reads, report progress, stop between chunks, and skip what it already wrote
// when it resumes.
//
// Files are read in their order (an archive's entries in the archive's order): each is inflated,
// detected and, when its format's records stand alone in one file (BILLSTATUS, data.json, Docket
// CSV), read at once and let go. The formats whose records are spread over several files
// (LegiScan's bill, vote, people and text folders; Open States' bills beside their vote events)
// are kept aside and read once every file has been seen, in `billFormats` order. The order is a
// pure function of the files, which is what resuming relies on. Detection and reading parse a
// JSON file once between them (loose-json.ts keeps the last parse).

/** Formats whose files are read as soon as they are met: each file's records need no other. */
const fileByFile: ReadonlySet<BillFormat> = new Set(['billstatus', 'congress-json', 'docket-csv']);

/** Formats whose readers yield exactly one record per file, so a count of files is a total. */
const oneRecordPerFile: ReadonlySet<BillFormat> = new Set(['billstatus', 'congress-json']);

/**
 * A record of a bill, a whole file that could not be read (damaged, or of no known format), or a
 * file read that brought nothing to any bill (a README beside the data, a LegiScan text of a bill
 * not imported), with why.
 */
export type DatasetItem =
  | { kind: 'record'; outcome: RecordOutcome }
  | { kind: 'file-error'; error: ImportError }
  | { kind: 'not-used'; notUsed: FileNotUsed };

export interface DatasetRecords {
  /** The formats met, once `items()` has been read to its end: one, 'mixed', or null. */
  readonly format: BillFormat | 'mixed' | null;
  /** Files and archives refused whole before anything was read (size limits, broken ZIPs). */
  readonly fileErrors: readonly ImportError[];
  /**
   * Records expected in all: at first every file to read, then less each file that turns out to
   * hold no record, and null from the first file of a format with no count per file.
   */
  readonly total: number | null;
  /** Every item of every file, in a fixed order. */
  items: () => Generator<DatasetItem>;
}

function* records(outcomes: Iterable<RecordOutcome>): Generator<DatasetItem> {
  for (const outcome of outcomes) yield { kind: 'record', outcome };
}

function fileError(file: string, reason: string): DatasetItem {
  return { kind: 'file-error', error: { file, record: null, reason } };
}

export function readDatasetRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
  limits: Partial<ImportLimits> = {},
): DatasetRecords {
  const plan = planArchives(files, { ...defaultImportLimits, ...limits });
  const tally: RecordsTally = { met: new Set<BillFormat>(), total: plan.files.length };
  return {
    get format() {
      const formats = billFormats.filter((format) => tally.met.has(format));
      if (formats.length === 0) return null;
      return formats.length === 1 ? (formats[0] ?? null) : 'mixed';
    },
    fileErrors: plan.errors,
    get total() {
      return tally.total;
    },
    items: function* () {
      tally.met.clear();
      tally.total = plan.files.length;
      const reading: FileReading = {
        tally,
        overrides,
        textVersions: readTextVersions(plan.files),
        keptAside: new Map<BillFormat, ImportFile[]>(),
        notes: [],
      };
      try {
        for (const pending of plan.files) yield* readPendingFile(pending, reading);
        yield* readKeptAside(reading);
        // Notes are only skipped beside data; a README given alone is refused like any unknown
        // file (as detectExpandedFiles does).
        for (const note of reading.notes) {
          yield tally.met.size === 0
            ? fileError(note.name, UNKNOWN_FORMAT_MESSAGE)
            : { kind: 'not-used', notUsed: fileNotUsed(note.name, NOTE_NOT_USED) };
        }
      } finally {
        forgetParsedJson();
      }
    },
  };
}

/** What the items read so far tell: the formats met, and the total (see DatasetRecords). */
interface RecordsTally {
  readonly met: Set<BillFormat>;
  total: number | null;
}

/** One read of the items, as each file's reading shares it. */
interface FileReading {
  readonly tally: RecordsTally;
  readonly overrides: BillOverrides;
  readonly textVersions: CongressTextVersions;
  /** Files of the formats whose records are spread over several files, read at the end. */
  readonly keptAside: Map<BillFormat, ImportFile[]>;
  /** Notes beside the data (a README), which hold no record. */
  readonly notes: ImportFile[];
}

/** A file that turned out to hold no record: one less expected. */
function holdsNoRecord(tally: RecordsTally): void {
  if (tally.total !== null) tally.total--;
}

/**
 * The data.json layout's text versions (text-versions/<code>/data.json, small files), read
 * first, so each bill's data.json is read with its versions and still let go at once.
 */
function readTextVersions(files: readonly PendingFile[]): CongressTextVersions {
  const versionFiles = files.filter((pending) => CONGRESS_TEXT_VERSION_PATH.test(pending.name));
  return congressTextVersions(
    versionFiles.flatMap((pending) => {
      const read = pending.read();
      return read.ok ? [read.file] : [];
    }),
  );
}

/** One file read and detected: its records, or kept aside for later, or why it is not read. */
function* readPendingFile(pending: PendingFile, reading: FileReading): Generator<DatasetItem> {
  const { tally } = reading;
  const read = pending.read();
  if (!read.ok) {
    holdsNoRecord(tally);
    yield { kind: 'file-error', error: read.error };
    return;
  }
  const file = read.file;
  const detection = detectFile(file);
  switch (detection.kind) {
    case 'format': {
      yield* readFormatFile(file, detection.format, reading);
      break;
    }
    case 'ignored':
      holdsNoRecord(tally);
      reading.notes.push(file);
      break;
    case 'zip':
      holdsNoRecord(tally);
      yield fileError(file.name, 'a ZIP inside a ZIP is not read; unzip the outer archive first');
      break;
    case 'unknown':
      holdsNoRecord(tally);
      yield fileError(file.name, detection.reason);
      break;
  }
}

/** A file of a known format: its records read now, or the file kept aside for the end. */
function* readFormatFile(
  file: ImportFile,
  format: BillFormat,
  reading: FileReading,
): Generator<DatasetItem> {
  const { tally, overrides } = reading;
  tally.met.add(format);
  if (!oneRecordPerFile.has(format)) tally.total = null;
  if (format === 'congress-json') {
    // A text version holds no record of its own: its bill's data.json has it.
    let bills = 0;
    for (const outcome of readCongressJsonRecords([file], overrides, reading.textVersions)) {
      bills++;
      yield { kind: 'record', outcome };
    }
    if (bills === 0) holdsNoRecord(tally);
  } else if (fileByFile.has(format)) {
    yield* records(billFormatReaders[format]([file], overrides));
  } else {
    const list = reading.keptAside.get(format);
    if (list) list.push(file);
    else reading.keptAside.set(format, [file]);
  }
}

/** The formats kept aside, read once every file has been seen, in `billFormats` order. */
function* readKeptAside(reading: FileReading): Generator<DatasetItem> {
  const { overrides } = reading;
  for (const format of billFormats) {
    const list = reading.keptAside.get(format);
    if (!list) continue;
    if (format === 'legiscan') {
      const notUsed: FileNotUsed[] = [];
      yield* records(readLegiScanRecords(list, overrides, (item) => notUsed.push(item)));
      for (const item of notUsed) yield { kind: 'not-used', notUsed: item };
    } else {
      yield* records(billFormatReaders[format](list, overrides));
    }
  }
}
