// The public face of merge/ for the other packages (README.md); inside core, files import each other directly.
export { decodeHlc } from './hybrid-logical-clock.ts';
export { outboxFields } from './outbox-changes.ts';
export { type RowChange, rowChangeSchema } from './sync-merge.ts';
