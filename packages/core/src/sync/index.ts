// The public face of sync/ for the other packages (README.md); inside core, files import each other directly.
export * from './hybrid-logical-clock.ts';
export * from './outbox-changes.ts';
export * from './sync-cursor.ts';
export * from './sync-dataset-files.ts';
export * from './sync-dataset-files-unavailable.ts';
export * from './sync-engine.ts';
export * from './sync-envelopes.ts';
export * from './sync-errors.ts';
export * from './sync-merge.ts';
export * from './sync-owner.ts';
export * from './sync-reset.ts';
export * from './sync-status-machine.ts';
export * from './bill-history.ts';
