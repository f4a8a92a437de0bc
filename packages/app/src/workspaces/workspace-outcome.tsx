import { IonButton } from '@ionic/react';
import { useState } from 'react';
import { FormError } from '../ui/form-error.tsx';
import { failureMessage } from './workspace-words.ts';

// One action at a time on a workspace screen, and what it came to: a polite status when it was
// done, an alert with the server's words when it was refused (nothing changed then).

export type Said = { readonly kind: 'done' | 'error'; readonly text: string } | null;

export function Outcome({ said }: { readonly said: Said }) {
  return (
    <>
      <p role="status" aria-live="polite" className="workspace-status">
        {said?.kind === 'done' ? said.text : ''}
      </p>
      <FormError message={said?.kind === 'error' ? said.text : null} />
    </>
  );
}

export function useWorkspaceAction() {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said>(null);
  const run = async (what: string, action: () => Promise<string>): Promise<boolean> => {
    if (busy) return false;
    setBusy(true);
    setSaid(null);
    try {
      setSaid({ kind: 'done', text: await action() });
      return true;
    } catch (error) {
      setSaid({ kind: 'error', text: failureMessage(what, error) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, said, setSaid, run };
}

export type WorkspaceAction = ReturnType<typeof useWorkspaceAction>;

/**
 * A button that runs one workspace action: disabled while any runs, its outcome said by the
 * screen's Outcome, and `after` called with whether it was done.
 */
export function ActionButton({
  action,
  what,
  work,
  after,
  color,
  fill,
  children,
}: {
  readonly action: WorkspaceAction;
  /** What the action is, to start a refusal's message ("Removing the member"). */
  readonly what: string;
  /** Does it; says what it came to. */
  readonly work: () => Promise<string>;
  readonly after?: (done: boolean) => void;
  readonly color?: 'danger';
  readonly fill?: 'outline';
  readonly children: string;
}) {
  return (
    <IonButton
      {...(color === undefined ? {} : { color })}
      fill={fill ?? 'solid'}
      disabled={action.busy}
      onClick={() => {
        void action.run(what, work).then((done) => after?.(done));
      }}
    >
      {children}
    </IonButton>
  );
}
