import { BillCommandError } from '@docket/core/commands';

// What the deck says when a decision or an undo fails: a command's own refusal in its words,
// anything else after what could not be done.

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a decision was not stored. */
export function decisionFailureMessage(error: unknown): string {
  if (error instanceof BillCommandError) return error.message;
  return `The decision could not be saved: ${messageOf(error)}`;
}

/** Why an undo did not happen. */
export function undoFailureMessage(error: unknown): string {
  if (error instanceof BillCommandError) return error.message;
  return `Undo failed: ${messageOf(error)}`;
}
