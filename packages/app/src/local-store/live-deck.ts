import {
  compileDeckFilter,
  type DeckFilter,
  type DeckPage,
  matchingBillIds,
  readDeckPage,
} from '@docket/core/deck';
import { DECK_PAGE_SIZE, dexieDeckSource } from './dexie-deck-source.ts';
import { liveDatabase, useLiveRead } from './live-database.ts';

// The deck's live reads of the bills, through its Dexie source (dexie-deck-source.ts: index
// keys and cursors, which core's store interface does not offer), so the deck walks 50,000
// bills without reading them.

/** A stable key for a filter, for the live reads' dependencies. */
function filterKey(filter: DeckFilter): string {
  return JSON.stringify(filter);
}

/** The next cards of the deck, or why there are none; undefined while loading. */
export function useDeckPage(filter: DeckFilter | undefined): DeckPage | undefined {
  const key = filter === undefined ? null : filterKey(filter);
  return useLiveRead(
    async () =>
      filter === undefined
        ? undefined
        : readDeckPage(dexieDeckSource(liveDatabase()), compileDeckFilter(filter), DECK_PAGE_SIZE),
    // The key stands for the filter: a new object with the same fields must not re-run it.
    [key],
  );
}

/** The ids of the bills a filter matches, whatever their decision; undefined while loading. */
export function useMatchingBillIds(
  filter: DeckFilter | undefined,
): Awaited<ReturnType<typeof matchingBillIds>> | undefined {
  // "Include later" changes only which decisions count, not which bills match.
  const key = filter === undefined ? null : filterKey({ ...filter, includeLater: false });
  return useLiveRead(
    async () =>
      filter === undefined
        ? undefined
        : matchingBillIds(dexieDeckSource(liveDatabase()), compileDeckFilter(filter)),
    [key],
  );
}
