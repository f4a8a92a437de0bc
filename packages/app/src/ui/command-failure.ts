import type { BillCommandError } from '@docket/core/commands';

// What a screen says when one of core's bill commands refuses or fails. A refusal carries a
// message written for the user; anything else is unexpected and is said plainly, with its text.

/**
 * Core's refusal, known by its name and code rather than its class: the class would bring core's
 * commands (and their clock) into the script of the first screen, which shows these messages.
 */
function isBillCommandError(error: unknown): error is BillCommandError {
  return (
    error instanceof Error &&
    error.name === 'BillCommandError' &&
    typeof (error as Partial<BillCommandError>).code === 'string'
  );
}

export function commandFailureMessage(error: unknown, doing: string): string {
  if (isBillCommandError(error)) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return `Could not ${doing}: ${detail}`;
}

export function isUsageChanged(error: unknown): boolean {
  return isBillCommandError(error) && error.code === 'usage-changed';
}
