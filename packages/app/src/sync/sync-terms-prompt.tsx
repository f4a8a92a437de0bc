import { useAppServices } from '../services/app-services.ts';
import { useSyncState } from './use-sync-state.ts';
import { TermsPromptModal } from '../terms/terms-prompt-modal.tsx';

/**
 * The app-wide ask: when a sync stops because the user has not accepted the current terms (a
 * device that holds the keys, after sign-in or once the terms' version changed), the terms are
 * put in front of the user once; "Sync now" puts them back.
 */
export function TermsPrompt() {
  const { sync } = useAppServices();
  const { askTerms } = useSyncState();
  return (
    <TermsPromptModal
      isOpen={askTerms}
      onAccepted={() => undefined}
      onSetAside={() => {
        sync.termsSetAside();
      }}
    />
  );
}
