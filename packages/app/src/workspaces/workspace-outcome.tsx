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
