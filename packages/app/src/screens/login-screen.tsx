import { IonButton, IonSpinner, useIonRouter } from '@ionic/react';
import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { authErrorMessage } from '../auth/auth-error-message.ts';
import { dropHeldPassword, holdPasswordForDevice } from '../auth/held-password.ts';
import { waitForSignIn } from '../auth/wait-for-sign-in.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { useGuardWaitMessage } from '../routing/access-guard-view.tsx';
import { returnPathFromSearch } from '../routing/return-to-link.ts';
import { HOME_PATH, LOGOUT_PATH, RETURN_TO_LINK_PARAM } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { PlainTextField } from '../ui/plain-text-field.tsx';
import { useCommand } from '../ui/use-command.ts';
import { FormError } from '../ui/form-error.tsx';

// It reads the device's database: loaded after the form is painted, so the database's code is not
// in the script the sign-in screen needs first.
const DeviceDataNotice = lazy(() =>
  import('../device-data/device-data-notice.tsx').then((m) => ({ default: m.DeviceDataNotice })),
);

const MIN_ACCOUNT_PASSWORD_LENGTH = 12;

const RESET_LINK_SENT = 'If an account exists for that address, a reset link is on its way.';

/** The part of an address before '@', as the new account's display name. */
function nameFromEmail(email: string): string {
  return email.split('@')[0] ?? email;
}

/** /login: sign in, create an account, or ask for a password reset link. */
export function LoginScreen() {
  const { loadAuthClient, appStore, platform } = useAppServices();
  const signedInEmail = useAppState((state) => state.email);
  const passwordNeededFor = useAppState((state) => state.passwordNeededFor);
  const authenticating = useGuardWaitMessage();
  const { search } = useLocation();
  const ionRouter = useIonRouter();
  const [email, setEmail] = useState('');
  // The account that must sign in with its password once more: its address is filled in.
  const [filledFor, setFilledFor] = useState<string | null>(null);
  if (passwordNeededFor !== null && passwordNeededFor !== filledFor) {
    setFilledFor(passwordNeededFor);
    if (email === '') setEmail(passwordNeededFor);
  }
  const [password, setPassword] = useState('');
  const { busy, error, setError, run } = useCommand();
  const [notice, setNotice] = useState<string | null>(null);

  const returnPath = returnPathFromSearch(search);

  const finishSignIn = async () => {
    await waitForSignIn(appStore);
    ionRouter.navigateRoot(returnPath ?? HOME_PATH);
  };

  /** Runs one action with the form locked, Enter included; any failure ends up in the alert. */
  const act = (work: () => Promise<void>) => {
    if (busy) return;
    setNotice(null);
    void run(authErrorMessage, work);
  };

  /** Says the server's refusal in the alert; true when there was one. */
  const refused = <Answer extends { readonly error: unknown }>(
    answer: Answer,
  ): answer is Exclude<Answer, { readonly error: null }> => {
    if (!answer.error) return false;
    setError(authErrorMessage(answer.error));
    return true;
  };

  const refuse = (message: string) => {
    setNotice(null);
    setError(message);
  };

  const requireEmail = (): string | null => {
    const trimmed = email.trim();
    if (trimmed === '') refuse('Enter your e-mail address.');
    return trimmed === '' ? null : trimmed;
  };

  const requireCredentials = (): { email: string; password: string } | null => {
    const address = requireEmail();
    if (address === null) return null;
    if (password === '') {
      refuse('Enter your password.');
      return null;
    }
    return { email: address, password };
  };

  const signIn = () => {
    const credentials = requireCredentials();
    if (credentials === null) return;
    act(async () => {
      // The account's work on this device is sealed under a key this password opens (issue 38).
      holdPasswordForDevice(credentials.password);
      if (refused(await (await loadAuthClient()).signIn.email(credentials))) {
        dropHeldPassword();
        return;
      }
      await finishSignIn();
    });
  };

  const createAccount = () => {
    const credentials = requireCredentials();
    if (credentials === null) return;
    // The server's rule (packages/server/src/auth/password-policy.ts); it also refuses common
    // and leaked passwords, and its message is shown as it is.
    if (credentials.password.length < MIN_ACCOUNT_PASSWORD_LENGTH) {
      refuse(`Use at least ${MIN_ACCOUNT_PASSWORD_LENGTH} characters for your password.`);
      return;
    }
    const verified = new URLSearchParams({ mode: 'verified' });
    if (returnPath !== null) verified.set(RETURN_TO_LINK_PARAM, returnPath);
    act(async () => {
      holdPasswordForDevice(credentials.password);
      const signUp = await (
        await loadAuthClient()
      ).signUp.email({
        ...credentials,
        name: nameFromEmail(credentials.email),
        callbackURL: `/return-from-login?${verified.toString()}`,
      });
      if (refused(signUp)) {
        dropHeldPassword();
        return;
      }
      // A server that signs new accounts in at once hands out a session token; otherwise
      // sign in now, which tells whether the address must be verified first.
      if (signUp.data.token === null) {
        const signIn = await (await loadAuthClient()).signIn.email(credentials);
        if (signIn.error?.status === 403) {
          dropHeldPassword();
          setNotice(
            `Account created. Open the link we sent to ${credentials.email} to verify it, then sign in.`,
          );
          return;
        }
        if (refused(signIn)) {
          dropHeldPassword();
          return;
        }
      }
      await finishSignIn();
    });
  };

  const forgotPassword = () => {
    const address = requireEmail();
    if (address === null) return;
    act(async () => {
      const result = await (
        await loadAuthClient()
      ).requestPasswordReset({
        email: address,
        redirectTo: '/return-from-login?mode=reset',
      });
      if (refused(result)) return;
      setNotice(RESET_LINK_SENT);
    });
  };

  // Enter signs in from either field, once: the form's own submission on Enter is held back.
  const submitOnEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    signIn();
  };

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
            value={email}
            onChange={setEmail}
            onKeyDown={submitOnEnter}
          />
          <PlainTextField
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={setPassword}
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
