import type { Bill, BillOverrides } from '../bills/bill.ts';
import { mergeDuplicateBills } from '../bills/bill.ts';
import type { ImportError, ImportFile } from '../importers/bill-import-record.ts';
import { contentHash } from '../bills/canonical-hash.ts';
import type { DatasetRecords } from './dataset-import-records.ts';
import { readDatasetRecords } from './dataset-import-records.ts';
import type { JournalState } from './dataset-import-journal.ts';
import {
  beginJournal,
  checkpointKey,
  discardImport,
  journalResult,
  readJournal,
  stagingPrefix,
  writeChunk,
} from './dataset-import-journal.ts';
import type { Dataset, ImportStagingRow, Job, StoredBill } from '../store/local-records.ts';
import type { LocalStore, LocalWriteTransaction } from '../store/local-store.ts';
import type { ImportLimits } from '../encoding/zip-archive.ts';

// An import job turns a dataset's files into bills on the device.
//
// How "nothing half-written stays" holds:
// - Reading writes bills straight into `bills`, in chunks, each chunk in one transaction with
//   its undo journal row, the job row and a checkpoint row (records consumed, input
//   fingerprint): see dataset-import-journal.ts. Every bill row is written whole.
// - The last transaction takes the dataset off the bills it no longer provides, deletes the
//   journal and marks the dataset and the job done.
// - A cancel or a failure undoes the journal in one transaction: `bills` is as it was. So do a
//   retry, a cancel of an interrupted job, and a newer import of the dataset
//   (`discardImport`, used by dataset-commands.ts).
// - A job cut off while reading keeps its journal and checkpoint: the bills written so far stay
//   until it is resumed or cancelled. Resuming re-reads the same input (the importers are
//   deterministic), skips the records the checkpoint says are written, and carries on; if the
//   input changed (another fingerprint) the journal is undone and the import starts over.
// Bills reach the other screens as each chunk commits, and an import never holds a transaction
// open while it reads, so a swipe or a tag waits at most for one chunk.

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
   * With `chunkClock`: a promise that settles after the event loop has run once (a macrotask),
   * awaited every `breakMillis` of reading. Reading is synchronous, and IndexedDB hands a
   * transaction's results back, and so lets it commit, only when the thread is free: without
   * breaks the chunk written while the next one is read finishes only when that reading ends.
   */
  eventLoopBreak?: () => Promise<void>;
  /** How often reading makes way for the event loop (`eventLoopBreak`); 10 ms if not given. */
  breakMillis?: number;
  /**
   * 'journaled' (the default): each chunk is written into `bills` in its own transaction, with
   * its undo journal and a checkpoint; a job cut off while reading resumes where it stopped.
   * 'one-transaction': bills are written once, straight into `bills`, inside one transaction
   * that spans the whole read, with no journal; progress goes to the job row in small
   * transactions of their own (in Chromium they wait for the big one, and so does every other
   * write), and a job cut off starts over when resumed. Kept for the benchmark's comparison.
   */
  commit?: 'journaled' | 'one-transaction';
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
const JOURNAL_TABLES = ['bills', 'importStaging', 'jobs'] as const;
/** What a job still waiting or cut off says once a newer import of its dataset replaced it. */
export const REPLACED_MESSAGE = 'Replaced by a newer import.';
/** Chunk transactions queued in the store at once while reading goes on. */
const CHUNKS_IN_FLIGHT = 2;
const CHUNK_TABLES = ['bills', 'importStaging', 'jobs'] as const;
const FINISH_TABLES = ['bills', 'importStaging', 'jobs', 'datasets'] as const;

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

/** Deletes every staging row of a job (its journal and its checkpoint), undoing nothing: for a
 *  job that finished, or never wrote a bill. `discardImport` undoes what it wrote first. */
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
  // The chunk write in flight, if any (a holder, so the compiler sees the closures set it).
  const writing: { inFlight: Promise<void>[] } = { inFlight: [] };
  try {
    checkCancelled();
    const input = await options.loadInput(dataset);
    checkCancelled();
    const overrides = overridesOf(dataset);
    // The journal's layout is part of it: a job staged the older ways starts over.
    // The order of records is too: a job read format by format starts over.
    const fingerprint = contentHash({
      input: input.fingerprint,
      overrides,
      staging: 'journal',
      order: 'file-by-file',
    });
    const stream = readDatasetRecords(input.files, overrides, options.limits);
    const oneTransaction = options.commit === 'one-transaction';

    const checkpoint = await store.read(['importStaging'], (tx) =>
      tx.get('importStaging', checkpointKey(jobId)),
    );
    const resumable =
      !oneTransaction &&
      checkpoint?.kind === 'checkpoint' &&
      checkpoint.fingerprint === fingerprint;
    let journal = resumable
      ? await store.read(['importStaging'], (tx) => readJournal(tx, jobId, dataset.id))
      : null;
    let resumeFrom = 0;
    let errors: Job['errors'];
    let { written, skipped } = job.progress;
    /** The checkpoint found on resuming, which the first chunk written must still find. */
    let resumedMark: number | null = null;
    if (resumable && journal !== null) {
      resumeFrom = checkpoint.recordsConsumed;
      resumedMark = resumeFrom;
      errorCount = checkpoint.errorCount;
      errors = [...job.errors];
    } else {
      // A journal of other input (or none): undo it and start over. Another import of the
      // dataset still waiting or cut off (a retry of an older job runs while a newer one is
      // interrupted) is replaced: its journal is undone first, so it can never later undo
      // what this import writes, and the dataset's bills as this import begins are its own.
      journal = await store.write(JOURNAL_TABLES, async (tx) => {
        for (const other of await tx.where('jobs', 'subjectId', dataset.id)) {
          if (other.id === jobId) continue;
          if (other.status !== 'queued' && other.status !== 'interrupted') continue;
          await discardImport(tx, other.id, dataset.id);
          await tx.put('jobs', {
            ...other,
            status: 'cancelled',
            finishedAt: now(),
            message: REPLACED_MESSAGE,
          });
        }
        await discardImport(tx, jobId, dataset.id);
        return oneTransaction ? null : beginJournal(tx, jobId, dataset.id);
      });
      written = 0;
      skipped = 0;
      errorCount = stream.fileErrors.length;
      errors = stream.fileErrors.slice(0, errorLimit).map(jobErrorOf);
    }
    // The total as the files' count tells it, and the archives refused whole, before any record.
    const known: Job = {
      ...job,
      progress: {
        recordsRead: resumeFrom > 0 ? job.progress.recordsRead : 0,
        written,
        skipped,
        total: stream.total,
      },
      errors: [...errors],
    };
    await store.write(['jobs'], async (tx) => {
      const current = await tx.get('jobs', jobId);
      if (current?.status !== 'running') throw new ImportCancelledError();
      await tx.put('jobs', known);
    });
    job = known;
    report(job);

    if (journal === null) {
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
    const state = journal;

    /** Items met (records and unreadable files), which the checkpoint counts; records alone. */
    let consumed = 0;
    let recordsRead = 0;
    let pending = new Map<string, Bill>();
    /** The checkpoint the next chunk's transaction must find: the last chunk's, or the one
     *  resumed from (none on a fresh start, whose journal began with no checkpoint). */
    let lastMark = resumedMark;
    // Up to CHUNKS_IN_FLIGHT chunks are queued in the store while the next one is read: most of
    // IndexedDB's work happens off this thread, so reading (unzip, parse, normalize) overlaps
    // with it, and the store goes from one chunk to the next without waiting for this thread.
    const flush = async (message: string) => {
      while (writing.inFlight.length >= CHUNKS_IN_FLIGHT) await writing.inFlight.shift();
      checkCancelled();
      const chunk = [...pending.values()];
      pending = new Map();
      const next: Job = {
        ...job,
        progress: { recordsRead, written, skipped, total: stream.total },
        errors: [...errors],
        message,
      };
      const mark: ImportStagingRow = {
        id: checkpointKey(jobId),
        jobId,
        kind: 'checkpoint',
        fingerprint,
        recordsConsumed: consumed,
        errorCount,
      };
      const expectedMark = lastMark;
      lastMark = consumed;
      const done = store
        .write(CHUNK_TABLES, async (tx) => {
          const [current, found] = await Promise.all([
            tx.get('jobs', jobId),
            tx.get('importStaging', checkpointKey(jobId)),
          ]);
          // Someone else (a cancel from another tab, a newer import) took the job over.
          if (current?.status !== 'running') throw new ImportCancelledError();
          // The chunk queued before this one failed: writing this one would leave a hole that
          // the checkpoint hides. Its own error is the one the job reports.
          const at = found?.kind === 'checkpoint' ? found.recordsConsumed : null;
          if (at !== expectedMark) throw new Error('An earlier chunk of the import was not saved.');
          await Promise.all([
            chunk.length > 0 ? writeChunk(tx, state, chunk) : Promise.resolve(),
            tx.put('importStaging', mark),
            tx.put('jobs', next),
          ]);
        })
        .then(() => {
          job = next;
          report(job);
        });
      // Marked handled here; whoever awaits it later sees the failure.
      done.catch(() => undefined);
      writing.inFlight.push(done);
    };

    const { chunkMillis, chunkClock } = options;
    const timed = chunkMillis !== undefined && chunkClock !== undefined;
    let inChunk = 0;
    let chunkBegan = timed ? chunkClock() : 0;
    const { eventLoopBreak } = options;
    const breakMillis = options.breakMillis ?? 10;
    let lastBreak = chunkBegan;
    for (const item of stream.items()) {
      consumed++;
      if (item.kind === 'record') recordsRead++;
      if (consumed <= resumeFrom) continue;
      if (timed && eventLoopBreak !== undefined && chunkClock() - lastBreak >= breakMillis) {
        await eventLoopBreak();
        checkCancelled();
        lastBreak = chunkClock();
      }
      const outcome =
        item.kind === 'record' ? item.outcome : { ok: false as const, error: item.error };
      if (outcome.ok) {
        written++;
        const prior = pending.get(outcome.bill.id);
        pending.set(
          outcome.bill.id,
          prior ? mergeDuplicateBills([prior, outcome.bill]) : outcome.bill,
        );
      } else {
        // An unreadable file is an error, but not a record skipped.
        if (item.kind === 'record') skipped++;
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
    while (writing.inFlight.length > 0) await writing.inFlight.shift();
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
    const done = await store.write(FINISH_TABLES, (tx) =>
      finishJournaledImport(tx, {
        job,
        state,
        format,
        at: now(),
        chunkSize,
        checkCancelled,
        summarize: (result) => summary(result, errorCount, errorsStored),
      }),
    );
    job = done;
    report(job);
    return job;
  } catch (error) {
    // A chunk write still in flight ends (or fails) before the clean-up below runs.
    await Promise.allSettled(writing.inFlight.splice(0));
    const cancelled = error instanceof ImportCancelledError || signal?.aborted === true;
    const message = cancelled ? 'Cancelled; no bills were changed.' : describe(error);
    const finish = store.write(FINISH_TABLES, async (tx) => {
      await discardImport(tx, jobId, dataset.id);
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

interface FinishOptions {
  job: Job;
  state: JournalState;
  format: string | null;
  at: string;
  chunkSize: number;
  checkCancelled: () => void;
  summarize: (result: NonNullable<Job['result']>) => string;
}

/** Lets a promise fail unobserved while the body is leaving by another error. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Ends an import whose bills are all written: the dataset lets go of the bills it no longer
 * provides, the journal goes, and the dataset and the job are marked done, in the caller's one
 * transaction. Counts are from the dataset's point of view: a bill is "added" when the dataset did
 * not provide it before, even if another dataset did.
 */
async function finishJournaledImport(
  tx: LocalWriteTransaction,
  options: FinishOptions,
): Promise<Job> {
  const { job, state, chunkSize } = options;
  const current = await tx.get('jobs', job.id);
  if (current?.status !== 'running') throw new ImportCancelledError();
  const dataset = await tx.get('datasets', state.datasetId);
  if (!dataset) throw new Error('The dataset was deleted during the import.');

  // Bills the dataset no longer provides: it lets go of them, and a bill no dataset provides
  // goes. Rows keyed by bill id in other tables (tags, positions, decisions, annotations) stay,
  // so they come back with the bill if it is imported again.
  const result = { ...journalResult(state), removed: 0 };
  const gone = [...state.before.keys()].filter((id) => !state.seen.has(id));
  for (let start = 0; start < gone.length; start += chunkSize) {
    options.checkCancelled();
    const rows = await tx.getMany('bills', gone.slice(start, start + chunkSize));
    const keep: StoredBill[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (!row) continue;
      result.removed++;
      const datasetIds = row.datasetIds.filter((id) => id !== state.datasetId);
      if (datasetIds.length === 0) drop.push(row.id);
      else keep.push({ ...row, datasetIds });
    }
    if (keep.length > 0) await tx.putMany('bills', keep);
    if (drop.length > 0) await tx.deleteMany('bills', drop);
  }

  // The last chance to cancel with nothing changed (the cancel undoes the journal).
  options.checkCancelled();
  await clearImportStaging(tx, job.id);
  await tx.put('datasets', {
    ...dataset,
    format: options.format,
    billCount: state.seen.size,
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
  let recordsRead = 0;
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

    for (const item of stream.items()) {
      consumed++;
      if (item.kind === 'record') recordsRead++;
      const outcome =
        item.kind === 'record' ? item.outcome : { ok: false as const, error: item.error };
      if (outcome.ok) {
        written++;
        const prior = pending.get(outcome.bill.id);
        pending.set(
          outcome.bill.id,
          prior ? mergeDuplicateBills([prior, outcome.bill]) : outcome.bill,
        );
      } else {
        // An unreadable file is an error, but not a record skipped.
        if (item.kind === 'record') skipped++;
        errorCount++;
        if (errors.length < errorLimit) errors.push(jobErrorOf(outcome.error));
      }
      if (consumed % chunkSize === 0) {
        checkCancelled();
        await writeChunk();
        saveProgress({
          ...job,
          progress: { recordsRead, written, skipped, total: stream.total },
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
  const progress = { recordsRead, written, skipped, total: stream.total };
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
