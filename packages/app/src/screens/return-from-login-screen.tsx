import { IonButton } from '@ionic/react';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { authErrorMessage } from '../auth/auth-error-message.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { returnPathFromSearch } from '../routing/return-to-link.ts';
import { HOME_PATH, LOGIN_PATH, loginPathReturningTo } from '../routing/route-paths.ts';
import { useAppState } from '../state/use-app-state.ts';
import { TextField } from '../ui/text-field.tsx';
import { useCommand } from '../ui/use-command.ts';
import { FormError } from '../ui/form-error.tsx';

/** better-auth's error codes on e-mail links, in words. */
const linkErrorMessages: Record<string, string> = {
  INVALID_TOKEN: 'This link is invalid or has expired. Ask for a new one from the sign-in page.',
  invalid_token: 'This link is invalid or has expired. Ask for a new one from the sign-in page.',
  token_expired: 'This link has expired. Ask for a new one from the sign-in page.',
  user_not_found: 'There is no account for this link any more.',
};

function ResetPasswordForm({ token }: { readonly token: string }) {
  const { loadAuthClient } = useAppServices();
  const [password, setPassword] = useState('');
  const { busy, error, setError, run } = useCommand();
  const [done, setDone] = useState(false);

  const setNewPassword = async () => {
    if (password === '') {
      setError('Enter a new password.');
      return;
    }
    await run(authErrorMessage, async () => {
      const result = await (await loadAuthClient()).resetPassword({ newPassword: password, token });
      if (result.error) setError(authErrorMessage(result.error));
      else setDone(true);
    });
  };

  if (done) {
    return (
      <>
        <p role="status">Your password has been changed.</p>
        <p>
          <Link to={LOGIN_PATH}>Sign in</Link> with your new password.
        </p>
      </>
    );
  }
  return (
    <form
      className="login-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void setNewPassword();
      }}
    >
      <TextField
        label="New password"
        type="password"
        autocomplete="new-password"
        required
        value={password}
        onChange={setPassword}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void setNewPassword();
        }}
      />
      <FormError message={error} />
      <IonButton type="submit" expand="block" disabled={busy}>
        Set password
      </IonButton>
    </form>
  );
}

/**
 * The verification link signs nobody in (the server's `autoSignInAfterVerification` is off): an
 * account's work on this device opens only with its password (issue 38), so a browser without a
 * session is sent to sign in, coming back where the link pointed.
 */
function Verified({ next }: { readonly next: string }) {
  const signedIn = useAppState((state) => state.user !== null);
  return (
    <>
      <p>Your e-mail address is verified.</p>
      {signedIn ? (
        <p>
          <Link to={next}>Continue</Link>
        </p>
      ) : (
        <p>
          <Link to={loginPathReturningTo(next)}>Sign in</Link> with your password to continue.
        </p>
      )}
    </>
  );
}

/** /return-from-login: where the e-mail links for password reset and verification land. */
export function ReturnFromLoginScreen() {
  const { search } = useLocation();
  const query = new URLSearchParams(search);
  const error = query.get('error');
  const mode = query.get('mode');
  const token = query.get('token');

  let heading: string;
  let body: ReactNode;
  if (error !== null) {
    heading = 'This link did not work';
    body = (
      <>
        <p role="alert">{linkErrorMessages[error] ?? `The server reported an error: ${error}.`}</p>
        <p>
          <Link to={LOGIN_PATH}>Go to sign in</Link>
        </p>
      </>
    );
  } else if (mode === 'reset' && token !== null) {
    heading = 'Set a new password';
    body = <ResetPasswordForm token={token} />;
  } else if (mode === 'verified') {
    heading = 'E-mail verified';
    body = <Verified next={returnPathFromSearch(search) ?? HOME_PATH} />;
  } else {
    heading = 'Nothing to finish here';
    body = (
      <p>
        This page finishes what a link from a Docket e-mail started.{' '}
        <Link to={LOGIN_PATH}>Go to sign in</Link>
      </p>
    );
  }

  return (
    <>
      <PageHeader title="Docket" />
      <PageBody>
        <h1>{heading}</h1>
        {body}
      </PageBody>
    </>
  );
}
