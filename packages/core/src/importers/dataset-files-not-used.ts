import { printable } from '../encoding/text-bytes.ts';

// Files a dataset holds that no importer reads are said, not silently dropped: a person who gave
// a LegiScan dataset with its texts should learn that the PDFs were not read, and a README beside
// BILLSTATUS files is named as left aside. Each carries why, so the list explains itself.

/** A file given (or a ZIP entry) that was read but brought nothing to any bill, and why. */
export interface FileNotUsed {
  /** The file, as "archive.zip/path/inside" for ZIP entries. */
  file: string;
  reason: string;
}

/** Files not used kept in a job's result; the count says how many there were in all. */
export const STORED_NOT_USED_LIMIT = 100;

export const NOTE_NOT_USED =
  'not bill data: a README, licence or other note that travels with datasets';

/** A LegiScan roll call or text whose bill is not among the files imported. */
export function legiScanBillAbsent(kind: 'roll call' | 'text', billId: string): string {
  return `a LegiScan ${kind} of bill_id ${billId}, which is not among the bills imported`;
}

/** A LegiScan text document whose content is not read (PDF, Word): the bill lists it by link. */
export function legiScanDocumentNotRead(mime: string | null): string {
  return `a LegiScan text document of type ${mime ?? 'unknown'}, whose content is not read (only HTML and plain text are); the bill lists the document with its link`;
}

/** The entry as stored and printed: names and reasons can come from the files. */
export function fileNotUsed(file: string, reason: string): FileNotUsed {
  return { file: printable(file, 1_000), reason: printable(reason, 1_000) };
}

/** Files not used as a job keeps them: the first few with their reasons, and how many in all. */
export class FilesNotUsed {
  readonly kept: FileNotUsed[] = [];
  count = 0;
  constructor(private readonly limit = STORED_NOT_USED_LIMIT) {}

  add(notUsed: FileNotUsed): void {
    this.count++;
    if (this.kept.length < this.limit) this.kept.push(notUsed);
  }

  /** The fields a job's result carries, none when every file was used. */
  resultFields(): { notUsed?: FileNotUsed[]; notUsedCount?: number } {
    return this.count === 0 ? {} : { notUsed: [...this.kept], notUsedCount: this.count };
  }
}

/** "3 files not used", for a job's one-line summary; empty when every file was used. */
export function notUsedSummary(count: number): string {
  return count === 0 ? '' : `${count} file${count === 1 ? '' : 's'} not used`;
}
