import type { SourceSession } from '@docket/core/sources';
import { useCallback, useEffect, useState } from 'react';
import type { SessionListRequest } from '../import-worker/session-list-download.ts';
import { useAppServices } from '../services/app-services.ts';
import { loadSourceSessions } from './load-source-sessions.ts';

// The sessions a source lists for the state the add-dataset form names, asked once the state has
// stayed put for a moment (a jurisdiction is typed letter by letter, and each LegiScan request is
// a query of the key's month). A list once read is kept while the form is open, so going back to
// a state costs nothing; a failure is asked again only by "Try again".

export type SessionsState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'loaded'; sessions: readonly SourceSession[] }
  | { kind: 'failed'; message: string };

type Answer =
  | { kind: 'loaded'; sessions: readonly SourceSession[] }
  | { kind: 'failed'; message: string; attempt: number };

/** How long the state must stay as typed before its sessions are asked. */
export const PLACE_SETTLE_MS = 600;

function messageOf(error: unknown): string {
  return error instanceof Error && error.message !== ''
    ? error.message
    : 'The list of sessions could not be read.';
}

/** The sessions for `request` (null: nothing to ask yet) with the user's `key` (null: none
 *  saved; undefined: not read yet), and a way to ask again after a failure. */
export function useSourceSessions(
  request: SessionListRequest | null,
  key: string | null | undefined,
): { state: SessionsState; retry: () => void } {
  const { sourceFetcher } = useAppServices().platform;
  const [attempt, setAttempt] = useState(0);
  const [answers, setAnswers] = useState<ReadonlyMap<string, Answer>>(() => new Map());
  const source = request?.source ?? null;
  const place =
    request === null ? '' : request.source === 'legiscan' ? request.state : request.jurisdiction;
  const asked =
    source === null || typeof key !== 'string' ? null : JSON.stringify([source, place, key]);
  const answer = asked === null ? undefined : answers.get(asked);
  const settled = answer !== undefined && (answer.kind === 'loaded' || answer.attempt === attempt);
  const failedBefore = answer?.kind === 'failed';

  useEffect(() => {
    if (source === null || typeof key !== 'string' || asked === null || settled) return;
    const timer = setTimeout(
      () => {
        const ask: SessionListRequest =
          source === 'legiscan'
            ? { source, state: place }
            : { source: 'openstates', jurisdiction: place };
        const keep = (next: Answer) => {
          setAnswers((current) => new Map(current).set(asked, next));
        };
        loadSourceSessions(ask, key, sourceFetcher).then(
          (sessions) => {
            keep({ kind: 'loaded', sessions });
          },
          (error: unknown) => {
            keep({ kind: 'failed', message: messageOf(error), attempt });
          },
        );
      },
      // "Try again" asks at once; a state just typed waits to settle.
      failedBefore ? 0 : PLACE_SETTLE_MS,
    );
    return () => {
      clearTimeout(timer);
    };
  }, [source, place, key, asked, settled, failedBefore, attempt, sourceFetcher]);

  const retry = useCallback(() => {
    setAttempt((current) => current + 1);
  }, []);

  const state: SessionsState =
    asked === null
      ? { kind: 'idle' }
      : answer?.kind === 'loaded'
        ? answer
        : answer !== undefined && answer.attempt === attempt
          ? { kind: 'failed', message: answer.message }
          : { kind: 'loading' };
  return { state, retry };
}
