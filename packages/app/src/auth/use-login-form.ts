import { useState } from 'react';
import { useAppServices, type AppServices } from '../services/app-services.ts';
import { dropHeldPassword, holdPasswordForDevice } from './held-password.ts';
import { useLoginCommand, type LoginCredentials, type LoginRefused } from './use-login-command.ts';
import { waitForSignIn } from './wait-for-sign-in.ts';

// The sign-in form's fields and its use cases (screens/login-screen.tsx): signing in, creating an
// account (then signing in, unless its address must be verified first) and asking for a password
// reset link.

const MIN_ACCOUNT_PASSWORD_LENGTH = 12;

const RESET_LINK_SENT = 'If an account exists for that address, a reset link is on its way.';

/** The part of an address before '@', as the new account's display name. */
function nameFromEmail(email: string): string {
  return email.split('@')[0] ?? email;
}

/** The sign-in form's two fields. */
export interface LoginFields {
  readonly email: string;
  readonly setEmail: (email: string) => void;
  readonly password: string;
  readonly setPassword: (password: string) => void;
}

/**
 * The form's address and password; the address is filled in (when empty) for `passwordNeededFor`,
 * the account that must sign in with its password once more.
 */
export function useLoginFields(passwordNeededFor: string | null): LoginFields {
  const [email, setEmail] = useState('');
  // The account that must sign in with its password once more: its address is filled in.
  const [filledFor, setFilledFor] = useState<string | null>(null);
  if (passwordNeededFor !== null && passwordNeededFor !== filledFor) {
    setFilledFor(passwordNeededFor);
    if (email === '') setEmail(passwordNeededFor);
  }
  const [password, setPassword] = useState('');
  return { email, setEmail, password, setPassword };
}

/**
 * Creates the account and, unless the server signed it in at once, signs it in: 'unverified'
 * when its address must be verified first, 'refused' when the server said no (in the alert).
 */
async function signUpAndSignIn(
  loadAuthClient: AppServices['loadAuthClient'],
  credentials: LoginCredentials,
  callbackURL: string,
  refused: LoginRefused,
): Promise<'signed-in' | 'unverified' | 'refused'> {
  const signUp = await (
    await loadAuthClient()
  ).signUp.email({
    ...credentials,
    name: nameFromEmail(credentials.email),
    callbackURL,
  });
  if (refused(signUp)) return 'refused';
  // A server that signs new accounts in at once hands out a session token; otherwise
  // sign in now, which tells whether the address must be verified first.
  if (signUp.data.token === null) {
    const signIn = await (await loadAuthClient()).signIn.email(credentials);
    if (signIn.error?.status === 403) return 'unverified';
    if (refused(signIn)) return 'refused';
  }
  return 'signed-in';
}

/** What the sign-in form needs to act. */
export interface LoginActionsInput {
  readonly email: string;
  readonly password: string;
  /** Where the link of the e-mail that verifies a new account's address lands. */
  readonly verifiedCallbackURL: string;
  /** Called once the app store shows the user signed in. */
  readonly onSignedIn: () => void;
}

/** The sign-in form's state and its three actions. */
export interface LoginActions {
  readonly busy: boolean;
  readonly error: string | null;
  readonly notice: string | null;
  readonly signIn: () => void;
  readonly createAccount: () => void;
  readonly forgotPassword: () => void;
}

/** Sign in, create an account, or ask for a password reset link, one at a time. */
export function useLoginActions(input: LoginActionsInput): LoginActions {
  const { email, password, verifiedCallbackURL, onSignedIn } = input;
  const { loadAuthClient, appStore } = useAppServices();
  const { busy, error, notice, setNotice, act, refused, refuse, requireEmail, requireCredentials } =
    useLoginCommand(email, password);

  const finishSignIn = async () => {
    await waitForSignIn(appStore);
    onSignedIn();
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
    act(async () => {
      holdPasswordForDevice(credentials.password);
      const outcome = await signUpAndSignIn(
        loadAuthClient,
        credentials,
        verifiedCallbackURL,
        refused,
      );
      if (outcome === 'signed-in') {
        await finishSignIn();
        return;
      }
      dropHeldPassword();
      if (outcome === 'unverified') {
        setNotice(
          `Account created. Open the link we sent to ${credentials.email} to verify it, then sign in.`,
        );
      }
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

  return { busy, error, notice, signIn, createAccount, forgotPassword };
}
