import type { JournalState } from './dataset-import-journal.ts';
import { journalResult, readJournalChanges, stagingPrefix } from './dataset-import-journal.ts';
import { ImportCancelledError } from './dataset-import-errors.ts';
import type { FilesNotUsed } from '../importers/dataset-files-not-used.ts';
import { notUsedSummary } from '../importers/dataset-files-not-used.ts';
import type { BillChange, Job, StoredBill } from '../store/local-records.ts';
import type { LocalWriteTransaction } from '../store/local-store.ts';

// The end of an import whose bills are all written (the last step of runImportJob,
// dataset-import-job.ts): one transaction over these tables.

export const FINISH_TABLES = ['bills', 'importStaging', 'jobs', 'datasets', 'billChanges'] as const;

/** What one bill's change rows keep at most: the oldest go first. */
export const CHANGES_KEPT_PER_BILL = 50;

/** Deletes every staging row of a job (its journal and its checkpoint), undoing nothing: for a
 *  job that finished, or never wrote a bill. `discardImport` undoes what it wrote first. */
export async function clearImportStaging(tx: LocalWriteTransaction, jobId: string): Promise<void> {
  await tx.deletePrefix('importStaging', stagingPrefix(jobId));
}

/** The job's closing message: the counts, then the errors. */
export function summary(
  result: NonNullable<Job['result']>,
  errorCount: number,
  stored: number,
): string {
  const parts = [
    `${result.added} added, ${result.updated} updated, ${result.unchanged} unchanged, ${result.removed} removed`,
  ];
  const notUsed = notUsedSummary(result.notUsedCount ?? 0);
  if (notUsed !== '') parts.push(notUsed);
  if (errorCount > 0) {
    parts.push(
      errorCount > stored
        ? `${errorCount} errors (the first ${stored} are listed)`
        : `${errorCount} error${errorCount === 1 ? '' : 's'}`,
    );
  }
  return parts.join('; ');
}

export interface FinishOptions {
  job: Job;
  state: JournalState;
  format: string | null;
  at: string;
  chunkSize: number;
  checkCancelled: () => void;
  notUsed: FilesNotUsed;
  summarize: (result: NonNullable<Job['result']>) => string;
  /** The URL's validators the input came with, kept for the next refresh. */
  source?: SourceValidators;
  /** The input holds only the bills that changed since the last import (Open States'
   *  `updated_since`): the dataset keeps the bills it does not mention. */
  partial?: boolean;
}

/** A URL's ETag and Last-Modified, as the last download answered them; for an API source, its
 *  own version of the data (LegiScan's `dataset_hash`). */
export interface SourceValidators {
  etag: string | null;
  lastModified: string | null;
  hash?: string | null;
  /** For an API that lists what changed since a time: when this download asked. */
  since?: string | null;
}

/** The dataset's fields for a source's validators: all replaced (none when not a URL or API). */
export function sourceValidators(source: SourceValidators | undefined): {
  sourceEtag?: string | undefined;
  sourceLastModified?: string | undefined;
  sourceHash?: string | undefined;
  sourceUpdatedSince?: string | undefined;
} {
  return {
    sourceEtag: source?.etag ?? undefined,
    sourceLastModified: source?.lastModified ?? undefined,
    sourceHash: source?.hash ?? undefined,
    sourceUpdatedSince: source?.since ?? undefined,
  };
}

/**
 * Ends an import whose bills are all written: the dataset lets go of the bills it no longer
 * provides, the journal goes, and the dataset and the job are marked done, in the caller's one
 * transaction. Counts are from the dataset's point of view: a bill is "added" when the dataset did
 * not provide it before, even if another dataset did.
 */
export async function finishJournaledImport(
  tx: LocalWriteTransaction,
  options: FinishOptions,
): Promise<Job> {
  const { job, state } = options;
  const current = await tx.get('jobs', job.id);
  if (current?.status !== 'running') throw new ImportCancelledError();
  const dataset = await tx.get('datasets', state.datasetId);
  if (!dataset) throw new Error('The dataset was deleted during the import.');

  // Bills the dataset no longer provides: it lets go of them, and a bill no dataset provides
  // goes. Rows keyed by bill id in other tables (tags, positions, decisions, annotations) stay,
  // so they come back with the bill if it is imported again.
  const result: NonNullable<Job['result']> = {
    ...journalResult(state),
    removed: 0,
    ...options.notUsed.resultFields(),
  };
  result.removed += await letGoOfBills(tx, options);

  // What changed in bills the dataset already provided, recorded with the finish's time.
  const changed = await recordBillChanges(tx, options);
  if (changed > 0) result.changed = changed;

  // The last chance to cancel with nothing changed (the cancel undoes the journal).
  options.checkCancelled();
  await clearImportStaging(tx, job.id);
  await tx.put('datasets', {
    ...dataset,
    format: options.format,
    billCount:
      // A partial import knows only the bills it met: the others stay as they were.
      options.partial === true ? dataset.billCount + result.added : state.seen.size,
    lastImportAt: options.at,
    lastJobId: job.id,
    state: 'ready',
    ...sourceValidators(options.source),
  });
  const done: Job = {
    ...job,
    status: 'done',
    finishedAt: options.at,
    result,
    message: options.summarize(result),
  };
  await tx.put('jobs', done);
  return done;
}

/** Lets go of the bills a full import did not meet; gives how many the dataset provided. */
async function letGoOfBills(tx: LocalWriteTransaction, options: FinishOptions): Promise<number> {
  const { state, chunkSize } = options;
  let removed = 0;
  const gone =
    options.partial === true ? [] : [...state.before.keys()].filter((id) => !state.seen.has(id));
  for (let start = 0; start < gone.length; start += chunkSize) {
    options.checkCancelled();
    const rows = await tx.getMany('bills', gone.slice(start, start + chunkSize));
    const keep: StoredBill[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (!row) continue;
      removed++;
      const datasetIds = row.datasetIds.filter((id) => id !== state.datasetId);
      if (datasetIds.length === 0) drop.push(row.id);
      else keep.push({ ...row, datasetIds });
    }
    if (keep.length > 0) await tx.putMany('bills', keep);
    if (drop.length > 0) await tx.deleteMany('bills', drop);
  }
  return removed;
}

/**
 * Records the journal's changes of bills the import met, each bill keeping its newest
 * CHANGES_KEPT_PER_BILL; gives how many were recorded.
 */
async function recordBillChanges(
  tx: LocalWriteTransaction,
  options: FinishOptions,
): Promise<number> {
  const { job, state } = options;
  const changed = await readJournalChanges(tx, job.id);
  const changeRows: BillChange[] = [];
  for (const [billId, changes] of changed) {
    const toHash = state.seen.get(billId);
    if (toHash === undefined) continue;
    changeRows.push({
      id: `${billId}|${options.at}`,
      billId,
      datasetId: state.datasetId,
      at: options.at,
      toHash,
      changes: changes.slice(0, 200),
    });
  }
  if (changeRows.length > 0) {
    await tx.putMany('billChanges', changeRows);
    const stale: string[] = [];
    for (const row of changeRows) {
      const kept = await tx.keysBetween(
        'billChanges',
        `${row.billId}|`,
        `${row.billId}|\uffff`,
        1000,
      );
      stale.push(...kept.slice(0, Math.max(0, kept.length - CHANGES_KEPT_PER_BILL)));
    }
    if (stale.length > 0) await tx.deleteMany('billChanges', stale);
  }
  return changeRows.length;
}
