import { isSignedIn, type AppStore } from '../state/app-store.ts';

/**
 * Settles once the app store shows a signed-in user, or after `timeoutMs`. After a successful
 * sign-in the session store refetches on its own; navigating before it answered would make the
 * guard treat the user as signed out.
 */
export function waitForSignIn(appStore: AppStore, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (isSignedIn(appStore.get())) {
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
      if (isSignedIn(appStore.get())) finish();
    });
  });
}
