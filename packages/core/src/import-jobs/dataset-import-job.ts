import type { BillOverrides } from '../bills/bill.ts';
import type { ImportFile } from '../importers/bill-import-record.ts';
import { contentHash } from '../bills/canonical-hash.ts';
import type { DatasetRecords } from './dataset-import-records.ts';
import { readDatasetRecords } from './dataset-import-records.ts';
import type { JournalState } from './dataset-import-journal.ts';
import {
  beginJournal,
  checkpointKey,
  discardImport,
  readJournal,
} from './dataset-import-journal.ts';
import type { JobRun, ReadCounts } from './dataset-import-chunks.ts';
import { ChunkPacing, ChunkQueue } from './dataset-import-chunks.ts';
import type { Dataset, Job } from '../store/local-records.ts';
import type { LocalStore, LocalWriteTransaction } from '../store/local-store.ts';
import type { ImportLimits } from '../encoding/zip-archive.ts';
import { FilesNotUsed } from '../importers/dataset-files-not-used.ts';
import { ImportCancelledError, jobErrorOf } from './dataset-import-errors.ts';
import { downloadProgress, type LoadInput } from './dataset-import-progress.ts';
import type { SourceValidators } from './dataset-import-finish.ts';
import { FINISH_TABLES, finishJournaledImport, summary } from './dataset-import-finish.ts';

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
  /** A URL's validators (ETag, Last-Modified), kept with the dataset for the next refresh. */
  source?: SourceValidators;
  /** Only the bills that changed since the last import: the dataset keeps the others. */
  partial?: boolean;
}

/** What `loadInput` gives when a conditional request said the source has not changed. */
export interface SourceUnchanged {
  unchanged: true;
}

/** The job's message when the source had not changed. */
export const NO_CHANGES_MESSAGE = 'No changes: the source is as it was at the last import.';

/** An AbortSignal, or anything with its `aborted` flag (core is compiled without DOM types). */
export interface CancelSignal {
  readonly aborted: boolean;
}

export interface RunImportJobOptions {
  store: LocalStore;
  jobId: string;
  loadInput: LoadInput;
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
  storedErrorLimit?: number;
  limits?: Partial<ImportLimits>;
}

const RUNNABLE_TABLES = ['jobs', 'datasets'] as const;
const JOURNAL_TABLES = ['bills', 'importStaging', 'jobs'] as const;
/** What a job still waiting or cut off says once a newer import of its dataset replaced it. */
export const REPLACED_MESSAGE = 'Replaced by a newer import.';
/**
 * Replaces the imports of a dataset that wait or were cut off (queued, interrupted) by a newer
 * one: each one's journal is undone, so it can never later undo what the newer import writes,
 * and it ends cancelled, saying so. Inside a transaction over `bills`, `importStaging` and `jobs`.
 */
export async function replaceWaitingImports(
  tx: LocalWriteTransaction,
  jobs: readonly Job[],
  now: string,
): Promise<void> {
  for (const job of jobs) {
    if (job.status !== 'queued' && job.status !== 'interrupted') continue;
    await discardImport(tx, job.id, job.subjectId);
    await tx.put('jobs', {
      ...job,
      status: 'cancelled',
      finishedAt: now,
      message: REPLACED_MESSAGE,
    });
  }
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

/**
 * Runs a queued import job to its end: done, failed or cancelled. A job in any other state is
 * returned untouched (another tab may be running it). Never throws for a problem of the data or
 * the input; it throws only when the store itself fails, leaving the job to be found
 * interrupted at the next start.
 */
export async function runImportJob(options: RunImportJobOptions): Promise<Job> {
  const { store, jobId, now, signal } = options;
  const report = (job: Job) => options.onProgress?.(job);
  const checkCancelled = () => {
    if (signal?.aborted === true) throw new ImportCancelledError();
  };

  const start = await markRunning(store, jobId, now);
  if (start.dataset === null) return start.job;
  const dataset = start.dataset;
  const run: JobRun = { job: start.job, report, checkCancelled, inFlight: [] };
  report(run.job);

  try {
    checkCancelled();
    const input = await options.loadInput(dataset, (m) => downloadProgress(store, jobId, run, m));
    checkCancelled();
    if ('unchanged' in input) return await finishUnchanged(options, run, dataset);
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
    const begun = await resumeOrStartOver(options, run, dataset, stream, {
      fingerprint,
      partial: input.partial === true,
    });
    await announceTotal(store, run, begun, stream);
    const read = await readIntoChunks(options, run, begun, stream, fingerprint);
    return await finishImport(options, run, begun, read, stream.format, input);
  } catch (error) {
    return endUnfinished(options, run, dataset, error);
  }
}

/** Where reading starts: the journal written to, and what the job had counted up to there. */
interface ImportStart {
  journal: JournalState;
  /** Items (records and unreadable files) the checkpoint says are written already. */
  resumeFrom: number;
  /** The checkpoint found on resuming, which the first chunk written must still find. */
  resumedMark: number | null;
  written: number;
  skipped: number;
  errorCount: number;
  errors: Job['errors'];
}

/** What reading ended with: the counts the finish reports. */
interface ReadTotals {
  written: number;
  errorCount: number;
  errors: Job['errors'];
  notUsed: FilesNotUsed;
}

/** Step 1: a queued job becomes running (its dataset importing), in one transaction. */
async function markRunning(
  store: LocalStore,
  jobId: string,
  now: () => string,
): Promise<{ job: Job; dataset: Dataset | null }> {
  return store.write(RUNNABLE_TABLES, async (tx) => {
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
}

/**
 * Step 2: a journal of the same input is resumed from its checkpoint; anything else is undone
 * and a fresh journal begun.
 */
async function resumeOrStartOver(
  options: RunImportJobOptions,
  run: JobRun,
  dataset: Dataset,
  stream: DatasetRecords,
  { fingerprint, partial }: { fingerprint: string; partial: boolean },
): Promise<ImportStart> {
  const { store, jobId, now } = options;
  const checkpoint = await store.read(['importStaging'], (tx) =>
    tx.get('importStaging', checkpointKey(jobId)),
  );
  const resumable = checkpoint?.kind === 'checkpoint' && checkpoint.fingerprint === fingerprint;
  const found = resumable
    ? await store.read(['importStaging'], (tx) => readJournal(tx, jobId, dataset.id, partial))
    : null;
  if (resumable && found !== null) {
    const { written, skipped } = run.job.progress;
    return {
      journal: found,
      resumeFrom: checkpoint.recordsConsumed,
      resumedMark: checkpoint.recordsConsumed,
      written,
      skipped,
      errorCount: checkpoint.errorCount,
      errors: [...run.job.errors],
    };
  }
  // A journal of other input (or none): undo it and start over. Another import of the dataset
  // still waiting or cut off is replaced first (replaceWaitingImports says why).
  const journal = await store.write(JOURNAL_TABLES, async (tx) => {
    const others = await tx.where('jobs', 'subjectId', dataset.id);
    await replaceWaitingImports(
      tx,
      others.filter((other) => other.id !== jobId),
      now(),
    );
    await discardImport(tx, jobId, dataset.id);
    return beginJournal(tx, jobId, dataset.id, partial);
  });
  const errorLimit = options.storedErrorLimit ?? STORED_ERROR_LIMIT;
  return {
    journal,
    resumeFrom: 0,
    resumedMark: null,
    written: 0,
    skipped: 0,
    errorCount: stream.fileErrors.length,
    errors: stream.fileErrors.slice(0, errorLimit).map(jobErrorOf),
  };
}

/** Step 3: the total as the files' count tells it, and the archives refused whole, before any
 *  record. */
async function announceTotal(
  store: LocalStore,
  run: JobRun,
  begun: ImportStart,
  stream: DatasetRecords,
): Promise<void> {
  const { job } = run;
  const known: Job = {
    ...job,
    progress: {
      recordsRead: begun.resumeFrom > 0 ? job.progress.recordsRead : 0,
      written: begun.written,
      skipped: begun.skipped,
      total: stream.total,
    },
    errors: [...begun.errors],
  };
  await store.write(['jobs'], async (tx) => {
    const current = await tx.get('jobs', job.id);
    if (current?.status !== 'running') throw new ImportCancelledError();
    await tx.put('jobs', known);
  });
  run.job = known;
  run.report(known);
}

/**
 * Step 4: reads every record and writes them into `bills` chunk by chunk, each chunk with its
 * journal, a checkpoint and the job's progress in one transaction (dataset-import-chunks.ts).
 */
async function readIntoChunks(
  options: RunImportJobOptions,
  run: JobRun,
  begun: ImportStart,
  stream: DatasetRecords,
  fingerprint: string,
): Promise<ReadTotals> {
  const { checkCancelled } = run;
  const chunkSize = Math.max(1, options.chunkSize ?? IMPORT_CHUNK_SIZE);
  const errorLimit = options.storedErrorLimit ?? STORED_ERROR_LIMIT;
  const { resumeFrom } = begun;
  const counts: ReadCounts = {
    consumed: 0,
    recordsRead: 0,
    written: begun.written,
    skipped: begun.skipped,
    errorCount: begun.errorCount,
    errors: begun.errors,
  };

  // Files not used are gathered from every item, also those a resume skips (not items met).
  const notUsed = new FilesNotUsed();
  const target = { jobId: options.jobId, fingerprint, state: begun.journal, stream };
  const chunks = new ChunkQueue(options.store, run, target, begun.resumedMark);
  const pacing = new ChunkPacing(chunkSize, options);
  for (const item of stream.items()) {
    if (item.kind === 'not-used') {
      notUsed.add(item.notUsed);
      continue;
    }
    counts.consumed++;
    if (item.kind === 'record') counts.recordsRead++;
    if (counts.consumed <= resumeFrom) continue;
    await pacing.makeWay(checkCancelled);
    const outcome =
      item.kind === 'record' ? item.outcome : { ok: false as const, error: item.error };
    if (outcome.ok) {
      counts.written++;
      chunks.add(outcome.bill, outcome.members);
    } else {
      // An unreadable file is an error, but not a record skipped.
      if (item.kind === 'record') counts.skipped++;
      counts.errorCount++;
      if (counts.errors.length < errorLimit) counts.errors.push(jobErrorOf(outcome.error));
    }
    if (pacing.counted()) {
      await chunks.flush(counts, 'Reading files');
      checkCancelled();
      pacing.nextChunk();
    }
  }
  if (counts.consumed < resumeFrom) {
    throw new Error('The files changed while the import was paused.');
  }
  await chunks.flush(counts, 'Saving bills');
  await chunks.drain();
  checkCancelled();
  const { written, errorCount, errors } = counts;
  return { written, errorCount, errors, notUsed };
}

/** Step 5: with every bill written, the finishing transaction (finishJournaledImport). */
async function finishImport(
  options: RunImportJobOptions,
  run: JobRun,
  begun: ImportStart,
  read: ReadTotals,
  format: string | null,
  input: Pick<ImportInput, 'source' | 'partial'>,
): Promise<Job> {
  const { errors, errorCount } = read;
  if (read.written === 0) {
    const first = errors[0];
    throw new Error(
      first === undefined
        ? 'No bills found in the files.'
        : `No bills found in the files: ${first.reason}`,
    );
  }
  const errorsStored = errors.length;
  const done = await options.store.write(FINISH_TABLES, (tx) =>
    finishJournaledImport(tx, {
      job: run.job,
      state: begun.journal,
      format,
      at: options.now(),
      chunkSize: Math.max(1, options.chunkSize ?? IMPORT_CHUNK_SIZE),
      checkCancelled: run.checkCancelled,
      notUsed: read.notUsed,
      summarize: (result) => summary(result, errorCount, errorsStored),
      ...(input.source === undefined ? {} : { source: input.source }),
      ...(input.partial === true ? { partial: true } : {}),
    }),
  );
  run.job = done;
  run.report(done);
  return done;
}

/**
 * The source answered "not modified": nothing is read or written. Whatever an interrupted run of
 * this job wrote is undone, so the bills are those of the last import, which is the source as
 * it still is; the job ends done, saying so.
 */
async function finishUnchanged(
  options: RunImportJobOptions,
  run: JobRun,
  dataset: Dataset,
): Promise<Job> {
  const at = options.now();
  const done = await options.store.write(FINISH_TABLES, async (tx) => {
    const current = await tx.get('jobs', run.job.id);
    if (current?.status !== 'running') throw new ImportCancelledError();
    await discardImport(tx, run.job.id, dataset.id);
    const latest = (await tx.get('datasets', dataset.id)) ?? dataset;
    await tx.put('datasets', { ...latest, state: idleState(latest), lastJobId: run.job.id });
    const finished: Job = {
      ...current,
      status: 'done',
      finishedAt: at,
      progress: { ...current.progress, total: 0 },
      result: {
        added: 0,
        updated: 0,
        unchanged: latest.billCount,
        removed: 0,
        changed: 0,
        sourceUnchanged: true,
      },
      message: NO_CHANGES_MESSAGE,
    };
    await tx.put('jobs', finished);
    return finished;
  });
  run.job = done;
  run.report(done);
  return done;
}

/**
 * A cancel or a failure at any step: the journal is undone, and the job ends cancelled or
 * failed, in one transaction. Throws the original error when the store itself fails.
 */
async function endUnfinished(
  options: RunImportJobOptions,
  run: JobRun,
  dataset: Dataset,
  error: unknown,
): Promise<Job> {
  const { store, jobId, now, signal } = options;
  // A chunk write still in flight ends (or fails) before the clean-up below runs.
  await Promise.allSettled(run.inFlight.splice(0));
  const cancelled = error instanceof ImportCancelledError || signal?.aborted === true;
  const message = cancelled ? 'Cancelled; no bills were changed.' : describe(error);
  const finish = store.write(FINISH_TABLES, async (tx) => {
    await discardImport(tx, jobId, dataset.id);
    const current = (await tx.get('jobs', jobId)) ?? run.job;
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
  run.report(ended);
  return ended;
}
