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
      // The control that ran it (a Save, Sign in) is disabled while busy, which drops its focus
      // to the body; it gets it back once it is enabled again, if nobody put focus elsewhere.
      const from = deepActiveElement();
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
        if (from !== null) giveFocusBack(from);
      }
    },
    [],
  );
  return { busy, error, setError, run };
}

/** The focused element, inside the shadow roots of the controls that have one (Ionic's). */
function deepActiveElement(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement != null) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/**
 * Once the control is enabled again (React's next commit, within a few frames), focuses `element`
 * if focus is on the body; never takes focus from where a person or the screen put it.
 */
function giveFocusBack(element: HTMLElement, framesLeft = 30): void {
  if (typeof requestAnimationFrame === 'undefined') return;
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    if (!element.isConnected) return;
    if ((element as HTMLButtonElement).disabled) {
      if (framesLeft > 0) giveFocusBack(element, framesLeft - 1);
      return;
    }
    element.focus();
  });
}
