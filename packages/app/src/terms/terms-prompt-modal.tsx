import { TERMS_VERSION } from '@docket/protocol/terms';
import { IonButton, IonButtons, IonContent, IonHeader, IonTitle, IonToolbar } from '@ionic/react';
import { ApiRequestError } from '../api/api-client.ts';
import { acceptTerms } from '../api/terms-api.ts';
import { useAppServices } from '../services/app-services.ts';
import { useCommand } from '../ui/use-command.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { TERMS_ACCEPTED } from './terms-acceptance.ts';
import { TermsOfServiceText } from './terms-of-service-text.tsx';
import { IonFooter } from '../ui/ionic/ion-footer.ts';
import { IonModal } from '../ui/ionic/ion-modal.ts';

export const TERMS_PROMPT_TITLE = 'Accept the terms to sync';

export interface TermsPromptModalProps {
  readonly isOpen: boolean;
  /** The version the server asks for; the app's own when not known. */
  readonly version?: string;
  /** The server recorded the acceptance. */
  readonly onAccepted: () => void;
  /** "Not now", or the modal closed otherwise: nothing syncs meanwhile. */
  readonly onSetAside: () => void;
}

/**
 * Asks the signed-in user to accept the terms of service before the first sync (and again when
 * their version changes): the terms in full, "Not now" and "Accept". The acceptance is recorded
 * on the server for the user, as the terms-of-service screen's Accept does.
 */
export function TermsPromptModal({
  isOpen,
  version,
  onAccepted,
  onSetAside,
}: TermsPromptModalProps) {
  const { api, platform, sync } = useAppServices();
  const { busy: accepting, error, setError, run } = useCommand();
  const toast = useStatusToast();

  const accept = () =>
    run(
      (failure) =>
        failure instanceof ApiRequestError
          ? failure.message
          : 'The acceptance could not be recorded. Try again in a moment.',
      async () => {
        await acceptTerms(api, version ?? TERMS_VERSION);
        sync.termsAccepted();
        toast.done(TERMS_ACCEPTED);
        onAccepted();
      },
    );

  return (
    <IonModal
      isOpen={isOpen}
      aria-label={TERMS_PROMPT_TITLE}
      className="terms-prompt"
      onDidDismiss={() => {
        setError(null);
        if (isOpen) onSetAside();
      }}
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle>{TERMS_PROMPT_TITLE}</IonTitle>
        </IonToolbar>
      </IonHeader>
      <IonContent className="ion-padding">
        <p>
          Docket syncs your work, end-to-end encrypted, through the Docket server. Before it syncs,
          read and accept its terms of service. Until you do, your work stays on this device.
        </p>
        <TermsOfServiceText viewer={platform.kind} />
      </IonContent>
      <IonFooter>
        {error !== null && (
          <p className="form-error ion-padding-horizontal" role="alert">
            {error}
          </p>
        )}
        <IonToolbar>
          <IonButtons slot="start">
            <IonButton disabled={accepting} onClick={onSetAside}>
              Not now
            </IonButton>
          </IonButtons>
          <IonButtons slot="end">
            <IonButton
              strong
              disabled={accepting}
              onClick={() => {
                void accept();
              }}
            >
              Accept
            </IonButton>
          </IonButtons>
        </IonToolbar>
      </IonFooter>
    </IonModal>
  );
}
