import { useIonRouter } from '@ionic/react';
import { readDeviceDataSummary } from '@docket/core/device';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { removeAccountAtSignOut } from '../local-store/account-databases.ts';
import { liveLinks } from '../public-links/link-keys-store.ts';
import { revokeLink } from '../public-links/public-links-api.ts';
import { LOGOUT_PATH } from '../routing/route-paths.ts';
import { useAppServices } from '../services/app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { removeAlert, revokeEach } from './remove-from-device.ts';

// "Sign out" asks what becomes of the account's work on this device (issue 38): kept, for the
// next sign-in, where no other account on this browser can open it (the default); or removed,
// its database deleted, after offering a full backup and naming the public links that stay live.

const log = (what: string) => (error: unknown) => {
  console.error(`[docket] ${what}`, error);
};

/** The More tab's "Sign out": asks, then goes to /logout. */
export function useSignOutChoice(): () => void {
  const [presentAlert] = useAlert();
  const ionRouter = useIonRouter();
  const { api } = useAppServices();
  const userId = useAppState((state) => state.user?.id ?? null);
  const toast = useStatusToast();

  const signOut = () => {
    ionRouter.push(LOGOUT_PATH, 'root', 'replace');
  };
  const removeAndSignOut = () => {
    if (userId !== null) removeAccountAtSignOut(userId);
    signOut();
  };
  const revokeThenRemove = (linkIds: readonly string[]) => {
    revokeEach(linkIds, (id) => revokeLink(api, id)).then(removeAndSignOut, (error: unknown) => {
      toast.failed(
        `The links could not be revoked, and nothing was removed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };

  const askRemove = async () => {
    const [summary, links] = await Promise.all([
      pageLocalStore().then(readDeviceDataSummary),
      liveLinks(api),
    ]);
    await presentAlert(
      removeAlert(summary, links, {
        backUpFirst: () => {
          ionRouter.push('/add-full-backup');
        },
        remove: removeAndSignOut,
        revokeThenRemove,
      }),
    );
  };

  return () => {
    presentAlert({
      header: 'Sign out',
      message:
        'Keep your work on this device for your next sign-in: no other account on this browser ' +
        'can open it. Or remove it from this device.',
      buttons: [
        { text: 'Keep on this device, locked', handler: signOut },
        {
          text: 'Remove from this device',
          role: 'destructive',
          handler: () => {
            askRemove().catch(log('Could not ask before removing the account’s data:'));
          },
        },
        { text: 'Cancel', role: 'cancel' },
      ],
    }).catch(log('Could not ask how to sign out:'));
  };
}
