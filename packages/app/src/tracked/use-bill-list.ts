import { proxy } from 'comlink';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { BillListQuery, BillListRow, DecisionFilter } from '@docket/core/lists';
import { billSearch } from '../search-worker/bill-search-client.ts';
import type { IndexStatus } from '../search-worker/bill-search-service.ts';

// The tracked list's data: the worker answers a query with a count and the first rows, and the
// list asks for more rows as they scroll into view, a chunk at a time. Only what is on screen
// crosses from the worker, so 50,000 matching bills cost no more than 50.

const FIRST_ROWS = 60;
const CHUNK = 60;

export interface BillList {
  /** Undefined until the first answer. */
  readonly total: number | undefined;
  readonly resultId: number | null;
  readonly status: IndexStatus | null;
  readonly jurisdictions: readonly string[];
  readonly sessions: readonly string[];
  /** How many bills each triage list holds; null until the first answer. */
  readonly decisionCounts: Readonly<Record<DecisionFilter, number>> | null;
  /** The name of the person of the sponsor filter: undefined until the answer to this query,
   *  null when no bill held names them. */
  readonly sponsorName?: string | null | undefined;
  /** The row at a place: undefined while it loads, null when the bill has gone. */
  readonly row: (index: number) => BillListRow | null | undefined;
  /** Asks for the rows of a range the list shows. */
  readonly load: (start: number, end: number) => void;
  /** Every bill id of the current result. */
  readonly allIds: () => Promise<string[]>;
  readonly error: string | null;
}

interface Answer {
  readonly resultId: number;
  readonly total: number;
  readonly jurisdictions: readonly string[];
  readonly sessions: readonly string[];
  readonly decisionCounts: Readonly<Record<DecisionFilter, number>>;
  readonly sponsor: { readonly key: string | null; readonly name: string | null };
  readonly rows: Map<number, BillListRow | null>;
}

/** Says what went wrong in words, or null once the list answers again. */
type ErrorSetter = (error: string | null) => void;

/** The search worker's indexing progress, watched while the list is shown. */
function useIndexStatus(setError: ErrorSetter): IndexStatus | null {
  const [status, setStatus] = useState<IndexStatus | null>(null);
  useEffect(() => {
    const search = billSearch();
    let watchId: number | null = null;
    let gone = false;
    search
      .watch(
        proxy((next: IndexStatus) => {
          if (!gone) setStatus(next);
        }),
      )
      .then(async (id) => {
        watchId = id;
        if (gone) await search.unwatch(id);
      })
      .catch((cause: unknown) => {
        console.error('[docket] The search worker did not start:', cause);
        setError('Search is not available in this browser. Reload the page to try again.');
      });
    return () => {
      gone = true;
      if (watchId !== null) {
        search.unwatch(watchId).catch(() => undefined);
      }
    };
  }, [setError]);
  return status;
}

/**
 * The worker's answer to `query`: its count and first rows, asked again when the query or the
 * index (`version`) moves; an older answer arriving late is dropped. A new answer forgets the
 * chunks `pending` were asked for the one before.
 */
function useAnswer(
  query: BillListQuery,
  version: number,
  pending: RefObject<Set<string>>,
  setError: ErrorSetter,
): Answer | null {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const asked = useRef(0);
  useEffect(() => {
    const ask = ++asked.current;
    billSearch()
      .query(query, FIRST_ROWS)
      .then((next) => {
        if (ask !== asked.current) return;
        const rows = new Map<number, BillListRow | null>();
        next.rows.forEach((row, index) => rows.set(index, row));
        pending.current = new Set();
        setAnswer({
          resultId: next.resultId,
          total: next.total,
          jurisdictions: next.jurisdictions,
          sessions: next.sessions,
          decisionCounts: next.decisionCounts,
          sponsor: { key: query.sponsor, name: next.sponsorName },
          rows,
        });
        setError(null);
      })
      .catch((cause: unknown) => {
        console.error('[docket] The search failed:', cause);
        setError('The search failed. Reload the page to try again.');
      });
  }, [query, version, pending, setError]);
  return answer;
}

/**
 * Loads the rows of a range the list shows, a chunk at a time, into `answer`; a chunk is asked
 * for once (`pending`), again only when reading it failed.
 */
function useRowLoading(
  answer: Answer | null,
  pending: RefObject<Set<string>>,
): (start: number, end: number) => void {
  const [, setLoadedChunks] = useState(0);
  return useCallback(
    (start: number, end: number) => {
      if (answer === null) return;
      const first = Math.floor(Math.max(0, start) / CHUNK);
      const last = Math.floor(Math.max(0, end - 1) / CHUNK);
      for (let chunk = first; chunk <= last; chunk++) {
        const from = chunk * CHUNK;
        if (from >= answer.total || answer.rows.has(from)) continue;
        const key = `${answer.resultId}:${chunk}`;
        if (pending.current.has(key)) continue;
        pending.current.add(key);
        billSearch()
          .rows(answer.resultId, from, from + CHUNK)
          .then((rows) => {
            // A newer answer has replaced this one: it loads its own rows.
            if (rows === null) return;
            rows.forEach((row, index) => answer.rows.set(from + index, row));
            setLoadedChunks((count) => count + 1);
          })
          .catch((cause: unknown) => {
            pending.current.delete(key);
            console.error('[docket] Rows of the list could not be read:', cause);
          });
      }
    },
    [answer, pending],
  );
}

/** The list of bills answering `query`, read from the search worker as it is shown. */
export function useBillList(query: BillListQuery): BillList {
  const [error, setError] = useState<string | null>(null);
  const pending = useRef(new Set<string>());
  const status = useIndexStatus(setError);
  const answer = useAnswer(query, status?.version ?? -1, pending, setError);
  const load = useRowLoading(answer, pending);

  const allIds = useCallback(async () => {
    if (answer === null) return [];
    return (await billSearch().ids(answer.resultId)) ?? [];
  }, [answer]);

  return {
    total: answer?.total,
    resultId: answer?.resultId ?? null,
    status,
    jurisdictions: answer?.jurisdictions ?? [],
    sessions: answer?.sessions ?? [],
    decisionCounts: answer?.decisionCounts ?? null,
    sponsorName:
      answer === null || answer.sponsor.key !== query.sponsor ? undefined : answer.sponsor.name,
    row: (index) => answer?.rows.get(index),
    load,
    allIds,
    error,
  };
}
