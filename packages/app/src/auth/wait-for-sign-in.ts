import { isSignedIn, type AppStore } from '../state/app-store.ts';

/**
 * How long a sign-in the server accepted may take to show in the app store. Entering the
 * account on this device makes or opens its vault (Argon2id), which takes seconds on a busy
 * phone: navigating before it finished made the guard treat the user as signed out and send
 * them back to the sign-in page, signed in. The form stays busy meanwhile.
 */
export const SIGN_IN_SHOWN_TIMEOUT_MS = 60_000;

/**
 * Settles once the app store shows a signed-in user, or after `timeoutMs`. After a successful
 * sign-in the session store refetches and the account is entered on its own; navigating before
 * that would make the guard treat the user as signed out.
 */
export function waitForSignIn(
  appStore: AppStore,
  timeoutMs = SIGN_IN_SHOWN_TIMEOUT_MS,
): Promise<void> {
  const settled = () => isSignedIn(appStore.get());
  return new Promise((resolve) => {
    if (settled()) {
      resolve();
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    const unsubscribe = appStore.subscribe(() => {
      if (settled()) finish();
    });
  });
}
