import {
  cancelIdleJob,
  datasetsNeedingImport,
  deleteDataset,
  markInterruptedJobs,
  type PickedDatasetFile,
  queueRefresh,
  queueSyncedImport,
  refreshable,
  requestResume,
  requestRetry,
  saveDatasetAndQueueImport,
} from '@docket/core/commands';
import { type ImportInput, runImportJob } from '@docket/core/import-jobs';
import { parseBillType, parseCongress, parseLegiscanSessionId } from '@docket/core/sources';
import {
  fetchRefreshedVersions,
  recordRefreshedTextFailures,
  refreshedVersionsToFetch,
} from '@docket/core/text';
import { loadDatasetInput } from './dataset-input.ts';
import {
  downloadFailure,
  downloadSource,
  type SourceFetch,
  type SourceRequest,
} from './source-download.ts';
import type { Dataset, Job, LocalStore } from '@docket/core/store';
import { defaultImportLimits } from '@docket/core/encoding';
import { traceJobEnd } from '../trace/trace-events.ts';
import type { JobLocks } from './job-locks.ts';
import { IMPORTS_LOCK, jobLockName } from './job-locks.ts';
import { type GetTextDeps, getVersionText } from './version-text-download.ts';

// What the import worker does, written against injected platform pieces (store, fetch, locks,
// hashing, a channel to the other tabs) so it runs the same in the worker and in unit tests.

/** A file picked in the form: the name to keep (its path inside a picked folder) and its data. */
export interface PickedFile {
  name: string;
  blob: Blob;
}

export interface SaveDatasetRequest {
  /** Absent for a new dataset. */
  datasetId?: string;
  name: string;
  /** 'legiscan': the bills come from LegiScan's API (the state and session below), not from the
   *  files or the URL. */
  sourceKind?: 'files-or-url' | 'legiscan' | 'openstates' | 'govinfo' | 'congress';
  url: string;
  legiscanState?: string;
  legiscanSession?: string;
  openstatesJurisdiction?: string;
  openstatesSession?: string;
  /** GovInfo's bulk data and the congress.gov API: the Congress and the bill type, as typed. */
  congress?: string;
  billType?: string;
  jurisdiction: string;
  session: string;
  /** Empty when editing a dataset without picking new files. */
  files: readonly PickedFile[];
}

export interface ImportRunnerApi {
  /** Marks jobs that no open tab is working on as interrupted; returns how many. */
  recoverInterrupted(): Promise<number>;
  /** Stores the dataset with its files and a queued job, then starts the job. Resolves once
   *  everything is stored (not when the import ends). */
  saveAndImport(request: SaveDatasetRequest): Promise<{ datasetId: string; jobId: string }>;
  /** Queues and runs the imports sync asked for (datasets from other devices); returns how
   *  many it started. */
  importSynced(): Promise<number>;
  /** Queues and starts a refresh of a dataset from a URL or an API; refuses, saying why, for one
   *  of picked files. */
  refresh(datasetId: string): Promise<{ jobId: string }>;
  /** Refreshes every dataset from a URL or an API that is not importing now; returns the jobs
   *  started. With `staleBefore` (an automatic refresh), only those last looked at (imported or
   *  refreshed, changed or not) before that time. */
  refreshAll(options?: { readonly staleBefore?: string }): Promise<{ jobIds: string[] }>;
  resume(jobId: string): Promise<void>;
  retry(jobId: string): Promise<void>;
  cancel(jobId: string): Promise<void>;
  /** Deletes a dataset here and, through sync, on the other devices; refused while it imports. */
  deleteDataset(
    datasetId: string,
  ): Promise<{ name: string; billsRemoved: number; billsKept: number }>;
}

/** Messages between the runners of different tabs. */
export interface ControlChannel {
  post(message: { type: 'cancel'; jobId: string }): void;
  listen(onMessage: (message: { type: 'cancel'; jobId: string }) => void): void;
}

/**
 * Why a refresh does not read a PDF version itself: pdf.js, started from the import worker (a
 * worker of its own inside this one), never answered in Chromium, which would leave the refresh's
 * text fetch waiting for good. On the page, "Get text" reads it.
 */
export const PDF_ON_THE_PAGE = 'a PDF is read when you choose "Get text" on the bill';

/**
 * How the import worker cuts its writes into transactions: at most 5,000 records each, and closed
 * after a second of reading, so progress moves every second while fast input pays for few
 * commits. Measured on 50,000 bills written straight into `bills` (bench/README.md,
 * 2026-11-25): 1.84 times the bare write with chunks closed after half a second, 1.82 times
 * after a second; the two cores, both busy, are what holds it back, not the chunking.
 */
export const WORKER_IMPORT_CHUNKS = { chunkSize: 5_000, chunkMillis: 1_000 } as const;

/**
 * Settles once the event loop has run: a message through a fresh channel is a macrotask without
 * the 4 ms a nested setTimeout waits. The import awaits it every few milliseconds of reading, so
 * IndexedDB can hand back the chunk written meanwhile and commit it (RunImportJobOptions).
 */
export function eventLoopBreak(): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

export interface ImportRunnerDeps {
  store: LocalStore;
  locks: JobLocks;
  fetch: SourceFetch;
  sha256Hex: (bytes: Uint8Array<ArrayBuffer>) => Promise<string>;
  newId: () => string;
  now: () => string;
  /** This device's id (device-identity.ts), the author of dataset definitions' sync changes. */
  deviceId: () => Promise<string>;
  channel?: ControlChannel;
  /** Sends a download to the Docket server's relay (source-download.ts); absent: no relay. */
  relay?: (request: SourceRequest) => Promise<Response>;
  /** Reads a PDF text version a refresh brought; absent: refused with words (PDF_ON_THE_PAGE). */
  readPdf?: GetTextDeps['readPdf'];
  /** Records per chunk transaction, at most. */
  chunkSize?: number;
  /** A chunk transaction also closes after this much reading (RunImportJobOptions). */
  chunkMillis?: number;
  onError?: (error: unknown) => void;
}

/** The bytes behind a URL, downloaded whole (no validators, no relay): what a first import of
 *  it needs, and an error that says plainly why there are none. */
export async function downloadDataset(
  url: string,
  deps: Pick<ImportRunnerDeps, 'fetch' | 'sha256Hex'>,
  maxBytes = defaultImportLimits.maxFileBytes,
): Promise<ImportInput> {
  const input = await downloadSource(
    { url, etag: null, lastModified: null },
    { ...deps, relay: null },
    maxBytes,
  );
  if ('unchanged' in input) throw downloadFailure(url, 'the server answered 304 Not Modified');
  return input;
}

/** The Congress and bill type of a GovInfo or congress.gov dataset, as the form checked them. */
function congressAndType(request: SaveDatasetRequest): { congress: number; billType: string } {
  return {
    congress: parseCongress(request.congress ?? '') ?? 0,
    billType: parseBillType(request.billType ?? '') ?? '',
  };
}

/** Where a saved dataset's bills come from, as core's saveDatasetAndQueueImport takes it. */
export type SavedDatasetSource = Parameters<typeof saveDatasetAndQueueImport>[1]['source'];

/**
 * The source a saved dataset names: the API the form chose, else the files picked, else the URL
 * typed, else (an edit that picked and typed nothing) what the dataset already has.
 */
export function savedDatasetSource(
  request: SaveDatasetRequest,
  files: readonly PickedDatasetFile[],
): SavedDatasetSource {
  const url = request.url.trim();
  const legiscanSession = parseLegiscanSessionId(request.legiscanSession ?? '');
  return request.sourceKind === 'legiscan'
    ? {
        kind: 'legiscan',
        state: (request.legiscanState ?? '').trim().toUpperCase(),
        sessionId: legiscanSession ?? 0,
      }
    : request.sourceKind === 'openstates'
      ? {
          kind: 'openstates',
          jurisdiction: request.openstatesJurisdiction ?? '',
          session: request.openstatesSession ?? '',
        }
      : request.sourceKind === 'govinfo' || request.sourceKind === 'congress'
        ? request.sourceKind === 'govinfo'
          ? { kind: 'govinfo', ...congressAndType(request) }
          : { kind: 'congress', ...congressAndType(request) }
        : files.length > 0
          ? { kind: 'files', files }
          : url !== ''
            ? { kind: 'url', url }
            : { kind: 'unchanged' };
}

/**
 * Whether an automatic refresh (`staleBefore`) skips a dataset looked at since then: imported, or
 * its last job finished, at or after that time. Without `staleBefore` no dataset is fresh.
 */
export function lookedAtSince(
  dataset: Pick<Dataset, 'lastImportAt' | 'lastJobId'>,
  lastJobOf: ReadonlyMap<string, Pick<Job, 'finishedAt'>>,
  staleBefore: string | undefined,
): boolean {
  if (staleBefore === undefined) return false;
  const lastJob = dataset.lastJobId === null ? undefined : lastJobOf.get(dataset.lastJobId);
  const looked = [dataset.lastImportAt, lastJob?.finishedAt ?? null].filter(
    (at): at is string => at !== null,
  );
  return looked.some((at) => at >= staleBefore);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** What a runner's functions share: its platform pieces, the jobs it holds and the ones it
 *  watches for another context to let go, and where a failure is reported. */
interface ImportRunnerState {
  readonly deps: ImportRunnerDeps;
  readonly store: LocalStore;
  readonly locks: JobLocks;
  /** Jobs this runner holds, queued or running, with the switch that cancels each. */
  readonly active: Map<string, AbortController>;
  /** Jobs of other contexts whose lock this runner waits for (watchUntilReleased). */
  readonly watched: Set<string>;
  readonly report: (error: unknown) => void;
}

/**
 * The text of each new version a refresh brought to a tracked bill, fetched as "Get text" does
 * (core's text/refreshed-versions.ts: a few at a time, at most 20), so a highlight made on the
 * version before is drawn on it. A version that cannot be fetched is listed among the job's
 * errors; the refresh stays done.
 */
async function fetchRefreshedTexts(deps: ImportRunnerDeps, job: Job): Promise<void> {
  const { store } = deps;
  if ((job.result?.changed ?? 0) === 0) return;
  const versions = await refreshedVersionsToFetch(store, job);
  if (versions.length === 0) return;
  const textDeps: GetTextDeps = {
    store,
    fetch: deps.fetch,
    relay: deps.relay ?? null,
    now: deps.now,
    readPdf: deps.readPdf ?? (() => Promise.reject(new Error(PDF_ON_THE_PAGE))),
  };
  const failures = await fetchRefreshedVersions(versions, (version) =>
    getVersionText(version, textDeps, () => undefined),
  );
  await recordRefreshedTextFailures(store, job.id, failures);
}

/** Runs a queued job while its job lock is held: waits its turn, then imports. */
async function runHeld(
  state: ImportRunnerState,
  jobId: string,
  controller: AbortController,
): Promise<void> {
  const { deps, store, report } = state;
  let ended = null as Job | null;
  try {
    await state.locks.hold(
      IMPORTS_LOCK,
      () =>
        runImportJob({
          store,
          jobId,
          loadInput: (dataset, progress) => loadDatasetInput(deps, dataset, progress),
          now: deps.now,
          signal: controller.signal,
          ...(deps.chunkSize === undefined ? {} : { chunkSize: deps.chunkSize }),
          ...(deps.chunkMillis === undefined
            ? {}
            : { chunkMillis: deps.chunkMillis, chunkClock: () => Date.now(), eventLoopBreak }),
        }).then(async (job) => {
          ended = job;
          await traceJobEnd(store, job);
        }),
      controller.signal,
    );
  } catch (error) {
    if (isAbort(error)) await cancelIdleJob(store, jobId, deps.now());
    // A job that waited its turn while its dataset was deleted (with its jobs) has nothing left
    // to do.
    else if (await jobGone(store, jobId)) return;
    else report(error);
  } finally {
    state.active.delete(jobId);
  }
  // After the imports lock is let go: the next import need not wait for the texts.
  if (ended !== null) await fetchRefreshedTexts(deps, ended).catch(report);
  // Sync may have changed a dataset while this ran (queueSyncedImport waits for a running
  // import): its import starts now, not at some later sync run. Queued marks are cleared, so
  // this ends once nothing is marked or every marked dataset still lacks files.
  await importSynced(state).catch(report);
}

/** Whether the job's row is gone (its dataset deleted with its jobs). */
async function jobGone(store: LocalStore, jobId: string): Promise<boolean> {
  return (await store.read(['jobs'], (tx) => tx.get('jobs', jobId))) === undefined;
}

/** Queues and runs the imports sync asked for; returns how many it started. */
async function importSynced(state: ImportRunnerState): Promise<number> {
  const { deps, store } = state;
  let started = 0;
  for (const datasetId of await datasetsNeedingImport(store)) {
    const jobId = deps.newId();
    const job = await queue(state, jobId, () =>
      queueSyncedImport(store, { datasetId, jobId, now: deps.now() }),
    );
    if (job !== null) started++;
  }
  return started;
}

/**
 * Takes the job's lock, does `prepare` (which queues the job) and then runs it; resolves as
 * soon as `prepare` is done. The lock is taken first so no other tab can think the job dead.
 */
function queue<T>(state: ImportRunnerState, jobId: string, prepare: () => Promise<T>): Promise<T> {
  const { active } = state;
  const controller = new AbortController();
  // Counted as alive from here on, so a start-up check running meanwhile leaves it alone.
  active.set(jobId, controller);
  return new Promise<T>((resolve, reject) => {
    state.locks
      .hold(jobLockName(jobId), async () => {
        let prepared: T;
        try {
          prepared = await prepare();
        } catch (error) {
          active.delete(jobId);
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        resolve(prepared);
        // Null: there was nothing to queue (queueSyncedImport), so nothing to run.
        if (prepared === null) active.delete(jobId);
        else await runHeld(state, jobId, controller);
      })
      .catch((error: unknown) => {
        reject(error instanceof Error ? error : new Error(String(error)));
      });
  });
}

/** Waits for another context's job lock; once it is free the job is interrupted, unless it
 *  finished or this runner has taken it up meanwhile. */
function watchUntilReleased(state: ImportRunnerState, jobId: string): void {
  const { watched, report } = state;
  if (watched.has(jobId)) return;
  watched.add(jobId);
  state.locks
    .hold(jobLockName(jobId), async () => {
      if (state.active.has(jobId)) return;
      const marked = await markInterruptedJobs(state.store, {
        now: state.deps.now(),
        isAlive: (id) => id !== jobId,
      });
      // An import sync asked for is asked for again (core's markInterruptedJobs).
      if (marked.some((job) => job.queuedBy === 'sync')) void importSynced(state).catch(report);
    })
    .catch(report)
    .finally(() => {
      watched.delete(jobId);
    });
}

/** The picked files' bytes, each named by its hash. */
async function readFiles(
  files: readonly PickedFile[],
  sha256Hex: ImportRunnerDeps['sha256Hex'],
): Promise<PickedDatasetFile[]> {
  const picked: PickedDatasetFile[] = [];
  // A few at a time: reading and hashing overlap, without holding every file twice at once.
  for (let start = 0; start < files.length; start += 16) {
    picked.push(
      ...(await Promise.all(
        files.slice(start, start + 16).map(async (file) => {
          const bytes = new Uint8Array(await file.blob.arrayBuffer());
          return { id: await sha256Hex(bytes), name: file.name, bytes };
        }),
      )),
    );
  }
  return picked;
}

/** ImportRunnerApi.recoverInterrupted: marks the jobs nobody holds, watches the ones another
 *  context holds. */
async function recoverInterrupted(state: ImportRunnerState): Promise<number> {
  const { store, active } = state;
  const alive = await state.locks.names();
  const marked = await markInterruptedJobs(store, {
    now: state.deps.now(),
    isAlive: (jobId) => active.has(jobId) || alive.has(jobLockName(jobId)),
  });
  // The rest belong to another context, or to a page that is still being torn down (a
  // reload can start this worker before the old one has let go of its locks).
  const unfinished = await store.read(['jobs'], async (tx) => [
    ...(await tx.where('jobs', 'status', 'running')),
    ...(await tx.where('jobs', 'status', 'queued')),
  ]);
  for (const job of unfinished) if (!active.has(job.id)) watchUntilReleased(state, job.id);
  return marked.length;
}

/** ImportRunnerApi.saveAndImport: the dataset, its files and a queued job stored, the job run. */
async function saveAndImport(
  state: ImportRunnerState,
  request: SaveDatasetRequest,
): Promise<{ datasetId: string; jobId: string }> {
  const { deps } = state;
  const datasetId = request.datasetId ?? deps.newId();
  const jobId = deps.newId();
  // Hashing reads the files, which cannot happen inside the store's transaction.
  const files = await readFiles(request.files, deps.sha256Hex);
  const deviceId = await deps.deviceId();
  await queue(state, jobId, () =>
    saveDatasetAndQueueImport(state.store, {
      datasetId,
      name: request.name,
      jurisdiction: request.jurisdiction,
      session: request.session,
      source: savedDatasetSource(request, files),
      jobId,
      now: deps.now(),
      deviceId,
    }),
  );
  return { datasetId, jobId };
}

/** The datasets, the jobs queued or running, and each dataset's last job: what refreshAll
 *  chooses from. */
function readRefreshCandidates(store: LocalStore) {
  return store.read(['datasets', 'jobs'], async (tx) => {
    const all = await tx.all('datasets');
    const lastJobIds = all.flatMap((dataset) =>
      dataset.lastJobId === null ? [] : [dataset.lastJobId],
    );
    return [
      all,
      [
        ...(await tx.where('jobs', 'status', 'running')),
        ...(await tx.where('jobs', 'status', 'queued')),
      ],
      await tx.getMany('jobs', lastJobIds),
    ] as const;
  });
}

/** ImportRunnerApi.refreshAll: a refresh queued and started for each dataset that is due. */
async function refreshAll(
  state: ImportRunnerState,
  options: { readonly staleBefore?: string },
): Promise<{ jobIds: string[] }> {
  const { deps, store } = state;
  const [datasets, running, lastJobs] = await readRefreshCandidates(store);
  const busy = new Set(running.map((job) => job.subjectId));
  const lastJobOf = new Map(
    lastJobs.flatMap((job) => (job === undefined ? [] : [[job.id, job] as const])),
  );
  const { staleBefore } = options;
  const jobIds: string[] = [];
  for (const dataset of datasets) {
    if (
      !refreshable(dataset) ||
      busy.has(dataset.id) ||
      lookedAtSince(dataset, lastJobOf, staleBefore)
    ) {
      continue;
    }
    const jobId = deps.newId();
    await queue(state, jobId, () =>
      queueRefresh(store, { datasetId: dataset.id, jobId, now: deps.now() }),
    );
    jobIds.push(jobId);
  }
  return { jobIds };
}

/** ImportRunnerApi.cancel: this runner's job aborted, another context's told to stop, or an
 *  idle one marked cancelled. */
async function cancel(state: ImportRunnerState, jobId: string): Promise<void> {
  const mine = state.active.get(jobId);
  if (mine) {
    mine.abort();
    return;
  }
  const alive = await state.locks.names();
  if (alive.has(jobLockName(jobId))) {
    state.deps.channel?.post({ type: 'cancel', jobId });
    return;
  }
  await cancelIdleJob(state.store, jobId, state.deps.now());
}

export function createImportRunner(deps: ImportRunnerDeps): ImportRunnerApi {
  const { store } = deps;
  const state: ImportRunnerState = {
    deps,
    store,
    locks: deps.locks,
    active: new Map(),
    watched: new Set(),
    report:
      deps.onError ??
      ((error: unknown) => {
        console.error('[docket] Import job failed:', error);
      }),
  };

  deps.channel?.listen((message) => {
    state.active.get(message.jobId)?.abort();
  });

  return {
    recoverInterrupted: () => recoverInterrupted(state),

    saveAndImport: (request) => saveAndImport(state, request),

    importSynced: () => importSynced(state),

    async refresh(datasetId) {
      const jobId = deps.newId();
      await queue(state, jobId, () => queueRefresh(store, { datasetId, jobId, now: deps.now() }));
      return { jobId };
    },

    async deleteDataset(datasetId) {
      const deviceId = await deps.deviceId();
      return deleteDataset(store, { datasetId, deviceId, now: deps.now() });
    },

    refreshAll: (options = {}) => refreshAll(state, options),

    async resume(jobId) {
      await queue(state, jobId, () => requestResume(store, jobId));
    },

    async retry(jobId) {
      await queue(state, jobId, () => requestRetry(store, jobId));
    },

    cancel: (jobId) => cancel(state, jobId),
  };
}
