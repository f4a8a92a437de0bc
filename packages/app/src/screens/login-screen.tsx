import { IonButton, IonSpinner, useIonRouter } from '@ionic/react';
import { lazy, Suspense, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import {
  useLoginActions,
  useLoginFields,
  type LoginActions,
  type LoginFields,
} from '../auth/use-login-form.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useGuardWaitMessage } from '../routing/access-guard-view.tsx';
import { returnPathFromSearch } from '../routing/return-to-link.ts';
import { HOME_PATH, LOGOUT_PATH, RETURN_TO_LINK_PARAM } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { PlainTextField } from '../ui/plain-text-field.tsx';
import { FormError } from '../ui/form-error.tsx';

// It reads the device's database: loaded after the form is painted, so the database's code is not
// in the script the sign-in screen needs first.
const DeviceDataNotice = lazy(() =>
  import('../device-data/device-data-notice.tsx').then((m) => ({ default: m.DeviceDataNotice })),
);

/** Where the link of the e-mail that verifies a new account lands, with the way back it had. */
function verifiedCallbackURL(returnPath: string | null): string {
  const verified = new URLSearchParams({ mode: 'verified' });
  if (returnPath !== null) verified.set(RETURN_TO_LINK_PARAM, returnPath);
  return `/return-from-login?${verified.toString()}`;
}

/** /login: sign in, create an account, or ask for a password reset link. */
export function LoginScreen() {
  const { platform } = useAppServices();
  const signedInEmail = useAppState((state) => state.email);
  const passwordNeededFor = useAppState((state) => state.passwordNeededFor);
  const authenticating = useGuardWaitMessage();
  const { search } = useLocation();
  const ionRouter = useIonRouter();
  const fields = useLoginFields(passwordNeededFor);
  const returnPath = returnPathFromSearch(search);
  const actions = useLoginActions({
    email: fields.email,
    password: fields.password,
    verifiedCallbackURL: verifiedCallbackURL(returnPath),
    onSignedIn: () => {
      ionRouter.navigateRoot(returnPath ?? HOME_PATH);
    },
  });

  return (
    <>
      <PageHeader title="Sign in" />
      <PageBody>
        <h1>Sign in to Docket</h1>
        {authenticating !== null && (
          <p className="login-authenticating" role="status">
            <IonSpinner aria-hidden="true" name="dots" /> {authenticating}
          </p>
        )}
        {passwordNeededFor !== null && (
          <p className="form-notice" role="status">
            Sign in with your password once more: Docket now locks your work on this device while
            you are signed out.
          </p>
        )}
        {signedInEmail !== null && (
          <p>
            You are signed in as {signedInEmail}. <Link to={returnPath ?? HOME_PATH}>Continue</Link>{' '}
            or <Link to={LOGOUT_PATH}>sign out</Link>.
          </p>
        )}
        <LoginForm fields={fields} actions={actions} />
        <p className="login-footer">
          <Link to={`/terms-of-service/${platform.kind}`}>Terms of service</Link> ·{' '}
          <Link to="/add-full-backup">Full backup without signing in</Link>
        </p>
        {signedInEmail === null && (
          <Suspense fallback={null}>
            <DeviceDataNotice />
          </Suspense>
        )}
      </PageBody>
    </>
  );
}

/** The form: address, password, the alert and notice, and the three actions. */
function LoginForm({
  fields,
  actions,
}: {
  readonly fields: LoginFields;
  readonly actions: LoginActions;
}) {
  const { busy, error, notice, signIn, createAccount, forgotPassword } = actions;

  // Enter signs in from either field, once: the form's own submission on Enter is held back.
  const submitOnEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    signIn();
  };

  return (
    <form
      className="login-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        signIn();
      }}
    >
      <PlainTextField
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
        value={fields.email}
        onChange={fields.setEmail}
        onKeyDown={submitOnEnter}
      />
      <PlainTextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={fields.password}
        onChange={fields.setPassword}
        onKeyDown={submitOnEnter}
      />
      <FormError message={error} />
      {notice !== null && (
        <p className="form-notice" role="status">
          {notice}
        </p>
      )}
      <IonButton type="submit" expand="block" disabled={busy}>
        Sign in
      </IonButton>
      <IonButton expand="block" fill="outline" disabled={busy} onClick={createAccount}>
        Create account
      </IonButton>
      <IonButton expand="block" fill="clear" disabled={busy} onClick={forgotPassword}>
        Forgot password
      </IonButton>
    </form>
  );
}
