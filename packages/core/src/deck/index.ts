// The public face of deck/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-deck-filter.ts';
export * from './bill-deck.ts';
export * from './deck-announcements.ts';
