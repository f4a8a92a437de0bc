import { readCursor, readSkipList, storedCursor, writeCursor } from './sync-cursor.ts';
import { z } from 'zod';
import type { PullResponse, PushRequest, PushResponse } from '@docket/protocol/sync-changes';
import {
  MAX_ENVELOPE_BYTES,
  MAX_PULL_LIMIT,
  MAX_PUSH_BODY_BYTES,
  MAX_PUSH_ENVELOPES,
} from '@docket/protocol/sync-changes';
import { base64LengthFor } from '@docket/protocol/sync-wire';
import { fnv1a64HexOfText } from '../bills/canonical-hash.ts';
import { decodeHlc, HlcError, receive } from '../merge/hybrid-logical-clock.ts';
import { syncedTables, type OutboxEntry, type SyncedTable } from '../store/local-records.ts';
import type { LocalStore, TableName } from '../store/local-store.ts';
import { outboxFields, readDeviceClock, saveDeviceClock } from '../merge/outbox-changes.ts';
import { personalEnvelopes, type SyncEnvelopes } from './sync-envelopes.ts';
import { SyncEngineError } from './sync-errors.ts';
import {
  downloadDatasetFiles,
  uploadDatasetFiles,
  type BlobTransport,
  type FileBytesProgress,
} from './sync-dataset-files.ts';
import { markUnavailableDatasetFiles } from './sync-dataset-files-unavailable.ts';
import {
  MERGE_TABLES,
  mergeChanges,
  rowChangeSchema,
  type RowChange,
} from '../merge/sync-merge.ts';
import { BILL_HISTORY_TABLES, recordOverwrites } from './bill-history.ts';
import { authorOfChange, checkClocksAreTheDevices, recordAuthors } from './change-authors.ts';
import { jsonOrUndefined } from '../encoding/loose-json.ts';
import { encodeUtf8, utf8ByteLength } from '../encoding/text-bytes.ts';
import type { OpaqueCryptoKey, WebCryptoPort } from '../crypto/web-crypto.ts';

// One sync run: push the outbox, then pull what other devices wrote and merge it. Platform-free:
// the store, the server (a transport) and WebCrypto are handed in. The server sees envelopes; what
// is inside one is this file's business alone:
//
//   { "format": "docket-changes", "version": 1, "changes": [RowChange, …] }
//
// encrypted with the data key (sync-crypto.ts), bound to the user, the key epoch and the batch.
//
// ## What holds, whatever fails when
//
// - An outbox entry is removed only in the transaction that records the server's ack of the
//   batch that carried it. A batch's id is derived from the entries it carries, so a push
//   repeated after a lost answer, a crash or a reload is the same batch, and the server answers
//   it as the first time without storing it twice.
// - Envelopes and pushes are packed by size as well as count, to the server's caps
//   (packages/protocol's MAX_ENVELOPE_BYTES, MAX_PUSH_BODY_BYTES): a push the server refuses
//   for its size would be refused again on every retry. A change too large for an envelope by
//   itself stops the run with `change-too-large`, after what precedes it was pushed;
//   skipUnsendableChange is the way past it.
// - A pulled page is merged, the device clock advanced past it and the cursor moved past it, in
//   one transaction: a page is applied entirely or not at all, and never twice in effect (a
//   merge is idempotent anyway, sync-merge.ts).
// - A change that does not open (tampered, another key) or does not parse stops the run with a
//   clear error before anything of its page is written; the cursor stays before it.
// - This device's own changes are not pulled back into the store: they were merged when made.

const payloadSchema = z.strictObject({
  format: z.literal('docket-changes'),
  version: z.literal(1),
  changes: z.array(rowChangeSchema).min(1),
});

/** The server, as the engine needs it; the app's is HTTP, tests may use the real server. */
export interface SyncTransport extends BlobTransport {
  push(request: PushRequest): Promise<PushResponse>;
  pull(since: number, limit: number): Promise<PullResponse>;
}

/** Who is syncing, with which key. */
export interface SyncSession {
  readonly userId: string;
  readonly deviceId: string;
  /** The key epoch of `dataKey`, which must be the settings' `keyEpoch`. */
  readonly epoch: number;
  readonly dataKey: OpaqueCryptoKey;
  /** The settings' `epochStartSeqno`: where a device new to this epoch starts pulling. */
  readonly epochStartSeqno: number;
}

export interface SyncProgress {
  /** Pushing the outbox, pulling the log, or uploading / downloading dataset files. */
  readonly phase: 'push' | 'pull' | 'upload-files' | 'download-files';
  /** Changes pushed, log entries pulled, or files moved, so far in this run. */
  readonly done: number;
  /**
   * How many in all, when known (the outbox's size; the log's newest seqno minus the cursor;
   * the files to move).
   */
  readonly total: number | null;
  /** Dataset files only: the plaintext bytes moved, and of how many when known (downloads). */
  readonly bytes?: FileBytesProgress;
}

export interface SyncRunReport {
  /** Outbox entries acknowledged by the server. */
  readonly pushed: number;
  /** Changes from other devices pulled and merged. */
  readonly pulled: number;
  /** Rows written or removed by merging them. */
  readonly rowsChanged: number;
  readonly bytesUp: number;
  readonly bytesDown: number;
  readonly durationMs: number;
  /** Time spent sealing and opening envelopes. */
  readonly cryptoMs: number;
  /** The newest seqno of the user's log this run saw. */
  readonly latestSeqno: number;
  /** Dataset files uploaded and downloaded (sync-dataset-files.ts). */
  readonly filesUp: number;
  readonly filesDown: number;
  /** Dataset files that could not be fetched this run, each with why. */
  readonly fileProblems: readonly string[];
}

export interface SyncRunOptions {
  readonly store: LocalStore;
  readonly transport: SyncTransport;
  readonly crypto: WebCryptoPort;
  readonly session: SyncSession;
  /**
   * How the space's changes are sealed and opened (sync-envelopes.ts): the personal space's,
   * under the session's data key, unless a workspace's are given.
   */
  readonly envelopes?: SyncEnvelopes;
  /** Wall-clock milliseconds, for the device clock. */
  readonly now?: () => number;
  /** A monotonic clock in milliseconds, for durations. */
  readonly elapsed?: () => number;
  readonly onProgress?: (progress: SyncProgress) => void;
  /** Called as each phase starts: pushing the outbox, then pulling (spec §4's sync up / down). */
  readonly onPhase?: (phase: 'push' | 'pull') => void;
  /**
   * Called when the run fails, before the error is thrown, with what it did until then (what it
   * counts as pushed was acknowledged, what it counts as pulled was merged and kept): so the
   * record of a run that failed midway still says what it moved.
   */
  readonly onFailure?: (soFar: SyncRunReport) => void;
  /** Smaller values in tests, to see paging and splitting. */
  readonly limits?: {
    readonly entriesPerPush?: number;
    readonly entriesPerEnvelope?: number;
    /** The largest sealed envelope and push body, in bytes: the server's caps by default. */
    readonly envelopeBytes?: number;
    readonly pushBodyBytes?: number;
    readonly pullLimit?: number;
    /** Plaintext bytes per encrypted part of a dataset file. */
    readonly blobPartBytes?: number;
    /** Plaintext bytes per pack of small dataset files; 0 sends each file alone, as before packs. */
    readonly blobPackBytes?: number;
  };
}

/** Outbox entries read per push, and pushed at most; the size caps may cut a push shorter. */
const ENTRIES_PER_PUSH = 2000;
/** Changes sealed together in one envelope: fewer, larger envelopes cost less than many small. */
const ENTRIES_PER_ENVELOPE = 250;

// An envelope's plaintext is `{"format":"docket-changes","version":1,"changes":[…]}`, written
// here from each change's own JSON (the same text JSON.stringify makes of the whole), so its
// size is known change by change before anything is sealed.
const PAYLOAD_HEAD = '{"format":"docket-changes","version":1,"changes":[';
const PAYLOAD_TAIL = ']}';
const PAYLOAD_FRAME_BYTES = PAYLOAD_HEAD.length + PAYLOAD_TAIL.length;
/** An envelope in a push body, besides its id and ciphertext: `{"id":,"ciphertext":""}` and a comma. */
const ENVELOPE_FRAME_BYTES = '{"id":,"ciphertext":""},'.length;
/** Room for the batch id in a push body: at most 200 characters, each escaped to 2 at worst. */
const BATCH_ID_ROOM_BYTES = 400;

const pullTables = [
  ...MERGE_TABLES,
  ...BILL_HISTORY_TABLES,
  'settings',
] as const satisfies TableName[];

/** `performance.now` where there is one (browsers, Node); core is compiled without either. */
function monotonic(): number {
  const performance = (globalThis as { performance?: { now(): number } }).performance;
  return performance === undefined ? Date.now() : performance.now();
}

/** Runs one sync: push everything in the outbox, then pull and merge until up to date. */
export async function runSync(options: SyncRunOptions): Promise<SyncRunReport> {
  const elapsed = options.elapsed ?? monotonic;
  const started = elapsed();
  const counters: Counters = {
    pushed: 0,
    pulled: 0,
    rowsChanged: 0,
    bytesUp: 0,
    bytesDown: 0,
    cryptoMs: 0,
    latestSeqno: 0,
    filesUp: 0,
    filesDown: 0,
    fileProblems: [],
  };
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const start = elapsed();
    try {
      return await work();
    } finally {
      counters.cryptoMs += elapsed() - start;
    }
  };
  const partBytes = options.limits?.blobPartBytes;
  const packBytes = options.limits?.blobPackBytes;
  const files = {
    ...options,
    now: options.now ?? Date.now,
    timed,
    ...(partBytes === undefined ? {} : { partBytes }),
    ...(packBytes === undefined ? {} : { packBytes }),
  };
  const envelopes = options.envelopes ?? personalEnvelopes(options.crypto, options.session);
  const reportNow = (): SyncRunReport => ({
    ...counters,
    fileProblems: [...counters.fileProblems],
    durationMs: elapsed() - started,
  });
  try {
    options.onPhase?.('push');
    // Files first: the definitions that say where they are go out with the push.
    if (envelopes.datasetFiles) {
      const uploaded = await uploadDatasetFiles({
        ...files,
        onFileProgress: (done, total, bytes) => {
          options.onProgress?.({ phase: 'upload-files', done, total, bytes });
        },
      });
      counters.bytesUp += uploaded.bytes;
      counters.filesUp += uploaded.files;
    }
    if (envelopes.pushes) await pushOutbox(options, envelopes, counters, timed);
    options.onPhase?.('pull');
    await pullChanges(options, envelopes, counters, timed);
    if (!envelopes.datasetFiles) return reportNow();
    const downloaded = await downloadDatasetFiles({
      ...files,
      onFileProgress: (done, total, bytes) => {
        options.onProgress?.({ phase: 'download-files', done, total, bytes });
      },
    });
    counters.bytesDown += downloaded.bytes;
    counters.filesDown += downloaded.files;
    counters.fileProblems.push(...downloaded.problems);
    // A dataset whose files no device will send says so, instead of waiting for them for ever.
    await markUnavailableDatasetFiles(options.store, {
      epoch: options.session.epoch,
      unfetched: downloaded.unfetched ?? [],
    });
    return reportNow();
  } catch (error) {
    options.onFailure?.(reportNow());
    throw error;
  }
}

/** The run's report as it grows. */
interface Counters {
  pushed: number;
  pulled: number;
  rowsChanged: number;
  bytesUp: number;
  bytesDown: number;
  cryptoMs: number;
  latestSeqno: number;
  filesUp: number;
  filesDown: number;
  fileProblems: string[];
}
type Timed = <T>(work: () => Promise<T>) => Promise<T>;

/** The wire form of an outbox entry: the entry without its wall time. */
function changeOf(entry: OutboxEntry): RowChange {
  const table = syncedTables.find((name) => name === entry.table);
  if (table === undefined)
    throw new Error(`Outbox entry ${entry.id}: no synced table ${entry.table}`);
  return { id: entry.id, table, rowId: entry.rowId, op: entry.op, fields: outboxFields(entry) };
}

/** A change packed into an envelope: its entry and its JSON, made once. */
interface PackedChange {
  readonly entry: OutboxEntry;
  readonly json: string;
}

interface PushLimits {
  readonly perEnvelope: number;
  /** What sealing adds to an envelope's plaintext. */
  readonly overhead: number;
  /** The largest plaintext an envelope may have, so that sealed it stays under the cap. */
  readonly envelopePlaintext: number;
  readonly body: number;
}

/** What an envelope of `plaintext` bytes, first change `id`, adds to a push body. */
function envelopeWireBytes(id: string, sealed: number): number {
  return ENVELOPE_FRAME_BYTES + utf8ByteLength(JSON.stringify(id)) + base64LengthFor(sealed);
}

/**
 * Packs the first outbox entries into the envelopes of one push: each of at most `perEnvelope`
 * changes and under the envelope cap, as many as the body cap and MAX_PUSH_ENVELOPES allow, in
 * outbox order. A function of the entries and the limits alone, so a push repeated after a lost
 * answer packs the same. It stops before an entry that fits no envelope by itself; when that is
 * the first, it packs nothing and returns that entry as `oversized`.
 */
function packPush(
  entries: readonly OutboxEntry[],
  limits: PushLimits,
  frameBytes: number,
): { envelopes: PackedChange[][]; oversized: { entry: OutboxEntry; bytes: number } | null } {
  const wire = (id: string, plaintext: number) =>
    envelopeWireBytes(id, plaintext + limits.overhead);
  const envelopes: PackedChange[][] = [];
  let open: PackedChange[] = [];
  let openPlaintext = 0;
  // The body so far: the push's own fields and every envelope but the open one.
  let closedBytes = frameBytes;
  for (const entry of entries) {
    const json = JSON.stringify(changeOf(entry));
    const bytes = utf8ByteLength(json);
    const alone = PAYLOAD_FRAME_BYTES + bytes;
    if (alone > limits.envelopePlaintext || frameBytes + wire(entry.id, alone) > limits.body) {
      if (envelopes.length === 0 && open.length === 0) {
        return { envelopes, oversized: { entry, bytes: alone + limits.overhead } };
      }
      break;
    }
    const change = { entry, json };
    const first = open[0];
    if (
      first !== undefined &&
      open.length < limits.perEnvelope &&
      openPlaintext + 1 + bytes <= limits.envelopePlaintext
    ) {
      if (closedBytes + wire(first.entry.id, openPlaintext + 1 + bytes) > limits.body) break;
      open.push(change);
      openPlaintext += 1 + bytes;
      continue;
    }
    const closed =
      first === undefined ? closedBytes : closedBytes + wire(first.entry.id, openPlaintext);
    const count = envelopes.length + (first === undefined ? 0 : 1) + 1;
    if (count > MAX_PUSH_ENVELOPES || closed + wire(entry.id, alone) > limits.body) break;
    if (first !== undefined) envelopes.push(open);
    closedBytes = closed;
    open = [change];
    openPlaintext = alone;
  }
  if (open.length > 0) envelopes.push(open);
  return { envelopes, oversized: null };
}

async function pushOutbox(
  options: SyncRunOptions,
  envelopes: SyncEnvelopes,
  counters: Counters,
  timed: Timed,
): Promise<void> {
  const { store, session } = options;
  const perPush = options.limits?.entriesPerPush ?? ENTRIES_PER_PUSH;
  const limits = pushLimits(options, envelopes);
  // The push without its envelopes, with room for any batch id.
  const frameBytes =
    utf8ByteLength(
      JSON.stringify({
        batchId: '',
        deviceId: session.deviceId,
        epoch: envelopes.pushEpoch,
        envelopes: [],
      }),
    ) + BATCH_ID_ROOM_BYTES;
  const { outboxSize } = await readCursor(store, session);
  for (;;) {
    const entries = await store.read(['outbox'], (tx) => tx.all('outbox', { limit: perPush }));
    if (entries.length === 0) break;
    // Rows this space keeps on the device leave the outbox unsent.
    const local = entries.filter((entry) => envelopes.deviceTables.has(entry.table as SyncedTable));
    if (local.length > 0) {
      await store.write(['outbox'], (tx) =>
        tx.deleteMany(
          'outbox',
          local.map((entry) => entry.id),
        ),
      );
      continue;
    }
    const packed = packPush(entries, limits, frameBytes);
    if (packed.oversized !== null) throw changeTooLarge(packed.oversized, limits);
    const ids = await pushBatch(options, envelopes, packed.envelopes, counters, timed);
    counters.pushed += ids.length;
    options.onProgress?.({
      phase: 'push',
      done: counters.pushed,
      total: Math.max(outboxSize, counters.pushed),
    });
  }
}

/** The push's limits: the run's own (tests pass smaller ones), else the protocol's. */
function pushLimits(options: SyncRunOptions, envelopes: SyncEnvelopes): PushLimits {
  return {
    perEnvelope: options.limits?.entriesPerEnvelope ?? ENTRIES_PER_ENVELOPE,
    overhead: envelopes.overheadBytes,
    envelopePlaintext:
      (options.limits?.envelopeBytes ?? MAX_ENVELOPE_BYTES) - envelopes.overheadBytes,
    body: options.limits?.pushBodyBytes ?? MAX_PUSH_BODY_BYTES,
  };
}

/** The error that stops the run at a change no envelope can hold. */
function changeTooLarge(
  oversized: { entry: OutboxEntry; bytes: number },
  limits: PushLimits,
): SyncEngineError {
  const { entry, bytes } = oversized;
  return new SyncEngineError(
    'change-too-large',
    `A change to ${entry.table} row "${entry.rowId}" is ${bytes.toLocaleString('en-US')} bytes sealed, over the ${(limits.envelopePlaintext + limits.overhead).toLocaleString('en-US')} bytes the server takes for one change, so it can never be sent, and the changes after it wait behind it.`,
    null,
    { id: entry.id, table: entry.table, rowId: entry.rowId },
  );
}

/**
 * Seals and pushes one batch of packed envelopes, then deletes its entries from the outbox in
 * the transaction that records the ack; gives the ids of the entries pushed.
 */
async function pushBatch(
  options: SyncRunOptions,
  envelopes: SyncEnvelopes,
  packedEnvelopes: readonly PackedChange[][],
  counters: Counters,
  timed: Timed,
): Promise<string[]> {
  const { store, transport, session } = options;
  const ids = packedEnvelopes.flatMap((envelope) => envelope.map((change) => change.entry.id));
  // Derived from the entries and how they are packed (the server checks a repeated batch's
  // envelope count): the same entries sent again are the same batch; packed another way (a
  // newer build) they are another batch, stored twice, which merging shrugs off.
  const packing = packedEnvelopes
    .map((envelope) => envelope.map((change) => change.entry.id).join('\n'))
    .join('\n\n');
  const batchId = `${session.deviceId}.${fnv1a64HexOfText(packing)}.${ids.length}.${packedEnvelopes.length}`;
  const sealed: PushRequest['envelopes'] = [];
  for (const envelope of packedEnvelopes) {
    const plaintext = encodeUtf8(
      `${PAYLOAD_HEAD}${envelope.map((change) => change.json).join(',')}${PAYLOAD_TAIL}`,
    );
    const ciphertext = await timed(() => envelopes.seal(plaintext, batchId));
    counters.bytesUp += ciphertext.length;
    sealed.push({ id: envelope[0]?.entry.id ?? batchId, ciphertext });
  }
  const ack = await transport.push({
    batchId,
    deviceId: session.deviceId,
    epoch: envelopes.pushEpoch,
    envelopes: sealed,
  });
  if (ack.batchId !== batchId || ack.seqnos.length !== sealed.length) {
    throw new SyncEngineError(
      'protocol',
      `The server acknowledged batch ${ack.batchId} with ${ack.seqnos.length} numbers for ${sealed.length} envelopes of batch ${batchId}.`,
    );
  }
  counters.latestSeqno = Math.max(counters.latestSeqno, ack.latestSeqno);
  await store.write(['outbox', 'settings'], async (tx) => {
    await tx.deleteMany('outbox', ids);
    // When this batch came straight after the cursor, nobody wrote in between: the cursor
    // can skip it, and the next pull does not fetch this device's own changes back.
    const cursor = await storedCursor(tx, session);
    const first = ack.seqnos[0];
    const consecutive = ack.seqnos.every((seqno, index) => seqno === (first ?? 0) + index);
    if (first === cursor.seqno + 1 && consecutive) {
      await writeCursor(tx, session, {
        epoch: session.epoch,
        seqno: first + ack.seqnos.length - 1,
      });
    }
  });
  return ids;
}

async function openChanges(
  options: SyncRunOptions,
  envelopes: SyncEnvelopes,
  page: PullResponse,
  counters: Counters,
  timed: Timed,
  skip: ReadonlySet<number>,
): Promise<{ changes: RowChange[]; authors: Map<string, string> }> {
  const { session } = options;
  const changes: RowChange[] = [];
  // Each device the changes came from, as the member who pushed from it (a workspace's log).
  const authors = new Map<string, string>();
  for (const change of page.changes) {
    counters.bytesDown += change.ciphertext.length;
    if (skip.has(change.seqno)) continue;
    // This device's own changes were merged when they were made.
    if (change.deviceId === session.deviceId && change.epoch <= envelopes.pushEpoch) continue;
    const plaintext = await timed(() => envelopes.open(change));
    if (plaintext === 'skip') continue;
    const parsed = payloadSchema.safeParse(jsonOrUndefined(plaintext));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SyncEngineError(
        'invalid-change',
        `Change ${change.seqno} from device ${change.deviceId} is not one this version of Docket can merge (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unreadable'}). Nothing from it was applied; updating Docket may help.`,
        change.seqno,
      );
    }
    const author = envelopes.authored ? authorOfChange(change) : null;
    if (author !== null) {
      checkClocksAreTheDevices(change, parsed.data.changes);
      authors.set(change.deviceId, author);
    }
    // A row this space keeps on each device (a member's API key) is never taken from another.
    changes.push(...parsed.data.changes.filter((row) => !envelopes.deviceTables.has(row.table)));
  }
  return { changes, authors };
}

/** The newest clock among changes: the device clock must move past it. */
function newestClock(changes: readonly RowChange[]): string | null {
  let newest: string | null = null;
  for (const change of changes) {
    if (newest === null || change.id > newest) newest = change.id;
    for (const field of Object.values(change.fields ?? {})) {
      if (field.hlc > newest) newest = field.hlc;
    }
  }
  return newest;
}

async function pullChanges(
  options: SyncRunOptions,
  envelopes: SyncEnvelopes,
  counters: Counters,
  timed: Timed,
): Promise<void> {
  const { store, transport, session } = options;
  const now = options.now ?? Date.now;
  const limit = options.limits?.pullLimit ?? MAX_PULL_LIMIT;
  const { cursor } = await readCursor(store, session);
  const skip = await readSkipList(store, session.userId);
  // This device is this account's, though the log may never send back a change of its own.
  if (envelopes.authored) {
    await store.write(['settings'], (tx) => recordAuthors(tx, new Map(), session));
  }
  let since = cursor.seqno;
  const from = since;
  let latestSeqno = since;
  counters.latestSeqno = Math.max(counters.latestSeqno, latestSeqno);
  for (;;) {
    const page = await transport.pull(since, limit);
    latestSeqno = Math.max(latestSeqno, page.latestSeqno);
    counters.latestSeqno = Math.max(counters.latestSeqno, latestSeqno);
    const last = page.changes.at(-1);
    if (last === undefined) break;
    const { changes, authors } = await openChanges(options, envelopes, page, counters, timed, skip);
    const newest = newestClock(changes);
    const wallMs = now();
    const outcome = await store.write(pullTables, async (tx) => {
      if (newest !== null) {
        const clock = await readDeviceClock(tx, session.deviceId);
        try {
          await saveDeviceClock(tx, receive(clock, decodeHlc(newest), wallMs));
        } catch (error) {
          if (error instanceof HlcError) throw new SyncEngineError('clock-drift', error.message);
          throw error;
        }
      }
      const merged = await mergeChanges(tx, changes, { deviceId: session.deviceId });
      // Values of this device's that others replaced go to their bills' History.
      await recordOverwrites(tx, merged.overwritten, { deviceId: session.deviceId, nowMs: wallMs });
      if (envelopes.authored) await recordAuthors(tx, authors, session);
      await writeCursor(tx, session, { epoch: session.epoch, seqno: last.seqno });
      return merged;
    });
    counters.pulled += changes.length;
    counters.rowsChanged += outcome.rowsChanged;
    since = last.seqno;
    options.onProgress?.({
      phase: 'pull',
      done: since - from,
      total: Math.max(latestSeqno - from, since - from),
    });
    if (!page.hasMore) break;
  }
}
