import { BillCommandError } from '@docket/core/commands';

// What a screen says when one of core's bill commands refuses or fails. A refusal carries a
// message written for the user; anything else is unexpected and is said plainly, with its text.

export function commandFailureMessage(error: unknown, doing: string): string {
  if (error instanceof BillCommandError) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return `Could not ${doing}: ${detail}`;
}

export function isUsageChanged(error: unknown): boolean {
  return error instanceof BillCommandError && error.code === 'usage-changed';
}
