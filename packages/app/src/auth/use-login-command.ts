import { useState } from 'react';
import { useCommand } from '../ui/use-command.ts';
import { authErrorMessage } from './auth-error-message.ts';

// The sign-in form's way of running its actions (screens/login-screen.tsx): one at a time with
// the form locked, the server's refusal or a missing field in the alert, an outcome in a notice.

/** Says the server's refusal in the alert; true when there was one. */
export type LoginRefused = <Answer extends { readonly error: unknown }>(
  answer: Answer,
) => answer is Exclude<Answer, { readonly error: null }>;

/** An address and password as typed, the address trimmed. */
export interface LoginCredentials {
  email: string;
  password: string;
}

/** What the sign-in form's actions share: the lock, the alert and the notice. */
export interface LoginCommand {
  readonly busy: boolean;
  readonly error: string | null;
  readonly notice: string | null;
  readonly setNotice: (notice: string | null) => void;
  /** Runs one action with the form locked, Enter included; any failure ends up in the alert. */
  readonly act: (work: () => Promise<void>) => void;
  readonly refused: LoginRefused;
  /** Says why the form was not sent, in the alert. */
  readonly refuse: (message: string) => void;
  /** The address typed, trimmed; null (and said) when there is none. */
  readonly requireEmail: () => string | null;
  /** The address and password; null (and said) when one is missing. */
  readonly requireCredentials: () => LoginCredentials | null;
}

/**
 * The lock, alert and notice of the sign-in form, and its checks of the fields `email` and
 * `password` before anything is sent.
 */
export function useLoginCommand(email: string, password: string): LoginCommand {
  const { busy, error, setError, run } = useCommand();
  const [notice, setNotice] = useState<string | null>(null);

  const act = (work: () => Promise<void>) => {
    if (busy) return;
    setNotice(null);
    void run(authErrorMessage, work);
  };

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

  const requireCredentials = (): LoginCredentials | null => {
    const address = requireEmail();
    if (address === null) return null;
    if (password === '') {
      refuse('Enter your password.');
      return null;
    }
    return { email: address, password };
  };

  return { busy, error, notice, setNotice, act, refused, refuse, requireEmail, requireCredentials };
}
