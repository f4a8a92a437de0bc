import type { Job } from '@docket/core/local-records';
import type { LocalStore } from '@docket/core/local-store';
import { appendTrace, type TraceInput } from '@docket/core/trace-log';
import type { AppState, AppStore } from '../state/app-store.ts';

// The trace entries the app writes besides sync's own (sync/sync-service.ts): jobs ending,
// sign-in and sign-out, connectivity changes. Writing the trace must never break what it
// describes, so every writer here swallows its own failure after logging it.

/** Trace kinds written by the app. Sync writes 'sync', 'sync-skip', 'sync-revert', 'sync-import' and
 * 'sync-hand-over'. */
export const traceKindsOfApp = {
  job: 'job',
  signIn: 'sign-in',
  signOut: 'sign-out',
  connectivity: 'connectivity',
  export: 'export',
  import: 'import',
} as const;

/** Appends an entry; a failure is logged, never thrown. */
export async function writeTrace(store: LocalStore, input: TraceInput): Promise<void> {
  try {
    await appendTrace(store, input, Date.now());
  } catch (error) {
    console.error('[docket] Could not write the trace:', error);
  }
}

/** The entry of a job that has ended (done, failed, cancelled); other states write nothing. */
export function jobTraceInput(job: Job): TraceInput | null {
  if (job.status === 'queued' || job.status === 'running') return null;
  const started = job.startedAt === null ? null : Date.parse(job.startedAt);
  const finished = job.finishedAt === null ? null : Date.parse(job.finishedAt);
  const firstError = job.errors[0];
  return {
    kind: traceKindsOfApp.job,
    durationMs:
      started === null || finished === null || Number.isNaN(started) || Number.isNaN(finished)
        ? null
        : Math.max(0, finished - started),
    details: {
      job: job.kind,
      status: job.status,
      jobId: job.id,
      subject: job.label ?? job.subjectId,
      read: job.progress.recordsRead,
      written: job.progress.written,
      skipped: job.progress.skipped,
      ...(job.result === null ? {} : job.result),
      ...(job.message === null ? {} : { message: job.message }),
      ...(firstError === undefined
        ? {}
        : {
            errors: Math.max(job.errors.length, job.progress.skipped),
            firstError: `${firstError.record === null ? '' : `${firstError.record}: `}${firstError.reason}`,
          }),
    },
  };
}

/**
 * Records a job that ended. For the import runner (jobs/import-runner.ts):
 * `runImportJob({...}).then((job) => traceJobEnd(store, job))`.
 */
export async function traceJobEnd(store: LocalStore, job: Job): Promise<Job> {
  const input = jobTraceInput(job);
  if (input !== null) await writeTrace(store, input);
  return job;
}

/** Sign-in and sign-out entries for a change of the app state, once startup has settled. */
export function authTraceInputs(before: AppState, after: AppState): TraceInput[] {
  // Before startup settles, the user appearing is a session being restored, not a sign-in.
  if (!before.ready) return [];
  const was = before.user;
  const is = after.user;
  if (was?.id === is?.id) return [];
  const inputs: TraceInput[] = [];
  if (was !== null) {
    inputs.push({ kind: traceKindsOfApp.signOut, durationMs: null, details: { email: was.email } });
  }
  if (is !== null) {
    inputs.push({ kind: traceKindsOfApp.signIn, durationMs: null, details: { email: is.email } });
  }
  return inputs;
}

/**
 * Follows the app state (sign-in, sign-out) and the browser's connectivity events and writes
 * them to the trace, until the returned function is called. For app-startup.tsx, after the
 * first commit: `startTraceWatchers(appStore, window, pageLocalStore)`.
 */
export function startTraceWatchers(
  appStore: AppStore,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  store: () => Promise<LocalStore>,
): () => void {
  const write = (input: TraceInput) => {
    store()
      .then((local) => writeTrace(local, input))
      .catch((error: unknown) => {
        console.error('[docket] Could not write the trace:', error);
      });
  };
  let state = appStore.get();
  const unsubscribe = appStore.subscribe(() => {
    const next = appStore.get();
    for (const input of authTraceInputs(state, next)) write(input);
    state = next;
  });
  let offlineSince: number | null = null;
  const offline = () => {
    offlineSince = Date.now();
    write({ kind: traceKindsOfApp.connectivity, durationMs: null, details: { online: false } });
  };
  const online = () => {
    const since = offlineSince;
    offlineSince = null;
    write({
      kind: traceKindsOfApp.connectivity,
      // How long the device was offline, when this page saw it go.
      durationMs: since === null ? null : Date.now() - since,
      details: { online: true },
    });
  };
  target.addEventListener('offline', offline);
  target.addEventListener('online', online);
  return () => {
    unsubscribe();
    target.removeEventListener('offline', offline);
    target.removeEventListener('online', online);
  };
}
