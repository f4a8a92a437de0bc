import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  compileDeckFilter,
  deckCount,
  type DeckFilter,
  type DeckPage,
  emptyDeckFilter,
  matchingBillIds,
  readDeckFilter,
  readDeckPage,
  saveDeckFilter,
  undoHistoryHasSteps,
} from '@docket/core/deck';
import type { Decision, Setting, StoredBill } from '@docket/core/store';
import { TRIAGE_UNDO_SETTING } from '@docket/core/commands';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { liveDatabase } from '../jobs/live-tables.ts';
import { DECK_PAGE_SIZE, dexieDeckSource } from './dexie-deck-source.ts';

// The deck's live reads. The page holds the current card and the next ones, so a decision shows
// the next card at once while the store catches up; the count is read apart from the cards, so
// a filter that has to read every bill to count them does not hold up the first card.

/** A stable key for a filter, for the live queries' dependencies. */
function filterKey(filter: DeckFilter): string {
  return JSON.stringify(filter);
}

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

/** The next cards of the deck, or why there are none; undefined while loading. */
export function useDeckPage(filter: DeckFilter | undefined): DeckPage | undefined {
  const key = filter === undefined ? null : filterKey(filter);
  return useLiveQuery(
    async () =>
      filter === undefined
        ? undefined
        : readDeckPage(dexieDeckSource(liveDatabase()), compileDeckFilter(filter), DECK_PAGE_SIZE),
    // The key stands for the filter: a new object with the same fields must not re-run it.
    [key],
  );
}

/** How many cards are left in the deck; undefined while counting. */
export function useDeckCount(filter: DeckFilter | undefined): number | undefined {
  // "Include later" changes only which decisions count, not which bills match.
  const matchKey = filter === undefined ? null : filterKey({ ...filter, includeLater: false });
  const matching = useLiveQuery(
    async () =>
      filter === undefined
        ? undefined
        : matchingBillIds(dexieDeckSource(liveDatabase()), compileDeckFilter(filter)),
    [matchKey],
  );
  const decisions = useLiveQuery(
    () => liveDatabase().table<Decision, string>('decisions').toArray(),
    [],
  );
  return useMemo(
    () =>
      matching === undefined || decisions === undefined || filter === undefined
        ? undefined
        : deckCount(matching, decisions, filter.includeLater),
    [matching, decisions, filter],
  );
}

/** Whether "Undo" has a decision of this device to take back. */
export function useCanUndo(): boolean {
  return (
    useLiveQuery(async () => {
      const row = await liveDatabase().table<Setting, string>('settings').get(TRIAGE_UNDO_SETTING);
      return undoHistoryHasSteps(row?.value);
    }, []) ?? false
  );
}

/** The jurisdictions of the bills on this device, for the filter (one index walk, no bills). */
export function useJurisdictions(): string[] | undefined {
  return useLiveQuery(async () => {
    const keys = await liveDatabase()
      .table<StoredBill, string>('bills')
      .orderBy('jurisdiction')
      .uniqueKeys();
    return keys.filter((key): key is string => typeof key === 'string');
  }, []);
}
