import {
  IonButton,
  IonButtons,
  IonContent,
  IonFooter,
  IonHeader,
  IonInput,
  IonInputPasswordToggle,
  IonModal,
  IonText,
  IonTitle,
  IonToolbar,
} from '@ionic/react';
import { useId, useState } from 'react';
import {
  CLOUD_PASSWORD_BREAKPOINTS,
  CLOUD_PASSWORD_INITIAL_BREAKPOINT,
  isCloudPasswordValid,
  RESET_EXPLANATION,
  RESET_TITLE,
  type PasswordModalResult,
} from './cloud-password-words.ts';

export interface CloudPasswordModalProps {
  readonly isOpen: boolean;
  readonly title: string;
  readonly subtitle?: string;
  /** Whether the user's settings hold a verifier: Close and Reset exist only then. */
  readonly passwordExists: boolean;
  /** Whether this caller lets the user reset the password from here. */
  readonly allowReset: boolean;
  /** Asked before a reset goes ahead; resolves true on Confirm. */
  readonly confirmReset: () => Promise<boolean>;
  readonly onResult: (result: PasswordModalResult) => void;
}

/**
 * Spec §2, the cloud password modal: a title, an optional subtitle, and a password field hidden
 * by default with a show/hide toggle; Close (only when a password exists), Reset (only when one
 * exists and the caller allows it) and Go. Reset switches to the reset view: its title, the
 * explanation of the two ways, and Cancel / Reset password. Go and Reset password stay disabled
 * while the field is empty. Results: entered on Go, reset on Reset password, none on Close.
 */
export function CloudPasswordModal(props: CloudPasswordModalProps) {
  const { isOpen, title, subtitle, passwordExists, allowReset, confirmReset, onResult } = props;
  const [password, setPassword] = useState('');
  const [resetView, setResetView] = useState(false);
  const explanationId = useId();
  const valid = isCloudPasswordValid(password);

  const finish = (result: PasswordModalResult) => {
    setPassword('');
    setResetView(false);
    onResult(result);
  };
  const go = () => {
    if (valid) finish({ status: 'entered', password });
  };
  const resetPassword = async () => {
    if (!valid) return;
    if (await confirmReset()) finish({ status: 'reset', password });
  };

  return (
    <IonModal
      isOpen={isOpen}
      aria-label={resetView ? RESET_TITLE : title}
      breakpoints={[...CLOUD_PASSWORD_BREAKPOINTS]}
      initialBreakpoint={CLOUD_PASSWORD_INITIAL_BREAKPOINT}
      // At 0.8 the sheet's bottom fifth is off screen: the footer's buttons must stay on it.
      expandToScroll={false}
      // Without a password there is no Close, so no swipe or backdrop tap closes it either; a
      // plain boolean would also refuse the app's own closing when isOpen turns false.
      canDismiss={(_data?: unknown, role?: string) =>
        Promise.resolve(passwordExists || (role !== 'gesture' && role !== 'backdrop'))
      }
      onDidDismiss={() => {
        if (isOpen) finish({ status: 'none', password: null });
      }}
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle>{resetView ? RESET_TITLE : title}</IonTitle>
        </IonToolbar>
      </IonHeader>
      <IonContent className="ion-padding">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (resetView) {
              resetPassword().catch((error: unknown) => {
                console.error('[docket] The reset could not be confirmed:', error);
              });
            } else {
              go();
            }
          }}
        >
          {subtitle !== undefined && !resetView && (
            <IonText>
              <p>{subtitle}</p>
            </IonText>
          )}
          {resetView && (
            <div id={explanationId}>
              {RESET_EXPLANATION.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          )}
          <IonInput
            label="Cloud password"
            labelPlacement="stacked"
            type="password"
            autocomplete={passwordExists && !resetView ? 'current-password' : 'new-password'}
            required
            value={password}
            {...(resetView ? { 'aria-describedby': explanationId } : {})}
            onIonInput={(event) => {
              setPassword(event.detail.value ?? '');
            }}
          >
            <IonInputPasswordToggle slot="end" />
          </IonInput>
          {/* Enter in the field submits, as a form does. */}
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
      </IonContent>
      <IonFooter>
        <IonToolbar>
          <IonButtons slot="end">
            {resetView ? (
              <>
                <IonButton
                  onClick={() => {
                    setResetView(false);
                  }}
                >
                  Cancel
                </IonButton>
                <IonButton
                  color="danger"
                  disabled={!valid}
                  onClick={() => {
                    resetPassword().catch((error: unknown) => {
                      console.error('[docket] The reset could not be confirmed:', error);
                    });
                  }}
                >
                  Reset password
                </IonButton>
              </>
            ) : (
              <>
                {passwordExists && (
                  <IonButton
                    onClick={() => {
                      finish({ status: 'none', password: null });
                    }}
                  >
                    Close
                  </IonButton>
                )}
                {passwordExists && allowReset && (
                  <IonButton
                    onClick={() => {
                      setResetView(true);
                    }}
                  >
                    Reset
                  </IonButton>
                )}
                <IonButton strong disabled={!valid} onClick={go}>
                  Go
                </IonButton>
              </>
            )}
          </IonButtons>
        </IonToolbar>
      </IonFooter>
    </IonModal>
  );
}
