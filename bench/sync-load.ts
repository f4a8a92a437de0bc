import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrorSchema } from '@docket/protocol/api-error';
import { BLOB_CONTENT_TYPE, blobPutResponseSchema } from '@docket/protocol/sync-blobs';
import {
  MAX_PULL_LIMIT,
  pullResponseSchema,
  pushRequestSchema,
  pushResponseSchema,
  type PushRequest,
  type SyncChange,
} from '@docket/protocol/sync-changes';
import { SYNC_NUDGE_EVENT, syncNudgeSchema } from '@docket/protocol/sync-events';
import { syncPaths } from '@docket/protocol/sync-wire';
import { MAX_WORKSPACE_MEMBERS } from '@docket/protocol/workspaces';
import { Pool } from 'undici';
import { cpuMeter, pidsNamed, processJiffies, type ProcessGroup } from './machine-load.ts';
import { apiHeaders, putCloudSettings, signIn, signUp } from './sync-bench-docket.ts';
import {
  Cleanup,
  createLoadDatabase,
  startServers,
  type LoadDatabase,
  type ServerProcess,
} from './sync-load-servers.ts';
import { alignColumns, msText, PhaseFigures, spreadOf, type Spread } from './sync-load-stats.ts';
import {
  makeWorkspace,
  personalLog,
  pullPage,
  sideBySide,
  startMailbox,
  workspaceLog,
  type Mailbox,
  type SyncLog,
} from './sync-load-workspace.ts';

// The load test (issue 17): DEVICES devices of ACCOUNTS accounts against real server processes on
// loopback, two on one PostgreSQL 15 (or one on PGlite, which is one process's database). Every
// device holds its event stream (/api/sync/events) open, and in a loop: waits a while, pushes a
// small batch, pulls, and now and then uploads a blob; a nudge on its stream makes it pull. The
// devices of an account are spread over the processes, so a push through one process reaches
// the account's devices on the other only through LISTEN/NOTIFY: that delay is measured. After
// a warm-up come two timed phases, the second with one more account flooding the server; then
// every account's log is read back through the pull route and checked against every change the
// server acknowledged: each stored once, the sequence numbers gapless. Beside them, a team
// workspace of WORKSPACE_MEMBERS accounts (sync-load-workspace.ts) whose members each run one
// device against the workspace's log, in the same phases, all pushing at once every
// WORKSPACE_ROUND_SECONDS (no event streams, no blobs);
// its pushes and pulls are reported beside the personal ones, and its log checked the same way.
//
//   npx tsx bench/sync-load.ts                      (PostgreSQL, two processes)
//   DATABASE=pglite npx tsx bench/sync-load.ts      (PGlite, one process)
//
// Envelopes are random bytes of a row change's size: the server only stores ciphertext, so
// random bytes cost it what real ones do. The requests and answers are the protocol's own,
// checked with its schemas. Everything is bounded: the request loops stop after the phases, and
// the whole run is cut off after HARD_LIMIT.

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const DATABASE = process.env.DATABASE ?? 'postgres';
const DEVICES = Math.floor(setting('DEVICES', 1000));
const ACCOUNTS = Math.floor(setting('ACCOUNTS', 250));
/** Accounts of the one team workspace, each with one device syncing its log. */
const WORKSPACE_MEMBERS = Math.floor(setting('WORKSPACE_MEMBERS', 20));
/**
 * The workspace's members sync at once: every this many seconds all of them push at the same
 * instant, then pull (a team at work in one meeting), so their pushes meet on the workspace's lock.
 */
const WORKSPACE_ROUND_SECONDS = setting('WORKSPACE_ROUND_SECONDS', 10);
/** Each timed phase, in seconds. */
const SECONDS = setting('SECONDS', 60);
const WARMUP_SECONDS = setting('WARMUP_SECONDS', 15);
/** The mean pause between one device's pushes (exponential, at most five times the mean). */
const THINK_SECONDS = setting('THINK_SECONDS', 120);
/** Connections for requests, all server processes together; event streams have their own. */
const CONNECTIONS = Math.floor(setting('CONNECTIONS', 64));
/** Requests the flooding account keeps in flight, all processes together. */
const FLOOD_CONCURRENCY = Math.floor(setting('FLOOD_CONCURRENCY', 32));
/** How long a flood request refused with 429 waits before it is sent again (Retry-After ignored). */
const FLOOD_RETRY_MS = setting('FLOOD_RETRY_MS', 20);
/** Extra node flags for the server processes, space-separated (a profile: `--cpu-prof`). */
const SERVER_NODE_FLAGS = (process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://docket:docket@127.0.0.1:5432/postgres';

/** Most envelopes of a device's push; a push carries 1 to this many. */
const BATCH_MAX = 5;
/** The flooding account's pushes. */
const FLOOD_BATCH = 100;
/** A cycle uploads a blob this often, of 8 to 128 KiB. */
const BLOB_SHARE = 0.03;
/** A push is sent a second time, as after a lost answer, this often: it must store nothing. */
const RESEND_SHARE = 0.01;
const PROCESSES = DATABASE === 'pglite' ? 1 : 2;
/** Setup, warm-up, two phases, the wind-down and the check, whatever happens. */
const HARD_LIMIT_MS = (900 + WARMUP_SECONDS + 2 * SECONDS) * 1000;

if (DATABASE !== 'postgres' && DATABASE !== 'pglite') {
  throw new Error('DATABASE must be postgres or pglite');
}
if (WORKSPACE_MEMBERS > MAX_WORKSPACE_MEMBERS) {
  throw new Error(`WORKSPACE_MEMBERS must be at most ${MAX_WORKSPACE_MEMBERS}`);
}

const devicesPerAccount = Math.ceil(DEVICES / ACCOUNTS);
/**
 * The servers' per-account limits, set to fit the load. A device has at most two requests in
 * flight (a sync step and a blob), so an account's devices on one process have at most this
 * many: the concurrency cap. The per-minute budget of requests is set out of the way (at the
 * default 1,800 it would cut the flooder off within its first seconds); the share of work
 * (ACCOUNT_WORK_PER_SECOND, changes moved) keeps its defaults unless the environment sets it,
 * so the flood phase shows what the cap and that share do.
 */
const ACCOUNT_MAX_CONCURRENT = 2 * Math.ceil(devicesPerAccount / PROCESSES);
const serverEnv = {
  ACCOUNT_MAX_CONCURRENT: String(ACCOUNT_MAX_CONCURRENT),
  ACCOUNT_RATE_LIMIT_MAX: '1000000',
  // Sign-up and sign-in of every device come from one address.
  AUTH_RATE_LIMIT_MAX: '1000000',
  // The event streams are one connection each, on top of the request connections.
  MAX_CONNECTIONS: String(DEVICES + CONNECTIONS + 200),
  // Every device connects from this one address.
  MAX_CONNECTIONS_PER_ADDRESS: '0',
  ...(process.env.ACCOUNT_WORK_PER_SECOND === undefined
    ? {}
    : { ACCOUNT_WORK_PER_SECOND: process.env.ACCOUNT_WORK_PER_SECOND }),
  ...(process.env.ACCOUNT_WORK_BURST === undefined
    ? {}
    : { ACCOUNT_WORK_BURST: process.env.ACCOUNT_WORK_BURST }),
};

interface Account {
  readonly index: number;
  readonly email: string;
  userId: string;
  epoch: number;
  readonly devices: Device[];
  /** Every change the server acknowledged: its id and the sequence number it was given. */
  readonly acked: Map<string, number>;
  /** Changes whose push was given up on: stored or not, nobody was told. */
  unacknowledged: number;
}

interface Device {
  readonly id: string;
  /** The account, or for the workspace's members the workspace, whose log it syncs. */
  readonly account: Account;
  readonly log: SyncLog;
  /** Which server process it talks to. */
  readonly server: number;
  cookie: string;
  /** The last sequence number it pulled. */
  cursor: number;
  /** The newest sequence number a nudge told it of. */
  known: number;
  changeCount: number;
  pullQueued: boolean;
  chain: Promise<void>;
  /** Each nudge's latestSeqno and when it arrived (non-decreasing: streams only move forward). */
  readonly nudgeSeqnos: number[];
  readonly nudgeTimes: number[];
  streamOpen: boolean;
}

/** A push the server acknowledged, for the nudge delay. */
interface AckedPush {
  readonly device: Device;
  readonly lastSeqno: number;
  readonly sentAt: number;
  readonly ackAt: number;
  readonly phase: PhaseFigures;
}

const problems = {
  /** A pull page that did not start right after the cursor or skipped a number. */
  pullGaps: 0,
  /** An acknowledgement whose numbers were not consecutive, or a change acknowledged twice. */
  badAcks: 0,
  /** A batch sent again whose answer was not the first answer's numbers with duplicate: true. */
  badResends: 0,
  /** Streams that ended while the run went on. */
  streamDrops: 0,
  /** Pushes given up after every retry. */
  pushesGivenUp: 0,
};

let phase = new PhaseFigures('setup');
/** Set when the run winds down (read through functions: a flag read in a loop is not narrowed). */
const ending = { devices: false, flood: false };
const stopping = () => ending.devices;
const stopFlood = () => ending.flood;
const ackedPushes: AckedPush[] = [];

// Ciphertexts of a row change's size (a change's JSON is 100 to 900 bytes; AES-GCM adds 28).
const ciphertexts = Array.from({ length: 512 }, () =>
  randomBytes(128 + Math.floor(Math.random() * 800)).toString('base64'),
);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

let requestPools: Pool[] = [];

/** One request, timed from sending it to holding its whole answer, recorded under `route`. */
async function send(
  route: string,
  server: number,
  options: {
    method: 'GET' | 'POST' | 'PUT';
    path: string;
    cookie: string;
    body?: string | Buffer;
    contentType?: string;
  },
): Promise<Answer | null> {
  const pool = requestPools[server];
  if (pool === undefined) throw new Error(`No server ${server}`);
  const figures = phase;
  const headers = apiHeaders(options.cookie);
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const start = performance.now();
  try {
    const response = await pool.request({
      method: options.method,
      path: options.path,
      headers,
      body: options.body ?? null,
    });
    const text = await response.body.text();
    const ms = performance.now() - start;
    let status = String(response.statusCode);
    if (response.statusCode >= 300) {
      const error = apiErrorSchema.safeParse(safeJson(text));
      if (error.success) status += ` ${error.data.error}`;
    }
    figures.record(route, status, ms);
    return { status: response.statusCode, text, headers: response.headers };
  } catch {
    figures.record(route, 'network', performance.now() - start);
    return null;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Seconds a 429 asks to wait, else `fallbackMs`. */
function retryAfterMs(answer: Answer | null, fallbackMs: number): number {
  const header = answer?.headers['retry-after'];
  const seconds = Number(typeof header === 'string' ? header : NaN);
  return answer?.status === 429 && Number.isFinite(seconds) ? seconds * 1000 : fallbackMs;
}

/** Runs `work` after the device's earlier sync steps: one at a time, as the app's engine does. */
function serially(device: Device, work: () => Promise<void>): Promise<void> {
  const next = device.chain.then(work);
  device.chain = next.catch((error: unknown) => {
    console.error(`[sync load] device ${device.id}:`, error);
  });
  return next;
}

/** Pulls every page after the device's cursor, checking that no number is skipped. */
async function pullAll(device: Device, route = `${device.log.label}pull`): Promise<void> {
  for (let page = 0; page < 100; page++) {
    const answer = await send(route, device.server, {
      method: 'GET',
      path: `${device.log.pull}?since=${device.cursor}&limit=${MAX_PULL_LIMIT}`,
      cookie: device.cookie,
    });
    if (answer?.status !== 200) return;
    const body = pullPage(device.log, answer.text);
    if (!contiguous(body.changes, device.cursor)) problems.pullGaps++;
    const last = body.changes[body.changes.length - 1];
    if (last !== undefined) device.cursor = last.seqno;
    device.known = Math.max(device.known, body.latestSeqno);
    if (!body.hasMore) return;
  }
}

function contiguous(changes: readonly SyncChange[], after: number): boolean {
  return changes.every((change, index) => change.seqno === after + 1 + index);
}

function newBatch(device: Device, size: number): PushRequest {
  const envelopes = Array.from({ length: size }, () => ({
    id: `${device.id}.${++device.changeCount}`,
    ciphertext: pick(ciphertexts),
  }));
  return pushRequestSchema.parse({
    batchId: randomUUID(),
    deviceId: device.id,
    epoch: device.account.epoch,
    envelopes,
  });
}

/**
 * Pushes `batch` until the server acknowledges it (the same batch id each time, so a retry
 * after a lost answer stores nothing twice), records what it acknowledged, and answers whether
 * it did.
 */
async function push(
  device: Device,
  batch: PushRequest,
  route: string,
  retry: { attempts: number; waitMs: (answer: Answer | null) => number },
): Promise<boolean> {
  const body = JSON.stringify(batch);
  for (let attempt = 0; attempt < retry.attempts; attempt++) {
    if (attempt > 0 && stopFlood() && route.startsWith('flood')) break;
    const sentAt = performance.now();
    const answer = await send(route, device.server, {
      method: 'POST',
      path: device.log.push,
      cookie: device.cookie,
      body,
      contentType: 'application/json',
    });
    if (answer?.status !== 200) {
      await sleep(retry.waitMs(answer));
      continue;
    }
    const ackAt = performance.now();
    const acked = pushResponseSchema.parse(JSON.parse(answer.text));
    noteAcknowledged(device, batch, acked.seqnos);
    const lastSeqno = acked.seqnos[acked.seqnos.length - 1] ?? 0;
    // The nudge delay is the personal logs' (the workspace's devices hold no event stream).
    if (route === 'push') ackedPushes.push({ device, lastSeqno, sentAt, ackAt, phase });
    if (Math.random() < RESEND_SHARE) await resend(device, body, acked.seqnos, route);
    return true;
  }
  // The flooder stops mid-retry when its phase ends; that is no failure of the server.
  if (!route.startsWith('flood')) problems.pushesGivenUp++;
  device.account.unacknowledged += batch.envelopes.length;
  return false;
}

function noteAcknowledged(device: Device, batch: PushRequest, seqnos: readonly number[]): void {
  const first = seqnos[0] ?? NaN;
  if (
    seqnos.length !== batch.envelopes.length ||
    !seqnos.every((seqno, index) => seqno === first + index)
  ) {
    problems.badAcks++;
  }
  batch.envelopes.forEach((envelope, index) => {
    const seqno = seqnos[index] ?? NaN;
    const earlier = device.account.acked.get(envelope.id);
    if (earlier !== undefined && earlier !== seqno) problems.badAcks++;
    device.account.acked.set(envelope.id, seqno);
  });
}

/** The same batch again, as after a lost answer: the first answer's numbers, nothing stored. */
async function resend(
  device: Device,
  body: string,
  seqnos: readonly number[],
  route: string,
): Promise<void> {
  const answer = await send(`${route} (same batch again)`, device.server, {
    method: 'POST',
    path: device.log.push,
    cookie: device.cookie,
    body,
    contentType: 'application/json',
  });
  if (answer?.status !== 200) return;
  const again = pushResponseSchema.parse(JSON.parse(answer.text));
  if (!again.duplicate || again.seqnos.join() !== seqnos.join()) problems.badResends++;
}

async function putBlob(device: Device): Promise<void> {
  const bytes = randomBytes(8 * 1024 + Math.floor(Math.random() * 120 * 1024));
  const address = createHash('sha256').update(bytes).digest('hex');
  const answer = await send('blob PUT', device.server, {
    method: 'PUT',
    path: `${syncPaths.blobs}/${address}`,
    cookie: device.cookie,
    body: bytes,
    contentType: BLOB_CONTENT_TYPE,
  });
  if (answer?.status === 201) blobPutResponseSchema.parse(JSON.parse(answer.text));
}

const deviceRetry = {
  attempts: 5,
  waitMs: (answer: Answer | null) => Math.min(5000, retryAfterMs(answer, 500)),
};

/**
 * A device's own loop: a pause, a push and a pull, now and then a blob (its own account's
 * devices only), until the run ends.
 */
async function deviceLoop(device: Device): Promise<void> {
  const route = `${device.log.label}push`;
  while (!stopping()) {
    const pause = Math.min(5, -Math.log(1 - Math.random())) * THINK_SECONDS * 1000;
    await Promise.race([sleep(pause), stopped]);
    if (stopping()) return;
    await serially(device, async () => {
      await push(device, newBatch(device, 1 + Math.floor(Math.random() * BATCH_MAX)), route, {
        ...deviceRetry,
      });
      await pullAll(device);
    });
    if (!device.log.workspace && Math.random() < BLOB_SHARE) await putBlob(device);
  }
}

/** A workspace member's device: pushes at each round's start, with every other member, then pulls. */
async function workspaceLoop(device: Device): Promise<void> {
  const route = `${device.log.label}push`;
  const round = WORKSPACE_ROUND_SECONDS * 1000;
  while (!stopping()) {
    const now = performance.now();
    await Promise.race([sleep(Math.ceil((now + 1) / round) * round - now), stopped]);
    if (stopping()) return;
    await serially(device, async () => {
      await push(device, newBatch(device, 1 + Math.floor(Math.random() * BATCH_MAX)), route, {
        ...deviceRetry,
      });
      await pullAll(device);
    });
  }
}

/** A nudge ahead of what the device holds makes it pull, once, after its current step. */
function nudged(device: Device): void {
  if (device.pullQueued || stopping()) return;
  device.pullQueued = true;
  void serially(device, async () => {
    device.pullQueued = false;
    if (device.known > device.cursor) await pullAll(device);
  });
}

let streamPools: Pool[] = [];
const streamAborts = new AbortController();
// Every stream listens on the one signal.
setMaxListeners(0, streamAborts.signal);

/** Holds the device's event stream open until the run ends; resolves once the first event came. */
function holdStream(device: Device): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = async () => {
      const pool = streamPools[device.server];
      if (pool === undefined) throw new Error(`No server ${device.server}`);
      const start = performance.now();
      const response = await pool.request({
        method: 'GET',
        path: syncPaths.events,
        headers: { ...apiHeaders(device.cookie), accept: 'text/event-stream' },
        signal: streamAborts.signal,
      });
      phase.record('events (open)', String(response.statusCode), performance.now() - start);
      if (response.statusCode !== 200) {
        await response.body.text();
        throw new Error(`The event stream answered ${response.statusCode}`);
      }
      device.streamOpen = true;
      response.body.setEncoding('utf8');
      let buffer = '';
      for await (const chunk of response.body as AsyncIterable<string>) {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (readEvent(device, block)) resolve();
        }
      }
    };
    const run = async () => {
      while (!stopping()) {
        try {
          await open();
        } catch (error) {
          if (stopping()) return;
          reject(error instanceof Error ? error : new Error(String(error)));
        }
        device.streamOpen = false;
        if (stopping()) return;
        problems.streamDrops++;
        await sleep(3000);
      }
    };
    void run();
  });
}

/** Handles one server-sent event; answers whether it was a nudge. */
function readEvent(device: Device, block: string): boolean {
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  if (event !== SYNC_NUDGE_EVENT) return false;
  const nudge = syncNudgeSchema.parse(JSON.parse(data));
  device.nudgeSeqnos.push(nudge.latestSeqno);
  device.nudgeTimes.push(performance.now());
  if (nudge.latestSeqno > device.known) {
    device.known = nudge.latestSeqno;
    nudged(device);
  }
  return true;
}

/** The flooding account: more requests in flight than its cap, retried at once when refused. */
async function floodLoop(device: Device, offset: number): Promise<void> {
  const retry = { attempts: 1_000_000, waitMs: () => FLOOD_RETRY_MS };
  while (!stopFlood()) {
    await push(device, newBatch(device, FLOOD_BATCH), 'flood push', retry);
    if (stopFlood()) return;
    // A full page of the log, read again and again.
    const since = Math.max(0, device.known - MAX_PULL_LIMIT - offset);
    const answer = await send('flood pull', device.server, {
      method: 'GET',
      path: `${syncPaths.pull}?since=${since}&limit=${MAX_PULL_LIMIT}`,
      cookie: device.cookie,
    });
    if (answer?.status === 200) {
      const body = pullResponseSchema.parse(JSON.parse(answer.text));
      device.known = Math.max(device.known, body.latestSeqno);
    } else {
      await sleep(FLOOD_RETRY_MS);
    }
  }
}

/** Runs `work` on each item, `limit` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

let signalStop: () => void = () => undefined;
const stopped = new Promise<void>((resolve) => {
  signalStop = resolve;
});

function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((text) => text.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === 'unlimited' || soft === undefined ? Infinity : Number(soft);
}

/** The delay from sending a push to each of the account's devices on another process hearing of it. */
function nudgeDelays(figures: PhaseFigures): { fromSend: Spread; fromAck: Spread; missed: number } {
  const fromSend: number[] = [];
  const fromAck: number[] = [];
  let missed = 0;
  for (const pushed of ackedPushes) {
    if (pushed.phase !== figures) continue;
    for (const other of pushed.device.account.devices) {
      const elsewhere =
        PROCESSES > 1 ? other.server !== pushed.device.server : other !== pushed.device;
      if (!elsewhere) continue;
      const index = firstAtLeast(other.nudgeSeqnos, pushed.lastSeqno);
      const at = index === -1 ? undefined : other.nudgeTimes[index];
      if (at === undefined) {
        missed++;
        continue;
      }
      fromSend.push(at - pushed.sentAt);
      fromAck.push(at - pushed.ackAt);
    }
  }
  return { fromSend: spreadOf(fromSend), fromAck: spreadOf(fromAck), missed };
}

function firstAtLeast(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? Infinity) < value) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length ? low : -1;
}

interface Verdict {
  stored: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  gaps: number;
  wrongSeqno: number;
  storedNotAcknowledged: number;
}

/** Reads every account's whole log through the pull route and checks it against the acks. */
async function verify(accounts: readonly Account[]): Promise<Verdict> {
  const verdict: Verdict = {
    stored: 0,
    acknowledged: 0,
    lost: 0,
    duplicated: 0,
    gaps: 0,
    wrongSeqno: 0,
    storedNotAcknowledged: 0,
  };
  await eachLimited(accounts, 8, async (account) => {
    const reader = account.devices[0];
    if (reader === undefined) return;
    const log: SyncChange[] = [];
    let since = 0;
    for (;;) {
      const answer = await send(`${reader.log.label}pull (check)`, reader.server, {
        method: 'GET',
        path: `${reader.log.pull}?since=${since}&limit=${MAX_PULL_LIMIT}`,
        cookie: reader.cookie,
      });
      // The flooder's account is over its share of the work for a while after the flood: the
      // check waits as the app would.
      if (answer?.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(answer, 1000)));
        continue;
      }
      if (answer?.status !== 200) throw new Error(`The check's pull answered ${answer?.status}`);
      const page = pullPage(reader.log, answer.text);
      log.push(...page.changes);
      since = page.changes[page.changes.length - 1]?.seqno ?? since;
      if (!page.hasMore) break;
    }
    const seen = new Map<string, number>();
    log.forEach((change, index) => {
      if (change.seqno !== index + 1) verdict.gaps++;
      if (seen.has(change.id)) verdict.duplicated++;
      seen.set(change.id, change.seqno);
    });
    verdict.stored += log.length;
    verdict.acknowledged += account.acked.size;
    for (const [id, seqno] of account.acked) {
      const stored = seen.get(id);
      if (stored === undefined) verdict.lost++;
      else if (stored !== seqno) verdict.wrongSeqno++;
    }
    for (const id of seen.keys()) if (!account.acked.has(id)) verdict.storedNotAcknowledged++;
  });
  return verdict;
}

const count = (value: number) => value.toLocaleString('en-US');

async function main(): Promise<void> {
  const files = openFileLimit();
  const needed = DEVICES + CONNECTIONS + 200;
  if (files < needed) {
    throw new Error(`Open files are limited to ${files}; ${needed} are needed (ulimit -n).`);
  }
  const cleanup = new Cleanup();
  const hardLimit = setTimeout(() => {
    console.error(`[sync load] still running after ${HARD_LIMIT_MS / 1000} s: stopping`);
    void cleanup.run().finally(() => process.exit(2));
  }, HARD_LIMIT_MS);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`[sync load] ${signal}: stopping the servers and removing the database`);
      void cleanup.run().finally(() => process.exit(130));
    });
  }
  const loadBefore = cpuMeter();
  await sleep(1000);
  const what =
    DATABASE === 'pglite'
      ? 'PGlite in a data folder, one server process'
      : 'PostgreSQL 15, two server processes';
  console.log(
    `[sync load] ${count(DEVICES)} devices of ${count(ACCOUNTS)} accounts on ${what}; warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s steady and ${SECONDS} s with one more account flooding; a push every ${THINK_SECONDS} s per device on average; Node ${process.version}`,
  );
  console.log(`[sync load] CPU in the second before the run: ${loadBefore()}`);
  console.log(
    `[sync load] servers' limits: ${Object.entries(serverEnv)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')}`,
  );

  try {
    let setupStart = performance.now();
    const database =
      DATABASE === 'postgres' ? await createLoadDatabase(PG_ADMIN_URL, cleanup) : null;
    const databaseUrl = database?.url ?? null;
    // The verification e-mails of sign-up come here: the workspace's members need theirs.
    const mailbox = await startMailbox();
    cleanup.add(() => mailbox.close());
    const servers = await startServers(
      PROCESSES,
      { databaseUrl, env: { ...serverEnv, SMTP_URL: mailbox.url }, nodeFlags: SERVER_NODE_FLAGS },
      cleanup,
    );
    console.log(
      `[sync load] ${servers.length} server process(es) up in ${msText(performance.now() - setupStart)} ms: ${servers.map((server) => server.origin).join(', ')}`,
    );
    requestPools = servers.map(
      (server) =>
        new Pool(server.origin, {
          connections: Math.ceil(CONNECTIONS / servers.length),
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        }),
    );
    streamPools = servers.map(
      (server) =>
        new Pool(server.origin, {
          connections: Math.ceil(DEVICES / servers.length) + 8,
          headersTimeout: 60_000,
          bodyTimeout: 0,
        }),
    );
    cleanup.add(async () => {
      streamAborts.abort();
      await Promise.all([...requestPools, ...streamPools].map((pool) => pool.destroy()));
    });

    setupStart = performance.now();
    const { accounts, flooder, workspace } = await makeAccounts(servers, mailbox);
    console.log(
      `[sync load] ${count(accounts.length + 1 + WORKSPACE_MEMBERS)} accounts signed up and ${count(DEVICES + flooder.devices.length + WORKSPACE_MEMBERS)} devices signed in (through better-auth, one session an account), ${WORKSPACE_MEMBERS} of them made a workspace's members (verified, invited, accepted, confirmed), in ${msText((performance.now() - setupStart) / 1000)} s`,
    );
    setupStart = performance.now();
    const devices = accounts.flatMap((account) => account.devices);
    await eachLimited(devices, 50, (device) => holdStream(device));
    console.log(
      `[sync load] ${count(devices.length)} event streams open in ${msText((performance.now() - setupStart) / 1000)} s`,
    );

    const groups: ProcessGroup[] = [
      { name: 'servers', pids: () => servers.map((server) => server.pid) },
      ...(DATABASE === 'postgres' ? [{ name: 'postgres', pids: () => pidsNamed('postgres') }] : []),
    ];
    phase = new PhaseFigures('warm-up');
    const loops = [...devices.map(deviceLoop), ...workspace.devices.map(workspaceLoop)];
    await sleep(WARMUP_SECONDS * 1000);

    const steady = await timedPhase('steady', groups, database);
    const flood = new PhaseFigures('flood');
    phase = flood;
    const floodLoops = Array.from({ length: FLOOD_CONCURRENCY }, (_, index) => {
      const device = flooder.devices[index % flooder.devices.length];
      if (device === undefined) throw new Error('The flooder has no device');
      return floodLoop(device, index);
    });
    const floodLoad = await timedPhase(flood, groups, database);
    ending.flood = true;
    ending.devices = true;
    signalStop();
    phase = new PhaseFigures('wind-down');
    await Promise.all([
      ...loops,
      ...floodLoops,
      ...[...devices, ...workspace.devices].map((device) => device.chain),
    ]);
    // Nudges of the last pushes are still on their way.
    await sleep(2000);
    streamAborts.abort();

    const checkStart = performance.now();
    phase = new PhaseFigures('check');
    const verdict = await verify([...accounts, flooder, workspace]);
    const checkSeconds = (performance.now() - checkStart) / 1000;

    const serverErrors = (await Promise.all(servers.map((server) => server.errorLines()))).flat();
    report({ steady: steady.figures, flood: floodLoad.figures }, [steady.cost, floodLoad.cost], {
      verdict,
      checkSeconds,
      serverErrors,
      servers,
    });
  } finally {
    clearTimeout(hardLimit);
    await cleanup.run();
  }
}

/** What a phase cost the servers and the database, per answer. */
interface PhaseCost {
  /** The machine's load, this process's event-loop delay. */
  cpu: string;
  serverJiffies: number;
  databaseJiffies: number;
  /** Database transactions committed (PostgreSQL only), NaN otherwise. */
  transactions: number;
}

/** Lets the devices run for SECONDS under `name`, measuring the machine and the client's lag. */
async function timedPhase(
  which: string | PhaseFigures,
  groups: readonly ProcessGroup[],
  database: LoadDatabase | null,
): Promise<{ figures: PhaseFigures; cost: PhaseCost }> {
  const figures = typeof which === 'string' ? new PhaseFigures(which) : which;
  phase = figures;
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const meter = cpuMeter(groups);
  const jiffies = () =>
    groups.map((group) => group.pids().reduce((sum, pid) => sum + processJiffies(pid), 0));
  const jiffiesBefore = jiffies();
  const transactionsBefore = (await database?.transactions()) ?? NaN;
  figures.startedAt = performance.now();
  await sleep(SECONDS * 1000);
  figures.endedAt = performance.now();
  lag.disable();
  const jiffiesAfter = jiffies();
  const used = (index: number) => (jiffiesAfter[index] ?? NaN) - (jiffiesBefore[index] ?? NaN);
  const cpu = `${meter()}; this process's event-loop delay p50 ${msText(lag.percentile(50) / 1e6)} ms, p99 ${msText(lag.percentile(99) / 1e6)} ms`;
  return {
    figures,
    cost: {
      cpu,
      serverJiffies: used(0),
      databaseJiffies: groups.length > 1 ? used(1) : 0,
      transactions: ((await database?.transactions()) ?? NaN) - transactionsBefore,
    },
  };
}

async function makeAccounts(
  servers: readonly ServerProcess[],
  mailbox: Mailbox,
): Promise<{ accounts: Account[]; flooder: Account; workspace: Account }> {
  const run = randomUUID().slice(0, 8);
  const newAccount = (index: number): Account => ({
    index,
    email: `load-${run}-${index}@example.test`,
    userId: '',
    epoch: 0,
    devices: [],
    acked: new Map(),
    unacknowledged: 0,
  });
  const accounts = Array.from({ length: ACCOUNTS }, (_, index) => newAccount(index));
  const flooder = newAccount(ACCOUNTS);
  const newDevice = (account: Account, server: number, log = personalLog): Device => {
    const device: Device = {
      id: `load-${account.index}-${account.devices.length}`,
      account,
      log,
      server,
      cookie: '',
      cursor: 0,
      known: 0,
      changeCount: 0,
      pullQueued: false,
      chain: Promise.resolve(),
      nudgeSeqnos: [],
      nudgeTimes: [],
      streamOpen: false,
    };
    account.devices.push(device);
    return device;
  };
  // Device d belongs to account d mod ACCOUNTS; an account's devices take turns of the processes.
  for (let index = 0; index < DEVICES; index++) {
    const account = accounts[index % ACCOUNTS];
    if (account === undefined) throw new Error('No account');
    newDevice(account, account.devices.length % servers.length);
  }
  for (let server = 0; server < servers.length; server++) newDevice(flooder, server);

  const originOf = (server: number) => servers[server]?.origin ?? '';
  // One session per account, which its devices share: a sign-in costs the server a scrypt hash,
  // and a thousand of them would take minutes of setup and measure nothing of sync.
  await eachLimited([...accounts, flooder], 8, async (account) => {
    const first = account.devices[0];
    if (first === undefined) return;
    await signUp(originOf(first.server), account.email);
    const session = await signIn(originOf(first.server), account.email);
    account.userId = session.userId;
    for (const device of account.devices) device.cookie = session.cookie;
    const settings = await putCloudSettings(originOf(first.server), session.cookie);
    account.epoch = settings.keyEpoch;
  });

  // The team workspace: a log of its own, one device for each member, with the member's session.
  const team = await makeWorkspace(
    servers.map((server) => server.origin),
    WORKSPACE_MEMBERS,
    run,
    mailbox,
  );
  const workspace = newAccount(ACCOUNTS + 1);
  workspace.userId = team.id;
  workspace.epoch = team.keyVersion;
  const log = workspaceLog(team.id);
  for (const member of team.members) {
    newDevice(workspace, member.server, log).cookie = member.cookie;
  }
  return { accounts, flooder, workspace };
}

function report(
  phases: { steady: PhaseFigures; flood: PhaseFigures },
  costs: readonly PhaseCost[],
  end: { verdict: Verdict; checkSeconds: number; serverErrors: string[]; servers: ServerProcess[] },
): void {
  const { steady, flood } = phases;
  const lines: string[] = [''];
  [steady, flood].forEach((figures, index) => {
    const cost = costs[index];
    const pushes = ['push', 'flood push', 'workspace push'].reduce(
      (sum, route) => sum + figures.latencies(route).length,
      0,
    );
    const answers = [...figures.routes.values()].reduce(
      (sum, route) => sum + [...route.statuses.values()].reduce((a, b) => a + b, 0),
      0,
    );
    lines.push(
      `Phase "${figures.name}" (${figures.seconds.toFixed(0)} s): ${count(answers)} answers, ${(answers / figures.seconds).toFixed(0)} a second; ${count(pushes)} pushes acknowledged`,
      `  CPU: ${cost?.cpu ?? ''}`,
      `  per answer: servers ${msText((10 * (cost?.serverJiffies ?? NaN)) / answers)} ms of CPU, the database ${msText((10 * (cost?.databaseJiffies ?? NaN)) / answers)} ms${Number.isNaN(cost?.transactions ?? NaN) ? '' : `, ${((cost?.transactions ?? NaN) / answers).toFixed(1)} database transactions`}`,
      ...figures.table().map((line) => `  ${line}`),
      `  push p99 by 10 s: ${figures.p99BySlice('push', 10)} ms; pull: ${figures.p99BySlice('pull', 10)} ms`,
      `  the workspace's push p99 by 10 s: ${figures.p99BySlice('workspace push', 10)} ms; pull: ${figures.p99BySlice('workspace pull', 10)} ms`,
    );
    const nudges = nudgeDelays(figures);
    const where = PROCESSES > 1 ? 'a device on the other process' : "the account's other devices";
    lines.push(
      `  nudge, push sent → ${where}: ${count(nudges.fromSend.count)} deliveries, p50 ${msText(nudges.fromSend.p50)} ms, p95 ${msText(nudges.fromSend.p95)} ms, p99 ${msText(nudges.fromSend.p99)} ms, max ${msText(nudges.fromSend.max)} ms; never heard of: ${nudges.missed}`,
      `  the same after the push's acknowledgement: p50 ${msText(nudges.fromAck.p50)} ms, p95 ${msText(nudges.fromAck.p95)} ms (negative: the nudge came first)`,
      '',
    );
  });

  const { verdict } = end;
  lines.push(
    `Check (${end.checkSeconds.toFixed(1)} s, every account's log and the workspace's read back through the pull routes): ${count(verdict.stored)} changes stored, ${count(verdict.acknowledged)} acknowledged`,
    `  lost ${verdict.lost}, duplicated ${verdict.duplicated}, gaps ${verdict.gaps}, stored under another number than acknowledged ${verdict.wrongSeqno}, stored without an acknowledgement ${verdict.storedNotAcknowledged}`,
    `  on the way: pull pages with a gap ${problems.pullGaps}, bad acknowledgements ${problems.badAcks}, resent batches not answered as duplicates ${problems.badResends}, pushes given up ${problems.pushesGivenUp}, event streams dropped ${problems.streamDrops}`,
    `  server log lines at level error: ${end.serverErrors.length}${end.serverErrors.length > 0 ? ` (first: ${end.serverErrors[0]?.slice(0, 500) ?? ''}; logs: ${end.servers.map((server) => server.logPath).join(', ')})` : ''}`,
    '',
  );

  lines.push(
    `Personal spaces and the workspace of ${WORKSPACE_MEMBERS} members, side by side`,
    ...sideBySide([steady, flood], {
      personal: `${count(DEVICES)} of ${count(ACCOUNTS)} accounts`,
      workspace: `${WORKSPACE_MEMBERS} members, all at once every ${WORKSPACE_ROUND_SECONDS} s`,
    }).map((line) => `  ${line}`),
    '',
  );

  const serverErrors = steady.serverErrors() + flood.serverErrors();
  const steadyPush = spreadOf(steady.latencies('push'));
  const floodPush = spreadOf(flood.latencies('push'));
  const steadyPull = spreadOf(steady.latencies('pull'));
  const floodPull = spreadOf(flood.latencies('pull'));
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const exact = verdict.lost + verdict.duplicated + verdict.gaps + verdict.wrongSeqno;
  lines.push(
    'Goals',
    ...alignColumns([
      ['goal', 'figure', ''],
      [
        '0 lost, 0 duplicated',
        `${verdict.lost} lost, ${verdict.duplicated} duplicated, ${verdict.gaps} gaps`,
        met(exact === 0 && problems.pullGaps === 0 && problems.badResends === 0),
      ],
      ['0 5xx (or failed connections)', `${serverErrors}`, met(serverErrors === 0)],
      ['push p99 < 200 ms (steady)', `${msText(steadyPush.p99)} ms`, met(steadyPush.p99 < 200)],
      [
        "others' push p99 with a flood ≤ 2× without",
        `${msText(floodPush.p99)} / ${msText(steadyPush.p99)} ms = ${(floodPush.p99 / steadyPush.p99).toFixed(2)}×`,
        met(floodPush.p99 <= 2 * steadyPush.p99),
      ],
      [
        "others' pull p99 with a flood ≤ 2× without",
        `${msText(floodPull.p99)} / ${msText(steadyPull.p99)} ms = ${(floodPull.p99 / steadyPull.p99).toFixed(2)}×`,
        met(floodPull.p99 <= 2 * steadyPull.p99),
      ],
    ]).map((line) => `  ${line}`),
  );
  console.log(lines.join('\n'));
  const failed = exact > 0 || problems.pullGaps > 0 || problems.badResends > 0;
  if (failed) process.exitCode = 1;
}

main().then(
  () => {
    // better-auth leaves timers behind in no process here, but pools may linger: the figures are out.
    process.exit(process.exitCode ?? 0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
