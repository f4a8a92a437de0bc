import type { BillOverrides } from './bill.ts';
import type { BillFormat } from './bill-format-detection.ts';
import { billFormats, detectExpandedFiles } from './bill-format-detection.ts';
import { readBillStatusRecords } from './bill-importer-billstatus.ts';
import { readCongressJsonRecords } from './bill-importer-congress-json.ts';
import { readDocketCsvRecords } from './bill-importer-docket-csv.ts';
import { readLegiScanRecords } from './bill-importer-legiscan.ts';
import { readOpenStatesRecords } from './bill-importer-openstates.ts';
import type { ImportError, ImportFile, RecordOutcome } from './bill-import-record.ts';
import { forgetParsedJson } from './loose-json.ts';
import type { ImportLimits } from './zip-archive.ts';
import { defaultImportLimits, expandArchives } from './zip-archive.ts';

// The streaming half of importBills (bill-import.ts): the same expansion, detection and readers,
// but handing out records one at a time instead of collecting them, so an import job can write
// them in chunks, report progress, stop between chunks, and skip what it already wrote when it
// resumes. The order of records is a pure function of the files, which is what resuming relies
// on.

const readers: Readonly<
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

/** Formats whose readers yield exactly one record per file, so the total is known up front. */
const oneRecordPerFile: ReadonlySet<BillFormat> = new Set(['billstatus', 'congress-json']);

export interface DatasetRecords {
  format: BillFormat | 'mixed' | null;
  /** Whole files that could not be read: broken archives, unknown formats. */
  fileErrors: ImportError[];
  /** Records expected in all, when every format present says so by its files; else null. */
  total: number | null;
  /** Every record of every file, in a fixed order. */
  records: () => Generator<RecordOutcome>;
}

export function readDatasetRecords(
  files: readonly ImportFile[],
  overrides: BillOverrides = {},
  limits: Partial<ImportLimits> = {},
): DatasetRecords {
  const expanded = expandArchives(files, { ...defaultImportLimits, ...limits });
  const detection = detectExpandedFiles(expanded.files);
  const fileErrors: ImportError[] = [
    ...expanded.errors,
    ...detection.unknown.map(({ file, reason }) => ({ file, record: null, reason })),
  ];
  let total: number | null = 0;
  for (const format of detection.formats) {
    const count = detection.filesByFormat.get(format)?.length ?? 0;
    total = total !== null && oneRecordPerFile.has(format) ? total + count : null;
  }
  return {
    format: detection.format,
    fileErrors,
    total,
    records: function* () {
      try {
        for (const format of billFormats) {
          const formatFiles = detection.filesByFormat.get(format);
          if (formatFiles) yield* readers[format](formatFiles, overrides);
        }
      } finally {
        forgetParsedJson();
      }
    },
  };
}
