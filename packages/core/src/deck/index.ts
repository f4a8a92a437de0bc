// The public face of deck/ for the other packages (README.md); inside core, files import each other directly.
export {
  compileDeckFilter,
  DECK_FILTER_TEXT_LIMIT,
  type DeckFilter,
  deckFilterIsActive,
  type DeckOrder,
  emptyDeckFilter,
  type IndexedCriterion,
  readDeckFilter,
  saveDeckFilter,
  sessionIdPrefix,
} from './bill-deck-filter.ts';
export {
  deckCardFacts,
  deckCount,
  type DeckEmptyReason,
  type DeckPage,
  type DeckSource,
  deckSourceOfTransaction,
  matchingBillIds,
  readDeckPage,
  type RecentOrderSource,
  undoHistoryHasSteps,
} from './bill-deck.ts';
export { decisionAnnouncement, deckAnnouncement, undoAnnouncement } from './deck-announcements.ts';
