import type { Bill } from '../bills/bill.ts';
import { mergeDuplicateBills } from '../bills/bill-merge.ts';
import type { Member } from '../bills/member-votes.ts';
import type { DatasetRecords } from './dataset-import-records.ts';
import type { JournalState } from './dataset-import-journal.ts';
import { checkpointKey, writeChunk } from './dataset-import-journal.ts';
import { ImportCancelledError } from './dataset-import-errors.ts';
import { PendingMembers, writeMembers } from './dataset-members.ts';
import type { ImportStagingRow, Job } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';

// The chunks of an import's reading step (readIntoChunks, dataset-import-job.ts): the bills read
// since the last chunk, written in one transaction with their journal, the members they name, a
// checkpoint and the job's progress while the next chunk is read; and when a chunk closes.

const CHUNKS_IN_FLIGHT = 2; // chunk transactions queued in the store while reading goes on
const CHUNK_TABLES = ['bills', 'importStaging', 'jobs', 'members'] as const;

/** A running job as its steps share it: the newest row, and the chunk writes still in flight. */
export interface JobRun {
  job: Job;
  report: (job: Job) => void;
  checkCancelled: () => void;
  inFlight: Promise<void>[];
}

/** How far reading is: what each chunk's checkpoint and progress say. */
export interface ReadCounts {
  /** Items met (records and unreadable files), which the checkpoint counts; records alone. */
  consumed: number;
  recordsRead: number;
  written: number;
  skipped: number;
  errorCount: number;
  errors: Job['errors'];
}

/** What the chunks are written for: the job, its input and its journal. */
export interface ChunkTarget {
  readonly jobId: string;
  readonly fingerprint: string;
  readonly state: JournalState;
  /** Read as each chunk is written: the total changes as files are read. */
  readonly stream: Pick<DatasetRecords, 'total'>;
}

/** The bills read since the last chunk, and the chunks written while the next one is read. */
export class ChunkQueue {
  private pending = new Map<string, Bill>();
  private readonly members = new PendingMembers(); // who the votes name, for the member directory
  /** The checkpoint the next chunk's transaction must find: the last chunk's, or the one
   *  resumed from (none on a fresh start, whose journal began with no checkpoint). */
  private lastMark: number | null;

  constructor(
    private readonly store: LocalStore,
    private readonly run: JobRun,
    private readonly target: ChunkTarget,
    resumedMark: number | null,
  ) {
    this.lastMark = resumedMark;
  }

  /** A bill read into the chunk; read twice, its two records are merged. */
  add(bill: Bill, members: readonly Member[] | undefined): void {
    const prior = this.pending.get(bill.id);
    this.pending.set(bill.id, prior ? mergeDuplicateBills([prior, bill]) : bill);
    this.members.add(members);
  }

  /**
   * Closes the chunk: its transaction is queued once fewer than CHUNKS_IN_FLIGHT are. Up to that
   * many chunks are queued in the store while the next one is read: IndexedDB works off this
   * thread, so reading overlaps with it and chunks follow without a wait.
   */
  async flush(counts: ReadCounts, message: string): Promise<void> {
    const { run } = this;
    const { jobId, fingerprint } = this.target;
    while (run.inFlight.length >= CHUNKS_IN_FLIGHT) await run.inFlight.shift();
    run.checkCancelled();
    const chunk = [...this.pending.values()];
    this.pending = new Map();
    const chunkMembers = this.members.take();
    const { recordsRead, written, skipped, errors } = counts;
    const next: Job = {
      ...run.job,
      progress: { recordsRead, written, skipped, total: this.target.stream.total },
      errors: [...errors],
      message,
    };
    const mark: ImportStagingRow = {
      id: checkpointKey(jobId),
      jobId,
      kind: 'checkpoint',
      fingerprint,
      recordsConsumed: counts.consumed,
      errorCount: counts.errorCount,
    };
    const expectedMark = this.lastMark;
    this.lastMark = counts.consumed;
    const done = this.write(chunk, chunkMembers, mark, next, expectedMark).then(() => {
      run.job = next;
      run.report(next);
    });
    // Marked handled here; whoever awaits it later sees the failure.
    done.catch(() => undefined);
    run.inFlight.push(done);
  }

  /** Waits for every chunk still in flight; the first that failed throws. */
  async drain(): Promise<void> {
    while (this.run.inFlight.length > 0) await this.run.inFlight.shift();
  }

  /** One chunk's transaction: its bills and journal, members, checkpoint and the job's row. */
  private write(
    chunk: readonly Bill[],
    members: readonly Member[],
    mark: ImportStagingRow,
    next: Job,
    expectedMark: number | null,
  ): Promise<void> {
    const { jobId, state } = this.target;
    return this.store.write(CHUNK_TABLES, async (tx) => {
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
        writeMembers(tx, state.datasetId, members),
        tx.put('importStaging', mark),
        tx.put('jobs', next),
      ]);
    });
  }
}

/** What paces the chunks (RunImportJobOptions, dataset-import-job.ts, says how). */
export interface ChunkPacingOptions {
  chunkMillis?: number;
  chunkClock?: () => number;
  eventLoopBreak?: () => Promise<void>;
  breakMillis?: number;
}

/**
 * When a chunk closes: at `chunkSize` items or, with a clock, once `chunkMillis` of reading have
 * passed since it began; and, with a clock, when reading makes way for the event loop.
 */
export class ChunkPacing {
  private readonly timing: { millis: number; clock: () => number } | null;
  private readonly eventLoopBreak: (() => Promise<void>) | undefined;
  private readonly breakMillis: number;
  private inChunk = 0;
  private chunkBegan: number;
  private lastBreak: number;

  constructor(
    private readonly chunkSize: number,
    options: ChunkPacingOptions,
  ) {
    const { chunkMillis, chunkClock } = options;
    this.timing =
      chunkMillis !== undefined && chunkClock !== undefined
        ? { millis: chunkMillis, clock: chunkClock }
        : null;
    this.chunkBegan = this.timing !== null ? this.timing.clock() : 0;
    this.eventLoopBreak = options.eventLoopBreak;
    this.breakMillis = options.breakMillis ?? 10;
    this.lastBreak = this.chunkBegan;
  }

  /** Makes way for the event loop once `breakMillis` of reading have passed since it last did. */
  async makeWay(checkCancelled: () => void): Promise<void> {
    const { timing, eventLoopBreak } = this;
    if (
      timing !== null &&
      eventLoopBreak !== undefined &&
      timing.clock() - this.lastBreak >= this.breakMillis
    ) {
      await eventLoopBreak();
      checkCancelled();
      this.lastBreak = timing.clock();
    }
  }

  /** Counts an item into the chunk; true when the chunk is to close after it. */
  counted(): boolean {
    this.inChunk++;
    const { timing } = this;
    return (
      this.inChunk >= this.chunkSize ||
      (timing !== null && timing.clock() - this.chunkBegan >= timing.millis)
    );
  }

  /** The chunk closed: the next one begins. */
  nextChunk(): void {
    this.inChunk = 0;
    if (this.timing !== null) this.chunkBegan = this.timing.clock();
  }
}
