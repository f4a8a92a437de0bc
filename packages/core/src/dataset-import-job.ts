import type { Bill, BillOverrides } from './bill.ts';
import { mergeDuplicateBills } from './bill.ts';
import type { ImportError, ImportFile } from './bill-import-record.ts';
import { contentHash } from './canonical-hash.ts';
import type { DatasetRecords } from './dataset-import-records.ts';
import { readDatasetRecords } from './dataset-import-records.ts';
import type { Dataset, ImportStagingRow, Job, StoredBill } from './local-records.ts';
import type { LocalStore, LocalWriteTransaction } from './local-store.ts';
import type { ImportLimits } from './zip-archive.ts';

// An import job turns a dataset's files into bills on the device.
//
// How "nothing half-written stays" holds:
// - Reading writes only to `importStaging`, in chunks, each chunk in one transaction with the
//   job row and a checkpoint row (records consumed, input fingerprint). A chunk's bills are one
//   row of JSON text, which IndexedDB writes and reads back several times faster than the same
//   bills as objects. `bills` is not touched.
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
  /** Records per write transaction while reading, at most. */
  chunkSize?: number;
  /**
   * With `chunkClock`, a staging chunk also closes once this many milliseconds of reading have
   * passed since it began, however few records it holds: progress and checkpoints keep coming
   * on slow input, while fast input gets fewer, larger transactions (each one costs IndexedDB a
   * commit: in Chromium 150 on disk, 250 transactions of 20 rows took 1.8 times as long as one
   * of 5,000). Without them a chunk is exactly `chunkSize` records.
   */
  chunkMillis?: number;
  /** Milliseconds from any fixed point, read between records (Date.now in the worker). */
  chunkClock?: () => number;
  /**
   * 'staged' (the default): chunks go to `importStaging` with a checkpoint, then one commit
   * moves them into `bills`; a job cut off while reading resumes where it stopped.
   * 'one-transaction': bills are written once, straight into `bills`, inside one transaction
   * that spans the whole read; progress goes to the job row in small transactions of their own
   * (in Chromium they were seen to wait for the big one). About a third faster on the
   * benchmark, but a job cut off starts over when resumed.
   */
  commit?: 'staged' | 'one-transaction';
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
function stagedChunkPrefix(jobId: string): string {
  return `${jobId}|chunk|`;
}
/** Zero-padded, so key order is staging order. */
function stagedChunkKey(jobId: string, sequence: number): string {
  return `${stagedChunkPrefix(jobId)}${String(sequence).padStart(8, '0')}`;
}
function chunkRow(jobId: string, sequence: number, bills: readonly Bill[]): ImportStagingRow {
  return {
    id: stagedChunkKey(jobId, sequence),
    jobId,
    kind: 'chunk',
    bills: JSON.stringify(bills),
  };
}
/** The bills of a staged chunk row. JSON gives back exactly the bills that went in (plain
 *  strings, integers, booleans and nulls), key order included. */
function billsOf(row: ImportStagingRow | undefined): Bill[] {
  return row?.kind === 'chunk' ? (JSON.parse(row.bills) as Bill[]) : [];
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
  await tx.deletePrefix('importStaging', stagingPrefix(jobId));
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
  /** Each bill this job has staged, and the sequence of the chunk row that holds it. */
  const stagedAt = new Map<string, number>();
  /** Chunk rows written so far (a holder, so the compiler sees the closures change it). */
  const chunks = { written: 0 };
  // The staging write in flight, if any (a holder, so the compiler sees the closures set it).
  const staging: { inFlight: Promise<void> | null } = { inFlight: null };
  try {
    checkCancelled();
    const input = await options.loadInput(dataset);
    checkCancelled();
    const overrides = overridesOf(dataset);
    // The staging layout is part of it: a job staged bill by bill (before chunks) starts over.
    const fingerprint = contentHash({ input: input.fingerprint, overrides, staging: 'chunks' });
    const stream = readDatasetRecords(input.files, overrides, options.limits);

    const { checkpoint, staged } = await store.read(['importStaging'], async (tx) => {
      const found = await tx.get('importStaging', checkpointKey(jobId));
      const resuming = found?.kind === 'checkpoint' && found.fingerprint === fingerprint;
      const where = new Map<string, number>();
      let count = 0;
      if (resuming) {
        const prefix = stagedChunkPrefix(jobId);
        for (const key of await tx.keys('importStaging')) {
          if (!key.startsWith(prefix)) continue;
          const sequence = Number(key.slice(prefix.length));
          if (!Number.isInteger(sequence) || sequence < 0) continue;
          for (const bill of billsOf(await tx.get('importStaging', key))) {
            where.set(bill.id, sequence);
          }
          count = Math.max(count, sequence + 1);
        }
      }
      return { checkpoint: found, staged: { where, count } };
    });
    let resumeFrom = 0;
    let errors: Job['errors'];
    let { written, skipped } = job.progress;
    const oneTransaction = options.commit === 'one-transaction';
    if (
      !oneTransaction &&
      checkpoint?.kind === 'checkpoint' &&
      checkpoint.fingerprint === fingerprint
    ) {
      resumeFrom = checkpoint.recordsConsumed;
      errorCount = checkpoint.errorCount;
      errors = [...job.errors];
      for (const [id, sequence] of staged.where) stagedAt.set(id, sequence);
      chunks.written = staged.count;
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

    if (oneTransaction) {
      job = await importInOneTransaction({
        store,
        job,
        datasetId: dataset.id,
        stream,
        errors,
        errorCount,
        errorLimit,
        chunkSize,
        now,
        checkCancelled,
        report: (next) => {
          job = next;
          report(next);
        },
      });
      report(job);
      return job;
    }

    let consumed = 0;
    let pending = new Map<string, Bill>();
    // One staging write is in flight while the next chunk is read: most of IndexedDB's work
    // happens off this thread, so reading (unzip, parse, normalize) overlaps with it.
    const flush = async (message: string) => {
      if (staging.inFlight !== null) await staging.inFlight;
      staging.inFlight = null;
      checkCancelled();
      const chunk = [...pending.values()];
      pending = new Map();
      // A bill staged by an earlier chunk is merged into that chunk's row, where it keeps its
      // place; the others (on a normal import, all of them) make a new row and need no read.
      const repeatedIn = new Map<number, Map<string, Bill>>();
      const fresh: Bill[] = [];
      for (const bill of chunk) {
        const sequence = stagedAt.get(bill.id);
        if (sequence === undefined) {
          fresh.push(bill);
          continue;
        }
        const repeated = repeatedIn.get(sequence) ?? new Map<string, Bill>();
        repeated.set(bill.id, bill);
        repeatedIn.set(sequence, repeated);
      }
      const rows: ImportStagingRow[] = [];
      if (fresh.length > 0) {
        const sequence = chunks.written++;
        for (const bill of fresh) stagedAt.set(bill.id, sequence);
        rows.push(chunkRow(jobId, sequence, fresh));
      }
      const next: Job = {
        ...job,
        progress: { recordsRead: consumed, written, skipped, total: stream.total },
        errors: [...errors],
        message,
      };
      rows.push({
        id: checkpointKey(jobId),
        jobId,
        kind: 'checkpoint',
        fingerprint,
        recordsConsumed: consumed,
        errorCount,
      });
      let issued = (): void => undefined;
      const handedOver = new Promise<void>((resolve) => {
        issued = resolve;
      });
      const done = store
        .write(STAGING_TABLES, async (tx) => {
          const current = await tx.get('jobs', jobId);
          // Someone else (a cancel from another tab, a newer import) took the job over.
          if (current?.status !== 'running') throw new ImportCancelledError();
          if (repeatedIn.size > 0) {
            const sequences = [...repeatedIn.keys()];
            const earlier = await tx.getMany(
              'importStaging',
              sequences.map((sequence) => stagedChunkKey(jobId, sequence)),
            );
            sequences.forEach((sequence, index) => {
              const repeated = repeatedIn.get(sequence);
              const bills = billsOf(earlier[index]).map((prior) => {
                const incoming = repeated?.get(prior.id);
                // The same bill from two files (data.json beside its BILLSTATUS XML) is one.
                return incoming ? mergeDuplicateBills([prior, incoming]) : prior;
              });
              rows.push(chunkRow(jobId, sequence, bills));
            });
          }
          const puts = [tx.putMany('importStaging', rows), tx.put('jobs', next)];
          issued();
          await Promise.all(puts);
        })
        .then(() => {
          job = next;
          report(job);
        });
      // Reading goes on once the rows are handed to the store (or the write failed early).
      const settled = done.catch(() => undefined);
      staging.inFlight = done;
      // Marked handled here; whoever awaits inFlight next sees the failure.
      done.catch(() => undefined);
      await Promise.race([handedOver, settled]);
    };

    const { chunkMillis, chunkClock } = options;
    const timed = chunkMillis !== undefined && chunkClock !== undefined;
    let inChunk = 0;
    let chunkBegan = timed ? chunkClock() : 0;
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
      inChunk++;
      if (inChunk >= chunkSize || (timed && chunkClock() - chunkBegan >= chunkMillis)) {
        await flush('Reading files');
        checkCancelled();
        inChunk = 0;
        if (timed) chunkBegan = chunkClock();
      }
    }
    if (consumed < resumeFrom) throw new Error('The files changed while the import was paused.');
    await flush('Saving bills');
    await staging.inFlight;
    staging.inFlight = null;
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
        chunks: chunks.written,
        billCount: stagedAt.size,
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
    // A staging write still in flight ends (or fails) before the clean-up below runs.
    await staging.inFlight?.catch(() => undefined);
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
  /** The job's staged chunk rows, numbered from 0. */
  chunks: number;
  /** Bills in them. */
  billCount: number;
  format: string | null;
  at: string;
  chunkSize: number;
  checkCancelled: () => void;
  summarize: (result: NonNullable<Job['result']>) => string;
  report: (job: Job) => void;
}

/** Lets a promise fail unobserved while the body is leaving by another error. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Moves a job's staged bills into `bills` and finishes the job, inside the caller's single
 * transaction. Counts are from the dataset's point of view: a bill is "added" when the dataset
 * did not provide it before, even if another dataset did.
 */
async function commitStagedBills(tx: LocalWriteTransaction, options: CommitOptions): Promise<Job> {
  const { job, datasetId, chunkSize, chunks, billCount } = options;
  const current = await tx.get('jobs', job.id);
  if (current?.status !== 'running') throw new ImportCancelledError();
  const dataset = await tx.get('datasets', datasetId);
  if (!dataset) throw new Error('The dataset was deleted during the import.');

  // What the dataset provided before, kept small: a bill it already has is compared by hash and
  // needs no read. Bills of other datasets only are read (to add this dataset to them); a bill
  // nobody has is simply written, so a first import reads nothing from `bills`.
  const previous = new Map<string, { changeHash: string; datasetIds: string[] }>();
  for (const bill of await tx.where('bills', 'datasetIds', datasetId)) {
    previous.set(bill.id, { changeHash: bill.changeHash, datasetIds: bill.datasetIds });
  }
  const stored = new Set(await tx.keys('bills'));
  const result = { added: 0, updated: 0, unchanged: 0, removed: 0 };

  const read = (sequence: number) =>
    handled(tx.get('importStaging', stagedChunkKey(job.id, sequence)));
  // The next chunk's read is queued ahead so the store never waits for this thread; the
  // staging goes at the end in one key-range delete.
  let nextRead = chunks > 0 ? read(0) : null;
  let lastWrite: Promise<void> | null = null;
  let saved = 0;
  for (let sequence = 0; sequence < chunks; sequence++) {
    options.checkCancelled();
    const staged = nextRead === null ? undefined : await nextRead;
    nextRead = sequence + 1 < chunks ? read(sequence + 1) : null;
    const bills = billsOf(staged);
    const others = bills.filter((bill) => !previous.has(bill.id) && stored.has(bill.id));
    const otherRows = new Map<string, StoredBill>();
    if (others.length > 0) {
      const rows = await tx.getMany(
        'bills',
        others.map((bill) => bill.id),
      );
      for (const row of rows) if (row) otherRows.set(row.id, row);
    }
    const writes: StoredBill[] = [];
    for (const bill of bills) {
      const had = previous.get(bill.id);
      if (had) {
        previous.delete(bill.id);
        if (had.changeHash === bill.changeHash) result.unchanged++;
        else {
          result.updated++;
          writes.push({ ...bill, datasetIds: had.datasetIds });
        }
        continue;
      }
      result.added++;
      const prior = otherRows.get(bill.id);
      if (!prior) writes.push({ ...bill, datasetIds: [datasetId] });
      else if (prior.changeHash !== bill.changeHash)
        writes.push({ ...bill, datasetIds: [...prior.datasetIds, datasetId] });
      else writes.push({ ...prior, datasetIds: [...prior.datasetIds, datasetId] });
    }
    if (lastWrite !== null) await lastWrite;
    lastWrite = writes.length > 0 ? handled(tx.putMany('bills', writes)) : null;
    saved += bills.length;
    options.report({ ...job, message: `Saving bills: ${saved} of ${billCount}` });
  }
  if (lastWrite !== null) await lastWrite;

  // Bills the dataset no longer provides: it lets go of them, and a bill no dataset provides
  // goes. Rows keyed by bill id in other tables (tags, positions, decisions, annotations) stay,
  // so they come back with the bill if it is imported again.
  const gone = [...previous.keys()];
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
  await clearImportStaging(tx, job.id);
  await tx.put('datasets', {
    ...dataset,
    format: options.format,
    billCount,
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

interface OneTransactionOptions {
  store: LocalStore;
  job: Job;
  datasetId: string;
  stream: DatasetRecords;
  errors: Job['errors'];
  errorCount: number;
  errorLimit: number;
  chunkSize: number;
  now: () => string;
  checkCancelled: () => void;
  report: (job: Job) => void;
}

/**
 * The whole import in one transaction over `bills`: every bill is written once, a cancel or a
 * closed tab rolls all of it back, and no staging is written, read back or deleted. The job row
 * is kept out of the transaction, so that it does not lock the jobs screen's reads, and gets
 * the progress through small transactions of its own, only the newest waiting row (Chromium held
 * them until the big one ended); the job is marked done once the bills are committed. A
 * cut-off import leaves `bills` as it was and starts over when resumed.
 */
async function importInOneTransaction(options: OneTransactionOptions): Promise<Job> {
  const { store, datasetId, stream, chunkSize, errorLimit } = options;
  const jobId = options.job.id;
  let job = options.job;
  const errors = [...options.errors];
  let errorCount = options.errorCount;
  let takenOver = false;
  const checkCancelled = () => {
    options.checkCancelled();
    // Someone else (a cancel from another tab, a newer import) took the job over.
    if (takenOver) throw new ImportCancelledError();
  };

  // Progress rows: at most one write in flight; the newest row waiting replaces older ones.
  let waiting: Job | null = null;
  // Holders, so the compiler sees the closures below change them.
  const progressWrite: { writing: Promise<void> | null } = { writing: null };
  const saveProgress = (next: Job) => {
    job = next;
    options.report(next);
    waiting = next;
    if (progressWrite.writing !== null) return;
    progressWrite.writing = (async () => {
      while (waiting !== null) {
        const row: Job = waiting;
        waiting = null;
        await store.write(['jobs'], async (tx) => {
          const current = await tx.get('jobs', jobId);
          if (current?.status !== 'running') takenOver = true;
          else await tx.put('jobs', row);
        });
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        progressWrite.writing = null;
      });
  };

  const result = { added: 0, updated: 0, unchanged: 0, removed: 0 };
  let consumed = 0;
  let written = 0;
  let skipped = 0;
  let billCount = 0;
  await store.write(['bills'], async (tx) => {
    const previous = new Map<string, { changeHash: string; datasetIds: string[] }>();
    for (const bill of await tx.where('bills', 'datasetIds', datasetId)) {
      previous.set(bill.id, { changeHash: bill.changeHash, datasetIds: bill.datasetIds });
    }
    const stored = new Set(await tx.keys('bills'));
    /** Each bill written so far, with its change hash and whether the dataset had it before. */
    const seen = new Map<string, { hash: string; had: string | null }>();
    let pending = new Map<string, Bill>();
    const bills: { lastWrite: Promise<void> | null } = { lastWrite: null };

    const writeChunk = async () => {
      const chunk = [...pending.values()];
      pending = new Map();
      // A bill already written by this import (the same bill from another file) is merged
      // with what was written; a bill of another dataset only is read to add this dataset.
      const reads = chunk.filter(
        (bill) => seen.has(bill.id) || (!previous.has(bill.id) && stored.has(bill.id)),
      );
      const rows = new Map<string, StoredBill>();
      if (reads.length > 0) {
        // Ordered after the write still in flight, so it sees that write.
        const found = await tx.getMany(
          'bills',
          reads.map((bill) => bill.id),
        );
        for (const row of found) if (row) rows.set(row.id, row);
      }
      const writes: StoredBill[] = [];
      for (const incoming of chunk) {
        const prior = rows.get(incoming.id);
        const earlier = seen.get(incoming.id);
        if (earlier !== undefined && prior !== undefined) {
          const { datasetIds, ...content } = prior;
          const merged = mergeDuplicateBills([content, incoming]);
          earlier.hash = merged.changeHash;
          writes.push({ ...merged, datasetIds });
          continue;
        }
        const had = previous.get(incoming.id);
        if (had) {
          previous.delete(incoming.id);
          seen.set(incoming.id, { hash: incoming.changeHash, had: had.changeHash });
          if (had.changeHash !== incoming.changeHash)
            writes.push({ ...incoming, datasetIds: had.datasetIds });
          continue;
        }
        seen.set(incoming.id, { hash: incoming.changeHash, had: null });
        if (!prior) writes.push({ ...incoming, datasetIds: [datasetId] });
        else if (prior.changeHash !== incoming.changeHash)
          writes.push({ ...incoming, datasetIds: [...prior.datasetIds, datasetId] });
        else writes.push({ ...prior, datasetIds: [...prior.datasetIds, datasetId] });
      }
      if (bills.lastWrite !== null) await bills.lastWrite;
      // Not awaited: the next chunk is read while this one is written.
      bills.lastWrite = writes.length > 0 ? handled(tx.putMany('bills', writes)) : null;
    };

    for (const outcome of stream.records()) {
      consumed++;
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
        checkCancelled();
        await writeChunk();
        saveProgress({
          ...job,
          progress: { recordsRead: consumed, written, skipped, total: stream.total },
          errors: [...errors],
          message: 'Reading files',
        });
      }
    }
    checkCancelled();
    await writeChunk();
    if (bills.lastWrite !== null) await bills.lastWrite;
    if (written === 0) {
      const first = errors[0];
      throw new Error(
        first === undefined
          ? 'No bills found in the files.'
          : `No bills found in the files: ${first.reason}`,
      );
    }

    // Bills the dataset no longer provides: it lets go of them, and a bill no dataset provides
    // goes. Rows keyed by bill id in other tables (tags, positions, decisions, annotations)
    // stay, so they come back with the bill if it is imported again.
    const gone = [...previous.keys()];
    for (let start = 0; start < gone.length; start += chunkSize) {
      checkCancelled();
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
    for (const { hash, had } of seen.values()) {
      if (had === null) result.added++;
      else if (had === hash) result.unchanged++;
      else result.updated++;
    }
    billCount = seen.size;
    // The last chance to cancel with nothing changed.
    checkCancelled();
  });

  // The bills are in. The job and the dataset follow; should the tab close in between, the
  // job is found interrupted and a resume finds every bill unchanged.
  while (progressWrite.writing !== null) await progressWrite.writing;
  const at = options.now();
  const progress = { recordsRead: consumed, written, skipped, total: stream.total };
  return store.write(['jobs', 'datasets'], async (tx) => {
    const dataset = await tx.get('datasets', datasetId);
    if (dataset) {
      await tx.put('datasets', {
        ...dataset,
        format: stream.format,
        billCount,
        lastImportAt: at,
        lastJobId: jobId,
        state: 'ready',
      });
    }
    const done: Job = {
      ...job,
      status: 'done',
      finishedAt: at,
      progress,
      errors,
      result,
      message: summary(result, errorCount, errors.length),
    };
    await tx.put('jobs', done);
    return done;
  });
}
