import { dismissBill, laterBill, trackBill, undoLastDecision } from '@docket/core/commands';

// The deck's decisions and its undo, in a module of their own: the commands bring in the row
// schemas of every table (core's store/local-records.ts, zod) and sync's outbox, whose
// evaluation took about 60 ms of the main thread on this machine's cold start, before the first
// card. The deck loads this once its first card is on screen (loadDeckDecisions), so a swipe
// finds it ready.

export const decisionCommands = {
  track: trackBill,
  dismiss: dismissBill,
  later: laterBill,
} as const;

export { undoLastDecision };
