import { useIonRouter } from '@ionic/react';
import { readDeviceDataSummary } from '@docket/core/device';
import { pageLocalStore } from '../bills/bill-command-services.ts';
import { removeAccountAtSignOut } from '../local-store/account-databases.ts';
import { liveLinkIds } from '../public-links/link-keys-store.ts';
import { revokeLink } from '../public-links/public-links-api.ts';
import { LOGOUT_PATH } from '../routing/route-paths.ts';
import { useAppServices } from '../services/app-services.ts';
import { useAppState } from '../state/use-app-state.ts';
import { useStatusToast } from '../toasts/status-toast.ts';
import { plural } from '../ui/formatting.ts';
import { useAlert } from '../ui/lazy-overlays.ts';
import { deviceDataWords } from './device-data-words.ts';

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
    Promise.all(linkIds.map((id) => revokeLink(api, id))).then(
      removeAndSignOut,
      (error: unknown) => {
        toast.failed(
          `The links could not be revoked, and nothing was removed: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  };

  const askRemove = async () => {
    const [summary, links] = await Promise.all([
      pageLocalStore().then(readDeviceDataSummary),
      liveLinkIds(),
    ]);
    const message =
      `Your work on this device is deleted from it: ${deviceDataWords(summary)}, with the trace ` +
      'and drafts. ' +
      (summary.unsynced > 0
        ? `${plural(summary.unsynced, 'change was', 'changes were')} never synced and will be lost. `
        : 'What was synced stays on the server. ') +
      (links.length > 0
        ? `${plural(links.length, 'public link', 'public links')} made here ${links.length === 1 ? 'stays' : 'stay'} live: anyone holding ${links.length === 1 ? 'it' : 'them'} can still open ${links.length === 1 ? 'it' : 'them'} until revoked. `
        : '') +
      'Make a full backup first to keep a copy.';
    await presentAlert({
      header: 'Remove from this device?',
      message,
      buttons: [
        {
          text: 'Make a full backup first',
          handler: () => {
            ionRouter.push('/add-full-backup');
          },
        },
        ...(links.length > 0
          ? [
              {
                text: `Revoke the ${plural(links.length, 'link')} and remove`,
                role: 'destructive',
                handler: () => {
                  revokeThenRemove(links);
                },
              },
            ]
          : []),
        { text: 'Remove', role: 'destructive', handler: removeAndSignOut },
        { text: 'Cancel', role: 'cancel' },
      ],
    });
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
