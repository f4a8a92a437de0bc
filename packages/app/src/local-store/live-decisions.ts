import type { Decision } from '@docket/core/store';
import { useLiveRead, useLiveRow } from './live-database.ts';

// Live reads of the decisions table (the deck's triage).

/** The triage decision, null before the bill was triaged; undefined while loading. */
export function useDecision(billId: string | null): Decision | null | undefined {
  return useLiveRow('decisions', billId);
}

/** Every decision; undefined while loading. */
export function useDecisions(): Decision[] | undefined {
  return useLiveRead((store) => store.read(['decisions'], (tx) => tx.all('decisions')), []);
}
