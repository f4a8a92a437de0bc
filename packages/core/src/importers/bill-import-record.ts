import type { Bill, BillDraft, BillOverrides } from '../bills/bill.ts';
import { finalizeBill } from '../bills/bill.ts';
import { printable } from '../encoding/text-bytes.ts';

// What every importer takes and gives. Importers are generators of per-record outcomes so that
// a worker can stream a large dataset and report progress; the import* wrappers collect them.

/** One input file: its name (a path inside a folder or ZIP, used in messages and as a hint) and
 *  its bytes. */
export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

/** Why a record (or a whole file, when record is null) was not imported. */
export interface ImportError {
  /** The file, as "archive.zip/path/inside" for ZIP entries. */
  file: string;
  /** The record's identifier or position when known ("S.J.Res. 1", "row 7"). */
  record: string | null;
  reason: string;
}

export type RecordOutcome =
  { ok: true; file: string; bill: Bill } | { ok: false; error: ImportError };

export interface BillImportResult {
  bills: Bill[];
  errors: ImportError[];
  recordsRead: number;
}

/** A record's refusal. Its label and reason may quote the file, so whatever in them would not
 *  print (control characters, binary) is escaped: a message never carries a file's bytes. */
export function failure(file: string, record: string | null, reason: string): RecordOutcome {
  return {
    ok: false,
    error: {
      file: printable(file, 1_000),
      record: record === null ? null : printable(record, 200),
      reason: printable(reason, 1_000),
    },
  };
}

/** Finalizes a draft into an outcome, naming the record in the refusal. */
export function outcomeFromDraft(
  file: string,
  record: string | null,
  draft: BillDraft,
  overrides: BillOverrides,
): RecordOutcome {
  const result = finalizeBill(draft, overrides);
  return result.ok ? { ok: true, file, bill: result.bill } : failure(file, record, result.reason);
}

/**
 * Runs one record's conversion so that a bug or a surprise in one record becomes that record's
 * error instead of ending the whole import.
 */
export function guarded(
  file: string,
  record: string | null,
  convert: () => RecordOutcome,
): RecordOutcome {
  try {
    return convert();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(file, record, `could not be read: ${message}`);
  }
}

/** guarded, for a conversion that yields several outcomes (a bill and its side errors). */
export function guardedAll(
  file: string,
  record: string | null,
  convert: () => RecordOutcome[],
): RecordOutcome[] {
  try {
    return convert();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [failure(file, record, `could not be read: ${message}`)];
  }
}

export function collectOutcomes(outcomes: Iterable<RecordOutcome>): BillImportResult {
  const bills: Bill[] = [];
  const errors: ImportError[] = [];
  let recordsRead = 0;
  for (const outcome of outcomes) {
    recordsRead++;
    if (outcome.ok) bills.push(outcome.bill);
    else errors.push(outcome.error);
  }
  return { bills, errors, recordsRead };
}
