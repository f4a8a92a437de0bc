import type { Bill } from '../bills/bill.ts';
import { mergeDuplicateBills } from '../bills/bill-merge.ts';
import { diffBill } from '../changes/bill-changes.ts';
import { keepMemberVotes } from './dataset-members.ts';
import type { BillChangeItem, ImportStagingRow, StoredBill } from '../store/local-records.ts';
import type { LocalReadTransaction, LocalWriteTransaction } from '../store/local-store.ts';

// The undo journal of an import that writes its bills straight into `bills`, chunk by chunk.
//
// Each chunk's transaction writes the chunk's bills and, beside them in `importStaging`, what it
// takes to undo them: the ids of the bills that did not exist, and each other bill's row as it
// was before this import first wrote it. A cancel, a failure, a retry or a newer import of the
// dataset undoes the journal in one transaction (`discardImport`), so no bill of an import that
// did not finish stays changed; the last transaction of a finished import deletes the journal.
// Every row is written whole, so no bill is ever half-written.
//
// The journal also lets a job cut off by a closed tab go on: the `before` row says which bills
// the dataset provided (and their change hashes) when the import began, and the chunks' rows say
// which bills it already wrote, with their hashes.
//
// An undo never overwrites what someone else wrote meanwhile: a bill whose stored hash is not the
// one this import last wrote gets back only its membership of the dataset, not its old content.

/** Row keys of a job's staging; every one starts with the job id and `|`. */
export function stagingPrefix(jobId: string): string {
  return `${jobId}|`;
}
export function checkpointKey(jobId: string): string {
  return `${jobId}|checkpoint`;
}
function beforeKey(jobId: string): string {
  return `${jobId}|before`;
}
/** A partial import's `before`, a part per chunk: `${jobId}|before|${sequence}`. */
function beforePartKey(jobId: string, sequence: number): string {
  return `${beforeKey(jobId)}|${String(sequence).padStart(8, '0')}`;
}
function undoPrefix(jobId: string): string {
  return `${jobId}|undo|`;
}
/** Zero-padded, so key order is the order the chunks were written in. */
function undoKey(jobId: string, sequence: number): string {
  return `${undoPrefix(jobId)}${String(sequence).padStart(8, '0')}`;
}

function changesPrefix(jobId: string): string {
  return `${jobId}|changes|`;
}

/** What an import knows of its own writes; rebuilt from the journal when a job resumes. */
export interface JournalState {
  jobId: string;
  datasetId: string;
  /**
   * The dataset's bills when the import began, with their change hashes. A partial import (only
   * the bills that changed, the dataset keeping the others) does not read the whole dataset: it
   * learns a bill's hash before it when it reads the bill's row, and journals it chunk by chunk.
   */
  before: Map<string, string>;
  partial: boolean;
  /** Every bill the import has met so far, with the change hash it left stored. */
  seen: Map<string, string>;
  /** Bills whose state before the import is in the journal (once each). */
  journaled: Set<string>;
  /** Chunk rows written so far. */
  chunks: number;
}

type UndoRow = Extract<ImportStagingRow, { kind: 'undo' }>;
type ChangesRow = Extract<ImportStagingRow, { kind: 'changes' }>;
type BeforeRow = Extract<ImportStagingRow, { kind: 'before' }>;

function parsePairs(text: string): [string, string][] {
  return JSON.parse(text) as [string, string][];
}

/**
 * Starts a journal: the dataset's bills as they are now, or, for a partial import, none yet (a
 * refresh of 100 changed bills in a dataset of 10,000 would otherwise read all 10,000 first).
 * Call inside a transaction over `bills` and `importStaging`, after `discardImport` has undone
 * any older attempt.
 */
export async function beginJournal(
  tx: LocalWriteTransaction,
  jobId: string,
  datasetId: string,
  partial = false,
): Promise<JournalState> {
  const before = new Map<string, string>();
  if (!partial) {
    for (const bill of await tx.where('bills', 'datasetIds', datasetId)) {
      before.set(bill.id, bill.changeHash);
    }
  }
  const row: BeforeRow = {
    id: beforeKey(jobId),
    jobId,
    kind: 'before',
    bills: JSON.stringify([...before]),
  };
  await tx.put('importStaging', row);
  return { jobId, datasetId, before, partial, seen: new Map(), journaled: new Set(), chunks: 0 };
}

/** The journal of a job cut off, as its state; null when it has none to go on from. */
export async function readJournal(
  tx: LocalReadTransaction,
  jobId: string,
  datasetId: string,
  partial = false,
): Promise<JournalState | null> {
  const rows = await tx.where('importStaging', 'jobId', jobId);
  const beforeRow = rows.find((row) => row.id === beforeKey(jobId));
  if (beforeRow?.kind !== 'before') return null;
  const before = new Map(parsePairs(beforeRow.bills));
  // A partial import's parts, written with its chunks.
  for (const row of rows) {
    if (row.kind === 'before' && row.id.startsWith(`${beforeKey(jobId)}|`)) {
      for (const [id, hash] of parsePairs(row.bills)) before.set(id, hash);
    }
  }
  const state: JournalState = {
    jobId,
    datasetId,
    before,
    partial,
    seen: new Map(),
    journaled: new Set(),
    chunks: 0,
  };
  for (const row of undoRowsOf(rows, jobId)) {
    for (const [id, hash] of parsePairs(row.written)) state.seen.set(id, hash);
    for (const id of JSON.parse(row.added) as string[]) state.journaled.add(id);
    for (const bill of JSON.parse(row.prior) as StoredBill[]) state.journaled.add(bill.id);
    state.chunks = Math.max(state.chunks, Number(row.id.slice(undoPrefix(jobId).length)) + 1);
  }
  return state;
}

function undoRowsOf(rows: readonly ImportStagingRow[], jobId: string): UndoRow[] {
  const prefix = undoPrefix(jobId);
  return rows
    .filter((row): row is UndoRow => row.kind === 'undo' && row.id.startsWith(prefix))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The bill as imported: without its datasets, nor the store's derived fields, which a merge
 *  would otherwise carry into the bill and its change hash. */
function withoutDatasets({ datasetIds: _, deckKeys: _keys, ...bill }: StoredBill): Bill {
  return bill;
}

/** Keys looked at per id asked about, at most, before `storedAmong` reads the rows instead. */
const KEY_SCAN_FACTOR = 4;

/**
 * Which of these bill ids are stored. One read of the keys between the lowest and the highest id
 * answers it without reading a row: a miss costs IndexedDB as much as a hit, and on a first import
 * every id misses. When other bills crowd that range, the ids are simply all returned, and the
 * caller's read of the rows tells.
 */
async function storedAmong(tx: LocalWriteTransaction, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  let lower = ids[0] as string;
  let upper = lower;
  for (const id of ids) {
    if (id < lower) lower = id;
    if (id > upper) upper = id;
  }
  const limit = ids.length * KEY_SCAN_FACTOR + 16;
  const keys = await tx.keysBetween('bills', lower, upper, limit);
  if (keys.length >= limit) return [...ids];
  const stored = new Set(keys);
  return ids.filter((id) => stored.has(id));
}

/**
 * Writes one chunk of incoming bills into `bills` with its journal row, inside the caller's
 * transaction over `bills` and `importStaging`. A bill this import already wrote (the same bill
 * from another file) is merged with what it wrote; a bill of another dataset gains this one.
 */
export async function writeChunk(
  tx: LocalWriteTransaction,
  state: JournalState,
  chunk: readonly Bill[],
): Promise<void> {
  const current = await readStoredBills(tx, state, chunk);
  // A partial import learns what the dataset had from the rows it reads (see JournalState).
  const learned = state.partial ? learnBefore(state, current) : [];
  const { writes, added, prior, written, changed } = journalBills(state, chunk, current);
  const undo: UndoRow = {
    id: undoKey(state.jobId, state.chunks),
    jobId: state.jobId,
    kind: 'undo',
    added: JSON.stringify(added),
    prior: JSON.stringify(prior),
    written: JSON.stringify(written),
  };
  const changes: ChangesRow = {
    id: `${changesPrefix(state.jobId)}${undo.id.slice(undoPrefix(state.jobId).length)}`,
    jobId: state.jobId,
    kind: 'changes',
    changes: JSON.stringify(changed),
  };
  const learnedRow: BeforeRow | null =
    learned.length === 0
      ? null
      : {
          id: beforePartKey(state.jobId, state.chunks),
          jobId: state.jobId,
          kind: 'before',
          bills: JSON.stringify(learned),
        };
  state.chunks++;
  await Promise.all([
    learnedRow === null ? Promise.resolve() : tx.put('importStaging', learnedRow),
    writes.length > 0 ? tx.putMany('bills', writes) : Promise.resolve(),
    tx.put('importStaging', undo),
    changed.length > 0 ? tx.put('importStaging', changes) : Promise.resolve(),
  ]);
}

/** A bill the dataset already had with the same hash, and not yet met, stays as it is: no read. */
function knownAsIs(state: JournalState, bill: Bill): boolean {
  return !state.seen.has(bill.id) && state.before.get(bill.id) === bill.changeHash;
}

/** The stored rows of the chunk's bills, but for those known as they are. */
async function readStoredBills(
  tx: LocalWriteTransaction,
  state: JournalState,
  chunk: readonly Bill[],
): Promise<Map<string, StoredBill>> {
  const toRead = await storedAmong(
    tx,
    chunk.filter((bill) => !knownAsIs(state, bill)).map((bill) => bill.id),
  );
  const found = toRead.length > 0 ? await tx.getMany('bills', toRead) : [];
  const current = new Map<string, StoredBill>();
  for (const row of found) if (row) current.set(row.id, row);
  return current;
}

/** A partial import's `before`, learned from the dataset's rows it read: the pairs it learned. */
function learnBefore(
  state: JournalState,
  current: ReadonlyMap<string, StoredBill>,
): [string, string][] {
  const learned: [string, string][] = [];
  for (const row of current.values()) {
    if (state.seen.has(row.id) || state.before.has(row.id)) continue;
    if (!row.datasetIds.includes(state.datasetId)) continue;
    state.before.set(row.id, row.changeHash);
    learned.push([row.id, row.changeHash]);
  }
  return learned;
}

/** What a chunk writes: its bills' rows, and its journal's entries. */
interface ChunkEntries {
  writes: StoredBill[];
  /** Bills that did not exist before this import first wrote them. */
  added: string[];
  /** The other bills' rows as they were before this import first wrote them. */
  prior: StoredBill[];
  /** Every bill met, with the change hash it left stored. */
  written: [string, string][];
  changed: [string, BillChangeItem[]][];
}

/** The chunk's bills as they are written, each noted in the journal (`state` too). */
function journalBills(
  state: JournalState,
  chunk: readonly Bill[],
  current: ReadonlyMap<string, StoredBill>,
): ChunkEntries {
  const entries: ChunkEntries = { writes: [], added: [], prior: [], written: [], changed: [] };
  const { writes, added, prior, written, changed } = entries;
  for (const read of chunk) {
    const stored = current.get(read.id);
    // Who voted how on the roll calls the source now gives as totals only (a refresh's getBill).
    const bill = stored === undefined ? read : keepMemberVotes(read, stored);
    if (knownAsIs(state, bill)) {
      state.seen.set(bill.id, bill.changeHash);
      written.push([bill.id, bill.changeHash]);
      continue;
    }
    const row = current.get(bill.id);
    const next = nextRow(state, bill, row);
    // What changed, for a bill the dataset already provided, met the first time in this import
    // (a first import records nothing: new bills are not news).
    if (
      next !== null &&
      row !== undefined &&
      !state.seen.has(bill.id) &&
      state.before.has(bill.id)
    ) {
      const items = diffBill(withoutDatasets(row), withoutDatasets(next));
      if (items.length > 0) changed.push([bill.id, items]);
    }
    if (next !== null) {
      if (!state.journaled.has(bill.id)) {
        state.journaled.add(bill.id);
        if (row === undefined) added.push(bill.id);
        else prior.push(row);
      }
      writes.push(next);
    }
    const hash = (next ?? row ?? bill).changeHash;
    state.seen.set(bill.id, hash);
    written.push([bill.id, hash]);
  }
  return entries;
}

/** The bill's row as the chunk writes it; null when the stored row stays as it is. */
function nextRow(state: JournalState, bill: Bill, row: StoredBill | undefined): StoredBill | null {
  const { datasetId } = state;
  if (row === undefined) return { ...bill, datasetIds: [datasetId] };
  const has = row.datasetIds.includes(datasetId);
  const datasetIds = has ? row.datasetIds : [...row.datasetIds, datasetId];
  const content = state.seen.has(bill.id)
    ? mergeDuplicateBills([withoutDatasets(row), bill])
    : bill;
  if (content.changeHash !== row.changeHash) return { ...content, datasetIds };
  return has ? null : { ...row, datasetIds };
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/**
 * Undoes whatever a job's journal says it wrote into `bills`, then deletes all of the job's
 * staging. Inside a transaction over `bills` and `importStaging`; a job with no journal (queued,
 * or staged by an older version) only loses its staging rows.
 */
export async function discardImport(
  tx: LocalWriteTransaction,
  jobId: string,
  datasetId: string,
): Promise<void> {
  const rows = undoRowsOf(await tx.where('importStaging', 'jobId', jobId), jobId);
  if (rows.length > 0) {
    /** The hash this import last left on each bill, and each bill's state before it. */
    const last = new Map<string, string>();
    const first = new Map<string, StoredBill | null>();
    for (const row of rows) {
      for (const [id, hash] of parsePairs(row.written)) last.set(id, hash);
      for (const id of JSON.parse(row.added) as string[]) if (!first.has(id)) first.set(id, null);
      for (const bill of JSON.parse(row.prior) as StoredBill[]) {
        if (!first.has(bill.id)) first.set(bill.id, bill);
      }
    }
    const ids = [...first.keys()];
    const stored = await tx.getMany('bills', ids);
    const puts: StoredBill[] = [];
    const deletes: string[] = [];
    ids.forEach((id, index) => {
      const now = stored[index];
      if (now === undefined) return;
      const was = first.get(id) ?? null;
      const others = now.datasetIds.filter((other) => other !== datasetId);
      const ours = now.changeHash === last.get(id);
      if (was === null) {
        if (others.length === 0) deletes.push(id);
        else puts.push({ ...now, datasetIds: others });
        return;
      }
      const datasetIds = was.datasetIds.includes(datasetId) ? [...others, datasetId] : others;
      // No dataset provides it any more (one let go of it meanwhile): it goes, as a finished
      // import's bills no dataset provides do.
      if (datasetIds.length === 0) deletes.push(id);
      else if (!ours) puts.push({ ...now, datasetIds });
      else if (sameMembers(datasetIds, was.datasetIds)) puts.push(was);
      else puts.push({ ...was, datasetIds });
    });
    if (puts.length > 0) await tx.putMany('bills', puts);
    if (deletes.length > 0) await tx.deleteMany('bills', deletes);
  }
  await tx.deletePrefix('importStaging', stagingPrefix(jobId));
}

/** What the import did, from the dataset's point of view, once every record is read. */
export function journalResult(state: JournalState): {
  added: number;
  updated: number;
  unchanged: number;
} {
  const result = { added: 0, updated: 0, unchanged: 0 };
  for (const [id, hash] of state.seen) {
    const had = state.before.get(id);
    if (had === undefined) result.added++;
    else if (had === hash) result.unchanged++;
    else result.updated++;
  }
  return result;
}

/**
 * What the import changed in bills the dataset already provided, per bill, read back from the
 * chunks' `changes` rows (a key range: the undo rows, which can be large, are not read).
 */
export async function readJournalChanges(
  tx: LocalReadTransaction,
  jobId: string,
): Promise<Map<string, BillChangeItem[]>> {
  const prefix = changesPrefix(jobId);
  const keys = await tx.keysBetween('importStaging', prefix, `${prefix}\uffff`, 1_000_000);
  const rows = keys.length > 0 ? await tx.getMany('importStaging', keys) : [];
  const found = new Map<string, BillChangeItem[]>();
  for (const row of rows) {
    if (row?.kind !== 'changes') continue;
    for (const [billId, items] of JSON.parse(row.changes) as [string, BillChangeItem[]][]) {
      found.set(billId, [...(found.get(billId) ?? []), ...items]);
    }
  }
  return found;
}
