import { BillCommandError } from '@docket/core/commands';

/** What to tell the user when a command fails: its own words when it refused the input. */
export function commandMessage(error: unknown, doing: string): string {
  if (error instanceof BillCommandError) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return `Could not ${doing}: ${detail}`;
}
