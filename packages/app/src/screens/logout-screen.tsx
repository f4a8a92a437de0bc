import { IonSpinner } from '@ionic/react';
import { useEffect, useEffectEvent } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { logout } from '../auth/logout.ts';
import { removeStoredAuthRecord } from '../auth/stored-auth-record.ts';
import { stopBackgroundRefresh } from '../changes/periodic-refresh.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { LOGIN_PATH } from '../routing/route-paths.ts';

/** One logout at a time, even if the route mounts twice while it runs. */
let logoutInFlight: Promise<void> | null = null;

/** /logout: clears the stored auth record, signs out and goes to /login. */
export function LogoutScreen() {
  const { platform, loadAuthClient, authSync } = useAppServices();

  const start = useEffectEvent(() => {
    logoutInFlight ??= logout({
      clearAuthRecord: async () => {
        await removeStoredAuthRecord(platform.store);
        // No user, no background refresh (the service worker also asks the server first).
        if (platform.usesServiceWorker) {
          await stopBackgroundRefresh().catch((error: unknown) => {
            console.error('[docket] Could not stop the background refresh:', error);
          });
        }
      },
      signOut: async () => {
        try {
          const result = await (await loadAuthClient()).signOut();
          if (result.error) {
            console.warn('[docket] The server did not confirm the sign-out:', result.error);
          }
        } finally {
          // Signed out on this device even when the server could not be told.
          await platform.auth.forgetToken();
          authSync.markSignedOut();
        }
      },
      navigateToLogin: () => {
        // A full load: nothing of the account (its open database, live reads, Undo, workers)
        // stays in memory for whoever signs in next (local-store/account-databases.ts).
        window.location.replace(LOGIN_PATH);
      },
    }).finally(() => {
      logoutInFlight = null;
    });
  });

  useEffect(() => {
    start();
  }, []);

  return (
    <>
      <PageHeader title="Sign out" />
      <PageBody>
        <h1>Signing out</h1>
        <div className="guard-wait" role="status">
          <IonSpinner aria-hidden="true" name="crescent" color="primary" />
          <p>Signing out…</p>
        </div>
      </PageBody>
    </>
  );
}
