import { IonButton, IonButtons, IonContent, IonHeader, IonTitle, IonToolbar } from '@ionic/react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { nameModalDialog } from './modal-dialog-name.ts';
import {
  CLOUD_PASSWORD_BREAKPOINTS,
  CLOUD_PASSWORD_INITIAL_BREAKPOINT,
  isCloudPasswordValid,
  newPasswordProblem,
  RESET_EXPLANATION,
  RESET_TITLE,
  strengthHint,
  unreceivedWords,
  type PasswordModalResult,
  type UnreceivedCount,
} from './cloud-password-words.ts';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';
import { IonFooter } from '../ui/ionic/ion-footer.ts';
import { IonText } from '../ui/ionic/ion-text.ts';
import { IonInputPasswordToggle } from '../ui/ionic/ion-input-password-toggle.ts';
import { IonModal } from '../ui/ionic/ion-modal.ts';
import { IonInput } from '../ui/ionic/ion-input.ts';

/** The work after Go, said in the modal while it runs. */
export interface CloudPasswordWork {
  readonly label: string;
  /** 1 for the first step. */
  readonly index: number;
  readonly count: number;
  /** Why this step takes a while, when it does. */
  readonly detail?: string;
}

export interface CloudPasswordModalProps {
  readonly isOpen: boolean;
  readonly title: string;
  readonly subtitle?: string;
  /** Whether the user's settings hold a verifier: Close and Reset exist only then. */
  readonly passwordExists: boolean;
  /** Whether this caller lets the user reset the password from here. */
  readonly allowReset: boolean;
  /**
   * Whether Go makes a new password (a first one, a change): then it is typed twice, at least
   * 10 characters, with a strength hint. A reset always makes a new one.
   */
  readonly newPassword: boolean;
  /** The work after Go or Reset password, while it runs: the form waits meanwhile. */
  readonly working: CloudPasswordWork | null;
  /** Why the last Go or Reset password failed, said under the field; the modal stays open. */
  readonly error: string | null;
  /**
   * What a reset would take out of the account (the changes other devices synced that this
   * device has not received), said in the reset view before Reset password; null says nothing.
   * Counting, offline or failed, it never holds the reset back.
   */
  readonly unreceived?: UnreceivedCount | null;
  /** The reset view was opened: the caller starts counting `unreceived`. */
  readonly onResetView?: () => void;
  /** Asked before a reset goes ahead; resolves true on Confirm. */
  readonly confirmReset: () => Promise<boolean>;
  readonly onResult: (result: PasswordModalResult) => void;
  /** The modal finished closing, however it closed. */
  readonly onClosed?: () => void;
}

/**
 * Spec §2, the cloud password modal: a title, an optional subtitle, and a password field hidden
 * by default with a show/hide toggle; Close (only when a password exists), Reset (only when one
 * exists and the caller allows it) and Go. Reset switches to the reset view: its title, the
 * explanation of the two ways, what the reset would take out of the account (counted by the
 * caller), and Cancel / Reset password. Go and Reset password stay disabled while the form is
 * invalid. Results: entered on Go, reset on Reset password, none on Close.
 * The caller keeps the modal open while it carries the result out, showing each step, and
 * closes it once done; a refusal (a wrong password) is shown under the field.
 */
export function CloudPasswordModal(props: CloudPasswordModalProps) {
  const { isOpen, subtitle, passwordExists, allowReset, onClosed, onResetView } = props;
  const form = useCloudPasswordForm(props);
  const { resetView, busy, shownTitle } = form;

  // The dialog's name follows its visible title (the view, the mode): Ionic copies aria-label
  // to its dialog only once, when the modal is first made.
  const modalRef = useRef<HTMLIonModalElement>(null);
  useLayoutEffect(() => {
    nameModalDialog(modalRef.current, shownTitle);
  }, [shownTitle, isOpen]);

  const { go, close, confirmAndReset } = modalActions(form, props);

  return (
    <IonModal
      ref={modalRef}
      isOpen={isOpen}
      // The dialog is named by its visible title, whichever view it shows. (aria-labelledby
      // cannot point from the shadow root's dialog to the title.)
      aria-label={shownTitle}
      onWillPresent={() => {
        nameModalDialog(modalRef.current, shownTitle);
      }}
      breakpoints={[...CLOUD_PASSWORD_BREAKPOINTS]}
      initialBreakpoint={CLOUD_PASSWORD_INITIAL_BREAKPOINT}
      // At 0.8 the sheet's bottom fifth is off screen: the footer's buttons must stay on it.
      expandToScroll={false}
      // Without a password there is no Close, so no swipe or backdrop tap closes it either, nor
      // while the work after Go runs; a plain boolean would also refuse the app's own closing
      // when isOpen turns false.
      canDismiss={(_data?: unknown, role?: string) =>
        Promise.resolve((role !== 'gesture' && role !== 'backdrop') || (passwordExists && !busy))
      }
      onDidDismiss={() => {
        if (isOpen) close();
        onClosed?.();
      }}
    >
      <IonHeader>
        <IonToolbar>
          <IonTitle>{shownTitle}</IonTitle>
        </IonToolbar>
      </IonHeader>
      <IonContent className="ion-padding cloud-password-form">
        <CloudPasswordForm
          form={form}
          subtitle={subtitle}
          unreceived={props.unreceived ?? null}
          working={props.working}
          onSubmit={resetView ? confirmAndReset : go}
        />
      </IonContent>
      <IonFooter>
        <IonToolbar>
          {/* Called, not rendered as two components: the two footers' first buttons (Reset and
              Cancel) are one element to React, so the focus stays on the button pressed. */}
          {resetView
            ? resetViewButtons({ form, onConfirmReset: confirmAndReset })
            : passwordViewButtons({
                form,
                passwordExists,
                allowReset,
                onResetView,
                onClose: close,
                onGo: go,
              })}
        </IonToolbar>
      </IonFooter>
    </IonModal>
  );
}

/** What is said under each field of a new password: its problem, once that field has text. */
export function shownFieldProblems(
  problem: ReturnType<typeof newPasswordProblem>,
  password: string,
  repeat: string,
): { readonly password: string | null; readonly repeat: string | null } {
  return {
    password: problem?.field === 'password' && password.length > 0 ? problem.message : null,
    repeat: problem?.field === 'repeat' && repeat.length > 0 ? problem.message : null,
  };
}

/** The ids that tie the form's messages to its fields. */
interface FormIds {
  readonly explanation: string;
  readonly hint: string;
  readonly problem: string;
  readonly repeatProblem: string;
  readonly error: string;
  readonly work: string;
}

/**
 * The modal's form: what is typed, which view shows, and what follows from them: whether Go may
 * go, the title shown, and what is said under each field.
 */
function useCloudPasswordForm(props: CloudPasswordModalProps) {
  const { isOpen, title, working, error } = props;
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [resetView, setResetView] = useState(false);
  const ids: FormIds = {
    explanation: useId(),
    hint: useId(),
    problem: useId(),
    repeatProblem: useId(),
    error: useId(),
    work: useId(),
  };
  const asksNew = resetView || props.newPassword;
  const problem = asksNew ? newPasswordProblem(password, repeat) : null;
  const valid = asksNew ? problem === null : isCloudPasswordValid(password);
  const busy = working !== null;
  const shownTitle = resetView ? RESET_TITLE : title;

  // Adjusted while rendering, as React advises for state that follows props: a closed modal
  // forgets what was typed, and a refusal is about the password it was given, so it is no
  // longer shown once that is edited.
  const [seen, setSeen] = useState({ isOpen, error, erredOn: null as string | null });
  if (seen.isOpen !== isOpen || seen.error !== error) {
    if (!isOpen) {
      setPassword('');
      setRepeat('');
      setResetView(false);
    }
    setSeen({ isOpen, error, erredOn: error === null ? null : password });
  }
  const shownError = error !== null && seen.erredOn === password ? error : null;

  // Said under the first field: what Go refused, else (for a new password) what is missing
  // and how strong it is. A length problem is said only once something is typed.
  const problems = shownFieldProblems(problem, password, repeat);
  const describedBy = [
    resetView ? ids.explanation : null,
    shownError === null ? null : ids.error,
    problems.password === null ? null : ids.problem,
    asksNew && password.length > 0 ? ids.hint : null,
  ].filter((id): id is string => id !== null);

  return {
    password,
    setPassword,
    repeat,
    setRepeat,
    resetView,
    setResetView,
    ids,
    asksNew,
    valid,
    busy,
    shownTitle,
    shownError,
    passwordProblem: problems.password,
    repeatProblem: problems.repeat,
    describedBy,
  };
}

/** The form's state and derived values, as `useCloudPasswordForm` gives them. */
type CloudPasswordFormState = ReturnType<typeof useCloudPasswordForm>;

/**
 * What the modal's buttons do: Go gives the password entered, Reset password asks first and
 * gives it as the new one, Close gives none. Nothing is given while the form is invalid or busy.
 */
function modalActions(form: CloudPasswordFormState, props: CloudPasswordModalProps) {
  const { password, valid, busy } = form;
  const { confirmReset, onResult } = props;
  const go = () => {
    if (valid && !busy) onResult({ status: 'entered', password });
  };
  const resetPassword = async () => {
    if (!valid || busy) return;
    if (await confirmReset()) onResult({ status: 'reset', password });
  };
  const close = () => {
    onResult({ status: 'none', password: null });
  };
  const confirmAndReset = () => {
    resetPassword().catch((failure: unknown) => {
      console.error('[docket] The reset could not be confirmed:', failure);
    });
  };
  return { go, close, confirmAndReset };
}

/**
 * The sheet's form: the subtitle or the reset view's explanation, the fields, and the work after
 * Go. Enter in a field submits it (Go, or Reset password in the reset view).
 */
function CloudPasswordForm(props: {
  readonly form: CloudPasswordFormState;
  readonly subtitle: string | undefined;
  readonly unreceived: UnreceivedCount | null;
  readonly working: CloudPasswordWork | null;
  readonly onSubmit: () => void;
}) {
  const { form, subtitle, unreceived, working, onSubmit } = props;
  const { resetView, ids } = form;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {subtitle !== undefined && !resetView && (
        <IonText>
          <p>{subtitle}</p>
        </IonText>
      )}
      {resetView && <ResetExplanation id={ids.explanation} unreceived={unreceived} />}
      <PasswordField form={form} />
      {form.asksNew && <RepeatField form={form} />}
      <WorkStatus id={ids.work} working={working} />
      {/* Enter in the field submits, as a form does. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
    </form>
  );
}

/** The reset view's explanation of the two ways, and what a reset would take (when counted). */
function ResetExplanation(props: {
  readonly id: string;
  readonly unreceived: UnreceivedCount | null;
}) {
  const { id, unreceived } = props;
  return (
    <div id={id}>
      {RESET_EXPLANATION.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {unreceived !== null && (
        // Polite: the count replaces "Counting…" a moment after the view opens.
        <p aria-live="polite">{unreceivedWords(unreceived)}</p>
      )}
    </div>
  );
}

/** The password field, with the refusal, the problem and the strength hint said under it. */
function PasswordField({ form }: { readonly form: CloudPasswordFormState }) {
  const { ids, asksNew, busy, password, describedBy, shownError, passwordProblem } = form;
  return (
    <>
      <IonInput
        label="Cloud password"
        labelPlacement="stacked"
        fill="outline"
        type="password"
        autocomplete={asksNew ? 'new-password' : 'current-password'}
        required
        disabled={busy}
        value={password}
        {...(describedBy.length > 0 ? { 'aria-describedby': describedBy.join(' ') } : {})}
        {...(shownError !== null || passwordProblem !== null ? { 'aria-invalid': 'true' } : {})}
        onIonInput={(event) => {
          form.setPassword(event.detail.value ?? '');
        }}
      >
        <IonInputPasswordToggle slot="end" />
      </IonInput>
      {shownError !== null && (
        <p className="form-error" id={ids.error} role="alert">
          {shownError}
        </p>
      )}
      {passwordProblem !== null && (
        <p className="form-error" id={ids.problem}>
          {passwordProblem}
        </p>
      )}
      {asksNew && password.length > 0 && (
        <p className="cloud-password-hint" id={ids.hint}>
          {strengthHint(password)}
        </p>
      )}
    </>
  );
}

/** A new password's second field, with what is wrong with it said under it. */
function RepeatField({ form }: { readonly form: CloudPasswordFormState }) {
  const { ids, busy, repeat, repeatProblem } = form;
  return (
    <>
      <IonInput
        label="Repeat cloud password"
        labelPlacement="stacked"
        fill="outline"
        type="password"
        autocomplete="new-password"
        required
        disabled={busy}
        value={repeat}
        {...(repeatProblem === null
          ? {}
          : { 'aria-describedby': ids.repeatProblem, 'aria-invalid': 'true' })}
        onIonInput={(event) => {
          form.setRepeat(event.detail.value ?? '');
        }}
      >
        <IonInputPasswordToggle slot="end" />
      </IonInput>
      {repeatProblem !== null && (
        <p className="form-error" id={ids.repeatProblem}>
          {repeatProblem}
        </p>
      )}
    </>
  );
}

/** The work after Go, step by step, in a status region that is there before it starts. */
function WorkStatus(props: { readonly id: string; readonly working: CloudPasswordWork | null }) {
  const { id, working } = props;
  return (
    <div className="cloud-password-work" role="status" id={id}>
      {working !== null && (
        <>
          <p>
            Step {working.index} of {working.count}: {working.label}
          </p>
          <IonProgressBar
            value={(working.index - 1) / working.count}
            buffer={working.index / working.count}
            aria-hidden="true"
          />
          {working.detail !== undefined && <p>{working.detail}</p>}
        </>
      )}
    </div>
  );
}

/** The reset view's footer: Cancel (back to the password) and Reset password. */
function resetViewButtons(props: {
  readonly form: CloudPasswordFormState;
  readonly onConfirmReset: () => void;
}) {
  const { form, onConfirmReset } = props;
  return (
    <>
      <IonButtons slot="start">
        <IonButton
          disabled={form.busy}
          onClick={() => {
            form.setResetView(false);
          }}
        >
          Cancel
        </IonButton>
      </IonButtons>
      <IonButtons slot="end">
        <IonButton
          color="danger"
          strong
          disabled={!form.valid || form.busy}
          onClick={onConfirmReset}
        >
          Reset password
        </IonButton>
      </IonButtons>
    </>
  );
}

/** The password view's footer: Reset and Close when they exist, and Go. */
function passwordViewButtons(props: {
  readonly form: CloudPasswordFormState;
  readonly passwordExists: boolean;
  readonly allowReset: boolean;
  readonly onResetView: (() => void) | undefined;
  readonly onClose: () => void;
  readonly onGo: () => void;
}) {
  const { form, passwordExists, allowReset, onResetView, onClose, onGo } = props;
  const { busy } = form;
  return (
    <>
      {/* Reset stands apart from Go: a different way out, not the next step. Go fills
          the rest of the footer, wide and at the bottom, under a thumb on a phone. */}
      {(passwordExists || allowReset) && (
        <IonButtons slot="start">
          {passwordExists && allowReset && (
            <IonButton
              color="danger"
              disabled={busy}
              onClick={() => {
                form.setResetView(true);
                onResetView?.();
              }}
            >
              Reset
            </IonButton>
          )}
          {passwordExists && (
            <IonButton disabled={busy} onClick={onClose}>
              Close
            </IonButton>
          )}
        </IonButtons>
      )}
      <IonButton
        className="sheet-go"
        expand="block"
        strong
        disabled={!form.valid || busy}
        onClick={onGo}
      >
        Go
      </IonButton>
    </>
  );
}
