// The public face of sync/ for the other packages (README.md); inside core, files import each other directly.
export * from './bill-history.ts';
export * from './change-authors.ts';
export * from './sync-cursor.ts';
export * from './sync-dataset-files.ts';
export * from './sync-dataset-files-unavailable.ts';
export * from './sync-engine.ts';
export * from './sync-envelopes.ts';
export * from './sync-errors.ts';
export * from './sync-owner.ts';
export * from './sync-reset.ts';
export * from './sync-status-machine.ts';
// The clock, the outbox and the merge moved down to merge/ (a lower layer, README.md); sync's
// public face still gives them to the packages that import them from here.
export * from '../merge/hybrid-logical-clock.ts';
export * from '../merge/outbox-changes.ts';
export * from '../merge/sync-merge.ts';
