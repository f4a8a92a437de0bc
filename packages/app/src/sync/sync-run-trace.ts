import type { SyncRunReport } from '@docket/core/sync';
import type { TraceInput } from '@docket/core/device';
import { failureDetails } from './sync-failure.ts';

/** How a run ended, for its trace entry. */
export type RunEnd =
  | { readonly outcome: 'done'; readonly report: SyncRunReport }
  /** `report` is what it did before it failed; null when it failed before syncing anything. */
  | { readonly outcome: 'failed'; readonly error: unknown; readonly report: SyncRunReport | null }
  | { readonly outcome: 'needs-password'; readonly mode: 'set' | 'enter' }
  /** The terms of service wait for the user's acceptance. */
  | { readonly outcome: 'needs-terms' }
  /** This device holds another account's work (the "Start afresh" repair). */
  | { readonly outcome: 'other-account' }
  /** The user signed out or changed while the run started. */
  | { readonly outcome: 'abandoned' };

/**
 * The run's one 'sync' trace entry, whichever way it ended: the outcome, what it moved (also
 * when it failed midway) and, for a failure, why.
 */
export function runTraceEntry(end: RunEnd, durationMs: number): TraceInput {
  const report = end.outcome === 'done' || end.outcome === 'failed' ? end.report : null;
  return {
    kind: 'sync',
    durationMs,
    details: {
      outcome: end.outcome,
      ...(end.outcome === 'needs-password' ? { password: end.mode } : {}),
      ...(report === null
        ? {}
        : {
            pushed: report.pushed,
            pulled: report.pulled,
            rowsChanged: report.rowsChanged,
            bytesUp: report.bytesUp,
            bytesDown: report.bytesDown,
            cryptoMs: Math.round(report.cryptoMs),
            latestSeqno: report.latestSeqno,
            filesUp: report.filesUp,
            filesDown: report.filesDown,
            ...(report.fileProblems.length === 0 ? {} : { fileProblems: report.fileProblems }),
          }),
      ...(end.outcome === 'failed' ? failureDetails(end.error) : {}),
    },
  };
}
