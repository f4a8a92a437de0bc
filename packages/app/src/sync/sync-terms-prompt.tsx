import { lazy, Suspense, useState } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { useSyncState } from './use-sync-state.ts';

// The modal's code (the terms' text and the API's schemas) loads the first time the terms are
// asked for, not with the first screen: most starts never ask.
const TermsPromptModal = lazy(() =>
  import('../terms/terms-prompt-modal.tsx').then((module) => ({
    default: module.TermsPromptModal,
  })),
);

/**
 * The app-wide ask: when a sync stops because the user has not accepted the current terms (a
 * device that holds the keys, after sign-in or once the terms' version changed), the terms are
 * put in front of the user once; "Sync now" puts them back.
 */
export function TermsPrompt() {
  const { sync } = useAppServices();
  const { askTerms } = useSyncState();
  // Once asked, the modal stays mounted, so closing it animates as Ionic's modals do.
  const [asked, setAsked] = useState(false);
  if (askTerms && !asked) setAsked(true);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <TermsPromptModal
        isOpen={askTerms}
        onAccepted={() => undefined}
        onSetAside={() => {
          sync.termsSetAside();
        }}
      />
    </Suspense>
  );
}
