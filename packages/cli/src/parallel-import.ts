import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type Bill, type CitedBill, compareBills, mergeDuplicateBills } from '@docket/core/bills';
import {
  combineSliceReports,
  importBills,
  isBillStatusFile,
  type ImportBillsOptions,
  type ImportBillsResult,
  type ImportFile,
  type ImportSlice,
  readImportSlice,
} from '@docket/core/importers';

// A session of BILLSTATUS is thousands of files, one bill each, that need nothing from each
// other, so they are read on every core of the machine: the files are cut into slices in order,
// this thread and a worker per further core each take the next slice from one counter in shared
// memory (the files are in shared memory too), and the slices are joined in order, which gives
// exactly what one importBills over all the files gives (a test compares them). Taking slices
// from a shared counter, a thread never waits for another to hand it work: when this thread handed
// the worker its slices, the worker sat idle from finishing a slice until this thread finished its
// own, a third of its time. A slice comes back as its bills' JSON lines with the few fields that
// sort and merge them: copying strings between threads is cheap where rebuilding thousands of
// bill objects on this thread cost it more than reading them. Other formats read files together
// (a LegiScan dataset's people and votes, an Open States scrape's vote events, ZIPs) and are read
// in one piece, as are small sets, where starting workers costs more than it saves.

export interface ParallelImportOptions {
  /** Threads, this one included; defaults to the cores of the machine, at most 8. */
  threads?: number;
  /** Fewer files than this are read on this thread alone. */
  minFiles?: number;
  /** Files per slice: small enough that threads finish together (a slice of 40 BILLSTATUS files
   *  is about 15 ms of work), large enough that a slice's own cost is nothing beside it. */
  sliceFiles?: number;
  /** Whether this thread reads slices too (tests turn it off to see the workers do it all). */
  readHere?: boolean;
  /**
   * Workers started before the files were read (startImportWorkers), so that their start-up
   * overlaps the reading. They are used if the files call for them and ended either way.
   */
  workers?: readonly ImportWorker[] | undefined;
}

/** A bill as one line of the output, with what orders it and finds its duplicates. */
export interface BillLine extends CitedBill {
  line: string;
}

export interface SliceLines extends Omit<ImportSlice, 'records'> {
  lines: BillLine[];
}

export interface ParallelImport {
  /** Everything but the bills themselves. */
  report: Omit<ImportBillsResult, 'bills'>;
  /** One JSON line per bill (no newline), in the order bills are cited. */
  lines: string[];
  /** Slices the workers read (0 when the files were read in one piece). */
  workerSlices: number;
}

/** What a worker is sent, once: every file, and the counter it takes slices from. */
export interface SliceRequest {
  /** The files, their bytes in shared memory. */
  files: ImportFile[];
  sliceFiles: number;
  /** The next slice to read, in shared memory: a thread takes one with Atomics.add. */
  next: Int32Array;
  options: Pick<ImportBillsOptions, 'jurisdiction' | 'session'>;
}

/** A slice a worker read, or (index -1) that it took the last of its slices. */
export type SliceAnswer = { index: number; slice: SliceLines } | { index: -1 };

const workerUrl = new URL('../bin/import-worker.mjs', import.meta.url);

function defaultThreads(): number {
  return Math.min(8, availableParallelism());
}

/**
 * The workers of a parallel import (one per core beyond this thread's), started now: a worker
 * takes a few hundred milliseconds to load before it reads its first file, which `docket import`
 * spends reading the files from disk.
 */
export function startImportWorkers(threads = defaultThreads()): ImportWorker[] {
  return Array.from({ length: Math.max(0, threads - 1) }, () => {
    const worker = new Worker(workerUrl);
    // Listened to from the start: a worker can fail while it loads, before it is given work.
    const gone = new Promise<void>((resolve) => {
      worker.once('error', () => {
        resolve();
      });
      worker.once('exit', () => {
        resolve();
      });
    });
    return { worker, gone };
  });
}

/** A worker thread of a parallel import, and when it ended (failed or exited). */
export interface ImportWorker {
  worker: Worker;
  gone: Promise<void>;
}

function lineOf(bill: Bill): BillLine {
  const { id, jurisdiction, session, type, number } = bill;
  return { id, jurisdiction, session, type, number, line: JSON.stringify(bill) };
}

/** A slice read here or in a worker, its bills as lines, each made as soon as its bill is read. */
export function readSliceLines(
  files: readonly ImportFile[],
  options: SliceRequest['options'],
): SliceLines {
  const { records, ...report } = readImportSlice(files, options, lineOf);
  return { ...report, lines: records };
}

/** The files of slice `index`. */
export function sliceOf(request: Pick<SliceRequest, 'files' | 'sliceFiles'>, index: number) {
  return request.files.slice(index * request.sliceFiles, (index + 1) * request.sliceFiles);
}

/** Reads slices taken from the shared counter until there are none left, answering each. */
export function readSlicesTaken(request: SliceRequest, answer: (answer: SliceAnswer) => void) {
  const count = Math.ceil(request.files.length / request.sliceFiles);
  for (;;) {
    const index = Atomics.add(request.next, 0, 1);
    if (index >= count) break;
    answer({ index, slice: readSliceLines(sliceOf(request, index), request.options) });
  }
  answer({ index: -1 });
}

/** The file with its bytes in shared memory, copied there unless they already are. */
function shared(file: ImportFile): ImportFile {
  if (file.bytes.buffer instanceof SharedArrayBuffer) return file;
  const bytes = new Uint8Array(new SharedArrayBuffer(file.bytes.byteLength));
  bytes.set(file.bytes);
  return { name: file.name, bytes };
}

export async function importFilesInParallel(
  files: readonly ImportFile[],
  options: Pick<ImportBillsOptions, 'jurisdiction' | 'session'>,
  {
    threads = defaultThreads(),
    minFiles = 1000,
    sliceFiles = 40,
    readHere = true,
    workers: started,
  }: ParallelImportOptions = {},
): Promise<ParallelImport> {
  if (threads < 2 || files.length < minFiles || !files.every(isBillStatusFile)) {
    await Promise.all((started ?? []).map(({ worker }) => worker.terminate()));
    const { bills, ...report } = importBills(files, options);
    return { report, lines: bills.map((bill) => JSON.stringify(bill)), workerSlices: 0 };
  }
  const request: SliceRequest = {
    files: files.map(shared),
    sliceFiles,
    next: new Int32Array(new SharedArrayBuffer(4)),
    options,
  };
  const count = Math.ceil(files.length / sliceFiles);
  const done = new Array<SliceLines | undefined>(count);
  let remaining = count;
  let workerSlices = 0;

  const threadWorkers = started ? [...started] : startImportWorkers(threads);
  for (const spare of threadWorkers.splice(count)) void spare.worker.terminate();
  // Settled when every slice is read, or when no worker will read another (each has taken the
  // last of its slices, or failed): a slice a failed worker held is then read here.
  let idle = 0;
  let allRead = () => {};
  const settled = new Promise<void>((resolve) => {
    allRead = resolve;
  });
  const answered = () => {
    if (remaining === 0 || idle === threadWorkers.length) allRead();
  };
  for (const { worker, gone } of threadWorkers) {
    let finished = false;
    const stop = () => {
      if (finished) return;
      finished = true;
      idle++;
      answered();
    };
    worker.on('message', (answer: SliceAnswer) => {
      if (!('slice' in answer)) stop();
      else {
        done[answer.index] = answer.slice;
        workerSlices++;
        remaining--;
        answered();
      }
    });
    void gone.then(stop);
    worker.postMessage(request);
  }
  // This thread reads slices too, yielding between them so workers' answers are taken in.
  if (readHere) {
    for (;;) {
      const index = Atomics.add(request.next, 0, 1);
      if (index >= count) break;
      done[index] = readSliceLines(sliceOf(request, index), options);
      remaining--;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (remaining > 0 && threadWorkers.length > 0) await settled;
  await Promise.all(threadWorkers.map(({ worker }) => worker.terminate()));
  const read = done.map(
    (slice, index) => slice ?? readSliceLines(sliceOf(request, index), options),
  );
  const lines = joinLines(read);
  const report = combineSliceReports(
    read,
    files.map((file) => file.name),
    lines.length,
  );
  return { report, lines, workerSlices };
}

/** The slices' bills in order: records of one bill merged as importBills merges them, sorted. */
function joinLines(slices: readonly SliceLines[]): string[] {
  const byId = new Map<string, BillLine[]>();
  for (const slice of slices) {
    for (const line of slice.lines) {
      const list = byId.get(line.id);
      if (list) list.push(line);
      else byId.set(line.id, [line]);
    }
  }
  const bills = [...byId.values()].map((records): BillLine => {
    if (records.length === 1) return records[0] as BillLine;
    return lineOf(mergeDuplicateBills(records.map((record) => JSON.parse(record.line) as Bill)));
  });
  return bills.sort(compareBills).map((bill) => bill.line);
}
