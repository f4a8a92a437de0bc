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
// this thread and a worker per further core take slices from one queue, and the slices are
// joined in order, which gives exactly what one importBills over all the files gives (a test
// compares them). A slice comes back as its bills' JSON lines with the few fields that sort and
// merge them: copying strings between threads is cheap where rebuilding thousands of bill
// objects on this thread cost it more than reading them. Other formats read files together (a
// LegiScan dataset's people and votes, an Open States scrape's vote events, ZIPs) and are read in
// one piece, as are small sets, where starting workers costs more than it saves.

export interface ParallelImportOptions {
  /** Threads, this one included; defaults to the cores of the machine, at most 8. */
  threads?: number;
  /** Fewer files than this are read on this thread alone. */
  minFiles?: number;
  /** Files per slice: small enough that threads finish together, large enough to be cheap. */
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

interface SliceRequest {
  index: number;
  files: ImportFile[];
  options: Pick<ImportBillsOptions, 'jurisdiction' | 'session'>;
}

export interface SliceAnswer {
  index: number;
  slice: SliceLines;
}

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

/** A slice read here or in a worker, its bills as lines. */
export function readSliceLines(
  files: readonly ImportFile[],
  options: SliceRequest['options'],
): SliceLines {
  const { records, ...report } = readImportSlice(files, options);
  return { ...report, lines: records.map(lineOf) };
}

export async function importFilesInParallel(
  files: readonly ImportFile[],
  options: Pick<ImportBillsOptions, 'jurisdiction' | 'session'>,
  {
    threads = defaultThreads(),
    minFiles = 1000,
    sliceFiles = 200,
    readHere = true,
    workers: started,
  }: ParallelImportOptions = {},
): Promise<ParallelImport> {
  if (threads < 2 || files.length < minFiles || !files.every(isBillStatusFile)) {
    await Promise.all((started ?? []).map(({ worker }) => worker.terminate()));
    const { bills, ...report } = importBills(files, options);
    return { report, lines: bills.map((bill) => JSON.stringify(bill)), workerSlices: 0 };
  }
  const slices: ImportFile[][] = [];
  for (let start = 0; start < files.length; start += sliceFiles) {
    slices.push(files.slice(start, start + sliceFiles));
  }
  const done = new Array<SliceLines | undefined>(slices.length);
  const waiting = slices.map((_, index) => index);

  const threadWorkers = started ? [...started] : startImportWorkers(threads);
  for (const spare of threadWorkers.splice(slices.length)) void spare.worker.terminate();
  const workers = threadWorkers.map((worker) => runWorker(worker, waiting, slices, options, done));
  // This thread reads slices too, yielding between them so workers' answers are taken in.
  let hereSlices = 0;
  if (readHere) {
    for (let index = waiting.shift(); index !== undefined; index = waiting.shift()) {
      done[index] = readSliceLines(slices[index] ?? [], options);
      hereSlices++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await Promise.all(workers);
  const workerSlices = done.filter((slice) => slice !== undefined).length - hereSlices;
  const read = done.map((slice, index) => slice ?? readSliceLines(slices[index] ?? [], options));
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

/**
 * One worker taking slices from `waiting` until none are left. A worker that fails leaves the
 * slice it held unread, and this thread reads it at the end: a crash costs time, not bills.
 */
async function runWorker(
  { worker, gone }: ImportWorker,
  waiting: number[],
  slices: readonly ImportFile[][],
  options: SliceRequest['options'],
  done: (SliceLines | undefined)[],
): Promise<void> {
  try {
    await new Promise<void>((resolve) => {
      const sendNext = () => {
        const index = waiting.shift();
        if (index === undefined) {
          resolve();
          return;
        }
        const files = slices[index] ?? [];
        const request: SliceRequest = { index, files, options };
        // A file that owns its buffer moves to the worker instead of being copied.
        const owned = new Set<ArrayBuffer>();
        for (const { bytes } of files) {
          const buffer = bytes.buffer;
          if (buffer instanceof ArrayBuffer && bytes.byteLength === buffer.byteLength) {
            owned.add(buffer);
          }
        }
        worker.postMessage(request, [...owned]);
      };
      worker.on('message', (answer: SliceAnswer) => {
        done[answer.index] = answer.slice;
        sendNext();
      });
      void gone.then(resolve);
      sendNext();
    });
  } finally {
    await worker.terminate();
  }
}
