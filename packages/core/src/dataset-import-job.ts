import type { Bill, BillOverrides } from './bill.ts';
import { mergeDuplicateBills } from './bill.ts';
import type { ImportError, ImportFile } from './bill-import-record.ts';
import { contentHash } from './canonical-hash.ts';
import { readDatasetRecords } from './dataset-import-records.ts';
import type { Dataset, ImportStagingRow, Job, StoredBill } from './local-records.ts';
import type { LocalStore, LocalWriteTransaction } from './local-store.ts';
import type { ImportLimits } from './zip-archive.ts';

// An import job turns a dataset's files into bills on the device.
//
// How "nothing half-written stays" holds:
// - Reading writes only to `importStaging`, in chunks, each chunk in one transaction with the
//   job row and a checkpoint row (records consumed, input fingerprint). `bills` is not touched.
// - The commit moves the staged bills into `bills`, marks the dataset and the job done and
//   deletes the staging, all in ONE write transaction. IndexedDB (and the memory store) either
//   applies a transaction whole or not at all, so a crash, a closed tab or a cancel during the
//   commit (the body throws, which rolls it back) leaves `bills` exactly as it was.
// - Cancel and failure delete the job's staging and never reach the commit.
// - A job cut off while reading keeps its staging and checkpoint. Resuming re-reads the same
//   input (the importers are deterministic), skips the records the checkpoint says are staged,
//   and carries on; if the input changed (another fingerprint) it starts over instead.
// The commit is the only writer of `bills`, and it is idempotent in effect: it runs once,
// whole, and then the staging it reads from is gone.

export const IMPORT_CHUNK_SIZE = 500;
/** Errors kept on the job row; the count of all of them is kept beside it. */
export const STORED_ERROR_LIMIT = 100;

/** What the job reads: the files, and a string that changes whenever they do. */
export interface ImportInput {
  files: readonly ImportFile[];
  fingerprint: string;
}

/** An AbortSignal, or anything with its `aborted` flag (core is compiled without DOM types). */
export interface CancelSignal {
  readonly aborted: boolean;
}

export interface RunImportJobOptions {
  store: LocalStore;
  jobId: string;
  /** Reads the dataset's files (or downloads its URL). Runs outside every transaction. */
  loadInput: (dataset: Dataset) => Promise<ImportInput>;
  /** ISO timestamps, injectable for tests. */
  now: () => string;
  signal?: CancelSignal;
  /** Called with the job row each time it changes, and during the commit. */
  onProgress?: (job: Job) => void;
  /** Records per write transaction while reading. */
  chunkSize?: number;
  storedErrorLimit?: number;
  limits?: Partial<ImportLimits>;
}

export class ImportCancelledError extends Error {
  constructor() {
    super('The import was cancelled.');
    this.name = 'ImportCancelledError';
  }
}

const RUNNABLE_TABLES = ['jobs', 'datasets'] as const;
const STAGING_TABLES = ['importStaging', 'jobs'] as const;
const COMMIT_TABLES = ['bills', 'importStaging', 'jobs', 'datasets'] as const;
const FINISH_TABLES = ['importStaging', 'jobs', 'datasets'] as const;

function stagingPrefix(jobId: string): string {
  return `${jobId}|`;
}
function stagedBillPrefix(jobId: string): string {
  return `${jobId}|bill|`;
}
function stagedBillKey(jobId: string, billId: string): string {
  return `${stagedBillPrefix(jobId)}${billId}`;
}
function checkpointKey(jobId: string): string {
  return `${jobId}|checkpoint`;
}

/** The error as the jobs screen shows it: the record (and its file), then why. */
export function jobErrorOf(error: ImportError): Job['errors'][number] {
  return {
    record: error.record === null ? error.file : `${error.record} in ${error.file}`,
    reason: error.reason,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function overridesOf(dataset: Dataset): BillOverrides {
  return {
    ...(dataset.jurisdiction === null ? {} : { jurisdiction: dataset.jurisdiction }),
    ...(dataset.session === null ? {} : { session: dataset.session }),
  };
}

/** The dataset's state once no import is running: ready if it ever imported, else new. */
function idleState(dataset: Dataset): Dataset['state'] {
  return dataset.lastImportAt === null ? 'new' : 'ready';
}

export const emptyProgress: Job['progress'] = {
  recordsRead: 0,
  written: 0,
  skipped: 0,
  total: null,
};

/** Deletes every staging row of a job (its bills and its checkpoint). */
export async function clearImportStaging(tx: LocalWriteTransaction, jobId: string): Promise<void> {
  const prefix = stagingPrefix(jobId);
  const keys = (await tx.keys('importStaging')).filter((key) => key.startsWith(prefix));
  if (keys.length > 0) await tx.deleteMany('importStaging', keys);
}

function summary(result: NonNullable<Job['result']>, errorCount: number, stored: number): string {
  const parts = [
    `${result.added} added, ${result.updated} updated, ${result.unchanged} unchanged, ${result.removed} removed`,
  ];
  if (errorCount > 0) {
    parts.push(
      errorCount > stored
        ? `${errorCount} errors (the first ${stored} are listed)`
        : `${errorCount} error${errorCount === 1 ? '' : 's'}`,
    );
  }
  return parts.join('; ');
}

/**
 * Runs a queued import job to its end: done, failed or cancelled. A job in any other state is
 * returned untouched (another tab may be running it). Never throws for a problem of the data or
 * the input; it throws only when the store itself fails, leaving the job to be found
 * interrupted at the next start.
 */
export async function runImportJob(options: RunImportJobOptions): Promise<Job> {
  const { store, jobId, now, signal } = options;
  const chunkSize = Math.max(1, options.chunkSize ?? IMPORT_CHUNK_SIZE);
  const errorLimit = options.storedErrorLimit ?? STORED_ERROR_LIMIT;
  const report = (job: Job) => options.onProgress?.(job);
  const checkCancelled = () => {
    if (signal?.aborted === true) throw new ImportCancelledError();
  };

  const start = await store.write(RUNNABLE_TABLES, async (tx) => {
    const job = await tx.get('jobs', jobId);
    if (!job) throw new Error(`There is no job ${jobId}.`);
    if (job.status !== 'queued') return { job, dataset: null };
    const dataset = await tx.get('datasets', job.subjectId);
    const at = now();
    if (!dataset) {
      const failed: Job = {
        ...job,
        status: 'failed',
        finishedAt: at,
        message: 'The dataset of this import no longer exists.',
      };
      await tx.put('jobs', failed);
      return { job: failed, dataset: null };
    }
    const running: Job = {
      ...job,
      status: 'running',
      startedAt: at,
      finishedAt: null,
      message: 'Reading files',
    };
    await tx.put('jobs', running);
    await tx.put('datasets', { ...dataset, state: 'importing' });
    return { job: running, dataset };
  });
  if (start.dataset === null) return start.job;
  const dataset = start.dataset;
  let job = start.job;
  report(job);

  let errorCount = 0;
  try {
    checkCancelled();
    const input = await options.loadInput(dataset);
    checkCancelled();
    const overrides = overridesOf(dataset);
    const fingerprint = contentHash({ input: input.fingerprint, overrides });
    const stream = readDatasetRecords(input.files, overrides, options.limits);

    const checkpoint = await store.read(['importStaging'], (tx) =>
      tx.get('importStaging', checkpointKey(jobId)),
    );
    let resumeFrom = 0;
    let errors: Job['errors'];
    let { written, skipped } = job.progress;
    if (checkpoint?.kind === 'checkpoint' && checkpoint.fingerprint === fingerprint) {
      resumeFrom = checkpoint.recordsConsumed;
      errorCount = checkpoint.errorCount;
      errors = [...job.errors];
    } else {
      // Staging from other input (or none): start over.
      if (checkpoint !== undefined || job.progress.recordsRead > 0) {
        await store.write(['importStaging'], (tx) => clearImportStaging(tx, jobId));
      }
      written = 0;
      skipped = 0;
      errorCount = stream.fileErrors.length;
      errors = stream.fileErrors.slice(0, errorLimit).map(jobErrorOf);
    }
    // The total and the files that could not be read are known before the first record.
    const known: Job = {
      ...job,
      progress: { recordsRead: resumeFrom, written, skipped, total: stream.total },
      errors: [...errors],
    };
    await store.write(['jobs'], async (tx) => {
      const current = await tx.get('jobs', jobId);
      if (current?.status !== 'running') throw new ImportCancelledError();
      await tx.put('jobs', known);
    });
    job = known;
    report(job);

    let consumed = 0;
    let pending = new Map<string, Bill>();
    const flush = async (message: string) => {
      const chunk = [...pending.values()];
      pending = new Map();
      const next: Job = {
        ...job,
        progress: { recordsRead: consumed, written, skipped, total: stream.total },
        errors: [...errors],
        message,
      };
      const row: ImportStagingRow = {
        id: checkpointKey(jobId),
        jobId,
        kind: 'checkpoint',
        fingerprint,
        recordsConsumed: consumed,
        errorCount,
      };
      await store.write(STAGING_TABLES, async (tx) => {
        const current = await tx.get('jobs', jobId);
        // Someone else (a cancel from another tab, a newer import) took the job over.
        if (current?.status !== 'running') throw new ImportCancelledError();
        const keys = chunk.map((bill) => stagedBillKey(jobId, bill.id));
        const staged = await tx.getMany('importStaging', keys);
        const rows = chunk.map((bill, index): ImportStagingRow => {
          const prior = staged[index];
          return {
            id: stagedBillKey(jobId, bill.id),
            jobId,
            kind: 'bill',
            // The same bill from two files (data.json beside its BILLSTATUS XML) is one bill.
            bill: prior?.kind === 'bill' ? mergeDuplicateBills([prior.bill, bill]) : bill,
          };
        });
        if (rows.length > 0) await tx.putMany('importStaging', rows);
        await tx.put('importStaging', row);
        await tx.put('jobs', next);
      });
      job = next;
      report(job);
    };

    for (const outcome of stream.records()) {
      consumed++;
      if (consumed <= resumeFrom) continue;
      if (outcome.ok) {
        written++;
        const prior = pending.get(outcome.bill.id);
        pending.set(
          outcome.bill.id,
          prior ? mergeDuplicateBills([prior, outcome.bill]) : outcome.bill,
        );
      } else {
        skipped++;
        errorCount++;
        if (errors.length < errorLimit) errors.push(jobErrorOf(outcome.error));
      }
      if (consumed % chunkSize === 0) {
        await flush('Reading files');
        checkCancelled();
      }
    }
    if (consumed < resumeFrom) throw new Error('The files changed while the import was paused.');
    await flush('Saving bills');
    checkCancelled();

    if (written === 0) {
      const first = errors[0];
      throw new Error(
        first === undefined
          ? 'No bills found in the files.'
          : `No bills found in the files: ${first.reason}`,
      );
    }

    const format = stream.format;
    const errorsStored = errors.length;
    const done = await store.write(COMMIT_TABLES, (tx) =>
      commitStagedBills(tx, {
        job,
        datasetId: dataset.id,
        format,
        at: now(),
        chunkSize,
        checkCancelled,
        summarize: (result) => summary(result, errorCount, errorsStored),
        report,
      }),
    );
    job = done;
    report(job);
    return job;
  } catch (error) {
    const cancelled = error instanceof ImportCancelledError || signal?.aborted === true;
    const message = cancelled ? 'Cancelled; no bills were changed.' : describe(error);
    const finish = store.write(FINISH_TABLES, async (tx) => {
      await clearImportStaging(tx, jobId);
      const current = (await tx.get('jobs', jobId)) ?? job;
      const finished: Job = {
        ...current,
        status: cancelled ? 'cancelled' : 'failed',
        finishedAt: now(),
        message,
      };
      await tx.put('jobs', finished);
      const latest = await tx.get('datasets', dataset.id);
      if (latest?.state === 'importing') {
        await tx.put('datasets', {
          ...latest,
          state: cancelled ? idleState(latest) : 'failed',
        });
      }
      return finished;
    });
    // When the store itself is failing (the tab is closing), the original error says why; the
    // job stays "running" and the next start marks it interrupted.
    const ended = await finish.catch(() => {
      throw error;
    });
    report(ended);
    return ended;
  }
}

interface CommitOptions {
  job: Job;
  datasetId: string;
  format: string | null;
  at: string;
  chunkSize: number;
  checkCancelled: () => void;
  summarize: (result: NonNullable<Job['result']>) => string;
  report: (job: Job) => void;
}

/**
 * Moves a job's staged bills into `bills` and finishes the job, inside the caller's single
 * transaction. Counts are from the dataset's point of view: a bill is "added" when the dataset
 * did not provide it before, even if another dataset did.
 */
async function commitStagedBills(tx: LocalWriteTransaction, options: CommitOptions): Promise<Job> {
  const { job, datasetId, chunkSize } = options;
  const current = await tx.get('jobs', job.id);
  if (current?.status !== 'running') throw new ImportCancelledError();
  const dataset = await tx.get('datasets', datasetId);
  if (!dataset) throw new Error('The dataset was deleted during the import.');

  const prefix = stagedBillPrefix(job.id);
  const allKeys = await tx.keys('importStaging');
  const stagedKeys = allKeys.filter((key) => key.startsWith(prefix));
  const previous = new Set((await tx.where('bills', 'datasetIds', datasetId)).map((b) => b.id));
  const result = { added: 0, updated: 0, unchanged: 0, removed: 0 };

  for (let start = 0; start < stagedKeys.length; start += chunkSize) {
    options.checkCancelled();
    const staged = await tx.getMany('importStaging', stagedKeys.slice(start, start + chunkSize));
    const bills = staged.flatMap((row) => (row?.kind === 'bill' ? [row.bill] : []));
    const existing = await tx.getMany(
      'bills',
      bills.map((bill) => bill.id),
    );
    const writes: StoredBill[] = [];
    bills.forEach((bill, index) => {
      const prior = existing[index];
      const had = previous.delete(bill.id);
      if (!prior) {
        result.added++;
        writes.push({ ...bill, datasetIds: [datasetId] });
        return;
      }
      const datasetIds = prior.datasetIds.includes(datasetId)
        ? prior.datasetIds
        : [...prior.datasetIds, datasetId];
      if (!had) result.added++;
      else if (prior.changeHash === bill.changeHash) result.unchanged++;
      else result.updated++;
      if (prior.changeHash !== bill.changeHash) writes.push({ ...bill, datasetIds });
      else if (datasetIds !== prior.datasetIds) writes.push({ ...prior, datasetIds });
    });
    if (writes.length > 0) await tx.putMany('bills', writes);
    options.report({
      ...job,
      message: `Saving bills: ${Math.min(start + chunkSize, stagedKeys.length)} of ${stagedKeys.length}`,
    });
  }

  // Bills the dataset no longer provides: it lets go of them, and a bill no dataset provides
  // goes. Rows keyed by bill id in other tables (tags, positions, decisions, annotations) stay,
  // so they come back with the bill if it is imported again.
  const gone = [...previous];
  for (let start = 0; start < gone.length; start += chunkSize) {
    options.checkCancelled();
    const rows = await tx.getMany('bills', gone.slice(start, start + chunkSize));
    const keep: StoredBill[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (!row) continue;
      result.removed++;
      const datasetIds = row.datasetIds.filter((id) => id !== datasetId);
      if (datasetIds.length === 0) drop.push(row.id);
      else keep.push({ ...row, datasetIds });
    }
    if (keep.length > 0) await tx.putMany('bills', keep);
    if (drop.length > 0) await tx.deleteMany('bills', drop);
  }

  options.checkCancelled();
  const jobPrefix = stagingPrefix(job.id);
  await tx.deleteMany(
    'importStaging',
    allKeys.filter((key) => key.startsWith(jobPrefix)),
  );
  await tx.put('datasets', {
    ...dataset,
    format: options.format,
    billCount: stagedKeys.length,
    lastImportAt: options.at,
    lastJobId: job.id,
    state: 'ready',
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
