import type { Job, LocalStore } from '@docket/core/store';
import { appendTrace, type TraceInput } from '@docket/core/device';
import type { AppState, AppStore } from '../state/app-store.ts';

// The trace entries the app writes besides sync's own (sync/sync-service.ts): jobs ending,
// sign-in and sign-out, connectivity changes, uncaught errors. Writing the trace must never
// break what it describes, so every writer here swallows its own failure after logging it.

/** Trace kinds written by the app. Sync writes 'sync', 'sync-skip', 'sync-revert', 'sync-import' and
 * 'sync-hand-over'. */
export const traceKindsOfApp = {
  job: 'job',
  signIn: 'sign-in',
  signOut: 'sign-out',
  connectivity: 'connectivity',
  export: 'export',
  import: 'import',
  error: 'error',
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
 * `runImportJob({...}).then((job) => traceJobEnd(store, job))`; the backup actions and the
 * full-backup runner pass the job row as it stands once the job is over.
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

/** Longest message and stack kept from an error: a hostile or runaway text stays small. */
const ERROR_TEXT_MAX = 1000;
const ERROR_STACK_MAX = 4000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeReason(reason: unknown): { message: string; stack: string | null } {
  if (reason instanceof Error) {
    return {
      message: `${reason.name}: ${reason.message}`,
      stack: typeof reason.stack === 'string' ? reason.stack : null,
    };
  }
  if (typeof reason === 'string') return { message: reason, stack: null };
  try {
    // JSON.stringify gives undefined (whatever its type says) for undefined, functions and
    // symbols, which String() tells well enough.
    const json = JSON.stringify(reason) as string | undefined;
    return { message: json === undefined ? String(reason) : json, stack: null };
  } catch {
    // A cycle, a BigInt, or a getter that throws.
    return { message: Object.prototype.toString.call(reason), stack: null };
  }
}

/** Where a stack says the error was thrown: its first frame with a location, if any. */
function firstFrame(stack: string | null): string | null {
  if (stack === null) return null;
  const frame = stack
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^at\s|@/.test(line));
  return frame === undefined ? null : frame.replace(/^at\s+/, '');
}

/** The entry of an uncaught error (a window 'error' event). */
export function uncaughtErrorTraceInput(event: Event): TraceInput {
  // Read field by field: resource and synthetic events carry fewer fields than a script's.
  const fields = event as Partial<ErrorEvent>;
  const described = describeReason(fields.error);
  const message =
    typeof fields.message === 'string' && fields.message !== ''
      ? fields.message
      : fields.error === undefined || fields.error === null
        ? 'Unknown error'
        : described.message;
  const source =
    typeof fields.filename === 'string' && fields.filename !== ''
      ? `${fields.filename}:${String(fields.lineno ?? 0)}:${String(fields.colno ?? 0)}`
      : (firstFrame(described.stack) ?? 'unknown');
  return {
    kind: traceKindsOfApp.error,
    durationMs: null,
    details: {
      event: 'error',
      message: clip(message, ERROR_TEXT_MAX),
      source: clip(source, ERROR_TEXT_MAX),
      ...(described.stack === null ? {} : { stack: clip(described.stack, ERROR_STACK_MAX) }),
    },
  };
}

/** The entry of a promise rejected with nobody to handle it (an 'unhandledrejection' event). */
export function unhandledRejectionTraceInput(event: Event): TraceInput {
  const { message, stack } = describeReason((event as Partial<PromiseRejectionEvent>).reason);
  return {
    kind: traceKindsOfApp.error,
    durationMs: null,
    details: {
      event: 'unhandledrejection',
      message: clip(message, ERROR_TEXT_MAX),
      source: clip(firstFrame(stack) ?? 'unknown', ERROR_TEXT_MAX),
      ...(stack === null ? {} : { stack: clip(stack, ERROR_STACK_MAX) }),
    },
  };
}

/** Error entries written per window; the rest are counted and told in the next one written. */
export const ERROR_TRACE_LIMIT = { perWindow: 5, windowMs: 1000 } as const;

/**
 * Lets at most `perWindow` errors through per `windowMs`, so an error thrown in a loop (a
 * render, a timer) fills neither the trace, which would push out everything else, nor the
 * disk with writes. Returns the errors dropped since the last one let through, or null to drop.
 */
export function errorTraceLimiter(
  limit: { perWindow: number; windowMs: number } = ERROR_TRACE_LIMIT,
): (nowMs: number) => { dropped: number } | null {
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  let dropped = 0;
  return (nowMs) => {
    if (nowMs - windowStart >= limit.windowMs) {
      windowStart = nowMs;
      inWindow = 0;
    }
    if (inWindow >= limit.perWindow) {
      dropped++;
      return null;
    }
    inWindow++;
    const told = dropped;
    dropped = 0;
    return { dropped: told };
  };
}

/**
 * Follows the app state (sign-in, sign-out), the browser's connectivity events, and uncaught
 * errors and unhandled rejections, and writes them to the trace until the returned function is
 * called. For app-startup.tsx, after the first commit:
 * `startTraceWatchers(appStore, window, pageLocalStore)`.
 */
export function startTraceWatchers(
  appStore: AppStore,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  /** The store to write to; null while there is none (no account signed in). */
  store: () => Promise<LocalStore | null>,
  options: { now?: () => number } = {},
): () => void {
  const now = options.now ?? Date.now;
  const write = (input: TraceInput) => {
    store()
      .then((local) => (local === null ? undefined : writeTrace(local, input)))
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
  const letThrough = errorTraceLimiter();
  const traceError = (input: TraceInput) => {
    const passed = letThrough(now());
    if (passed === null) return;
    write(
      passed.dropped === 0
        ? input
        : { ...input, details: { ...input.details, droppedBefore: passed.dropped } },
    );
  };
  // Listening only: the browser still logs the error and error reporting still sees it.
  const uncaught = (event: Event) => {
    traceError(uncaughtErrorTraceInput(event));
  };
  const unhandled = (event: Event) => {
    traceError(unhandledRejectionTraceInput(event));
  };
  target.addEventListener('offline', offline);
  target.addEventListener('online', online);
  target.addEventListener('error', uncaught);
  target.addEventListener('unhandledrejection', unhandled);
  return () => {
    unsubscribe();
    target.removeEventListener('offline', offline);
    target.removeEventListener('online', online);
    target.removeEventListener('error', uncaught);
    target.removeEventListener('unhandledrejection', unhandled);
  };
}
