import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  deckCount,
  type DeckFilter,
  emptyDeckFilter,
  readDeckFilter,
  saveDeckFilter,
  undoHistoryHasSteps,
} from '@docket/core/deck';
import { TRIAGE_UNDO_SETTING } from '@docket/core/commands';
import type { Decision } from '@docket/core/store';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { useMatchingBillIds } from '../local-store/live-deck.ts';
import { useDecisions } from '../local-store/live-decisions.ts';
import { useSetting } from '../local-store/live-settings.ts';

// The deck's live reads. The page holds the current card and the next ones, so a decision shows
// the next card at once while the store catches up; the count is read apart from the cards, so
// a filter that has to read every bill to count them does not hold up the first card.

export interface DeckFilterState {
  /** Undefined until the stored filter is read. */
  readonly filter: DeckFilter | undefined;
  readonly setFilter: (filter: DeckFilter) => void;
  /** Set when the filter could not be read or kept. */
  readonly error: string | null;
}

/** The filter of this device's deck, kept across reloads (a `device:` setting). */
export function useDeckFilter(): DeckFilterState {
  const [filter, setFilterState] = useState<DeckFilter | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    pageLocalStore()
      .then((store) => readDeckFilter(store))
      .then((stored) => {
        // The user may have changed the filter while it was being read: theirs wins.
        if (current) setFilterState((mine) => mine ?? stored);
      })
      .catch((cause: unknown) => {
        if (!current) return;
        setFilterState((mine) => mine ?? emptyDeckFilter);
        setError(`The saved filter could not be read: ${String(cause)}`);
      });
    return () => {
      current = false;
    };
  }, []);
  const setFilter = useCallback((next: DeckFilter) => {
    setFilterState(next);
    pageLocalStore()
      .then((store) => saveDeckFilter(store, next))
      .then(() => {
        setError(null);
      })
      .catch((cause: unknown) => {
        setError(`The filter could not be kept for next time: ${String(cause)}`);
      });
  }, []);
  return { filter, setFilter, error };
}

export interface DeckTally {
  /** How many cards are left in the deck; undefined while counting. */
  readonly left: number | undefined;
  /** The decisions counted; the deck's announcement waits until they hold a stored outcome. */
  readonly decisions: readonly Decision[] | undefined;
}

/** How many cards are left in the deck, and the decisions that count was made from. */
export function useDeckTally(filter: DeckFilter | undefined): DeckTally {
  const matching = useMatchingBillIds(filter);
  const decisions = useDecisions();
  const left = useMemo(
    () =>
      matching === undefined || decisions === undefined || filter === undefined
        ? undefined
        : deckCount(matching, decisions, filter.includeLater),
    [matching, decisions, filter],
  );
  return useMemo(() => ({ left, decisions }), [left, decisions]);
}

/** Whether "Undo" has a decision of this device to take back. */
export function useCanUndo(): boolean {
  const row = useSetting(TRIAGE_UNDO_SETTING);
  return row === undefined ? false : undoHistoryHasSteps(row?.value);
}
