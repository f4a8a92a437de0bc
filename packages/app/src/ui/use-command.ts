import { useCallback, useState } from 'react';
import { commandFailureMessage } from './command-failure.ts';

// The busy flag and the failure message of a form that runs one of core's commands: buttons are
// disabled while it runs, and a refusal or failure is said in the user's words (command-failure.ts).

/** What the form is doing, said as "Could not <doing>: …" on failure (command-failure.ts), or
 *  the form's own words for a failure, for work that is not one of core's commands. */
export type Doing = string | ((failure: unknown) => string);

export interface CommandRunner {
  readonly busy: boolean;
  readonly error: string | null;
  readonly setError: (error: string | null) => void;
  /**
   * Runs `work`, busy until it settles. A failure becomes `error` ("Could not <doing>: …", or
   * the command's own refusal, or what `doing` says of it) and is handed to `onFailure`; the
   * promise never rejects.
   */
  readonly run: (
    doing: Doing,
    work: () => Promise<void>,
    onFailure?: (failure: unknown) => void,
  ) => Promise<void>;
}

export function useCommand(): CommandRunner {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (doing: Doing, work: () => Promise<void>, onFailure?: (failure: unknown) => void) => {
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (failure) {
        setError(
          typeof doing === 'string' ? commandFailureMessage(failure, doing) : doing(failure),
        );
        onFailure?.(failure);
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { busy, error, setError, run };
}
