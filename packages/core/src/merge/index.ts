// The public face of merge/ for the other packages (README.md); inside core, files import each other directly.
export * from './hybrid-logical-clock.ts';
export * from './outbox-changes.ts';
export * from './sync-merge.ts';
