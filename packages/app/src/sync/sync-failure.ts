import { SyncEngineError } from '@docket/core/sync';
import { ApiRequestError } from '../api/api-client.ts';
import type { SyncView } from './sync-runner-types.ts';

// What a failed sync run means for the next one (the runner, sync-runner.ts, acts on it): whether
// another try could mend it, when that try comes, and what the user and the trace are told of it.
// A retry comes after a back-off of 2 s doubling to 5 min, each with ±50 % jitter so that devices
// do not retry in step. A failure that another try cannot mend (a tampered or unreadable change,
// a change too large to send, a clock far off, a server on another protocol version, any refusal
// of the request itself) stops the retries and says so.

const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 5 * 60 * 1000;

/** How long before the n-th retry (n from 0), with jitter. */
export function retryDelay(attempt: number, random: () => number): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 20));
  return Math.round(base * (0.5 + random()));
}

/** 4xx answers that mean "later", not "never": a timeout, too early, too many requests. */
const TRANSIENT_CLIENT_ERRORS: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * Whether another try could not mend the failure: a tampered change will be tampered again, and
 * a server that refused the request itself (426 another protocol version, 413 too large, 400,
 * 409 a batch conflict…) refuses the same request again. 401 and the epoch change are handled
 * before this is asked.
 */
function isPermanent(error: unknown): boolean {
  if (error instanceof SyncEngineError) return error.code !== 'epoch-mismatch';
  return (
    error instanceof ApiRequestError &&
    error.status !== null &&
    error.status >= 400 &&
    error.status < 500 &&
    !TRANSIENT_CLIENT_ERRORS.has(error.status) &&
    error.code !== 'epoch-mismatch'
  );
}

export const FOREIGN_DATA =
  'This device holds work synced with another account, so it does not sync it into this one. "Start afresh" saves that work as a full backup and brings this account\'s data instead; or sign out and sign in with the other account.';

function isEpochChange(error: unknown): boolean {
  return (
    (error instanceof SyncEngineError && error.code === 'epoch-mismatch') ||
    (error instanceof ApiRequestError && error.code === 'epoch-mismatch')
  );
}

export function messageOf(error: unknown): string {
  if (error instanceof SyncEngineError || error instanceof ApiRequestError) return error.message;
  return 'Sync failed for a reason this app did not expect. It tries again by itself.';
}

/** What the trace says of a failure: the message, and the code and row when there are. */
export function failureDetails(error: unknown): Record<string, unknown> {
  const code =
    error instanceof SyncEngineError || error instanceof ApiRequestError ? error.code : null;
  const status = error instanceof ApiRequestError ? error.status : null;
  const entry = error instanceof SyncEngineError ? error.entry : null;
  return {
    error: messageOf(error),
    ...(code === null ? {} : { code }),
    ...(status === null ? {} : { status }),
    ...(entry === null ? {} : { table: entry.table, rowId: entry.rowId, entryId: entry.id }),
  };
}

/** What follows a failed run: a view that waits (offline, or stopped), one more run, or a retry. */
export type FailureStep =
  | { readonly step: 'show'; readonly view: SyncView }
  | { readonly step: 'run-again' }
  | { readonly step: 'retry'; readonly message: string; readonly retryAfterMs: number | null };

/**
 * What follows a failed run. `firstTry`: no run has failed since the last success or "Sync now",
 * so an epoch change gets one more run (which reads the new settings and asks for the password).
 */
export function afterFailure(
  error: unknown,
  at: { readonly online: boolean; readonly firstTry: boolean },
): FailureStep {
  if (!at.online) {
    // The connection went while the run was out: that is why it failed. Offline is what the
    // user is told, and coming back online runs again (the runner's setOnline).
    return { step: 'show', view: { kind: 'offline' } };
  }
  if (error instanceof ApiRequestError && error.status === 401) {
    return { step: 'show', view: { kind: 'error', message: error.message, retryAt: null } };
  }
  // The password was reset elsewhere: the next run reads the new settings and asks.
  if (isEpochChange(error) && at.firstTry) return { step: 'run-again' };
  if (isPermanent(error)) {
    const seqno = error instanceof SyncEngineError ? error.seqno : null;
    const entry = error instanceof SyncEngineError ? error.entry : null;
    return {
      step: 'show',
      view: {
        kind: 'error',
        message: `${messageOf(error)} Sync stopped; "Sync now" tries again.`,
        retryAt: null,
        ...(seqno === null ? {} : { skippable: seqno }),
        ...(entry === null ? {} : { unsendable: entry.id }),
      },
    };
  }
  return {
    step: 'retry',
    message: messageOf(error),
    retryAfterMs: error instanceof ApiRequestError ? error.retryAfterMs : null,
  };
}
