import { publicLinkUrl } from '@docket/core/backups';
import { proxy } from 'comlink';
import { ApiRequestError, type ApiClient } from '../api/api-client.ts';
import { uploadBackup } from '../backups/backups-api.ts';
import { saveLinkKey } from '../public-links/link-keys-store.ts';
import { createLink } from '../public-links/public-links-api.ts';
import type { DeviceCloudKeys } from '../sync/cloud-keys-store.ts';
import { userDataWorker } from '../user-data-worker/user-data-client.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';

// "Share" on the Tracked tab, what it does: the list's bills become a backup of their own (the
// user's tags, positions, decisions and notes on exactly those bills, sealed with the sync data
// key as every backup is, and listed under Backups), and that backup a public link sealed under
// a fresh key, as "Create link" on a backup's link screen makes one. The user-data worker reads,
// seals and runs it as a 'backup' job (backup-runner.ts, shareList); the page makes the calls to
// the server, whose client carries the platform's credentials. Loaded only when a list is shared.

export interface ListToShare {
  readonly api: ApiClient;
  readonly userId: string;
  readonly keys: DeviceCloudKeys;
  /** The list's name ("Tracked · Housing"): the backup's and the link page's heading. */
  readonly name: string;
  /** The bills the list shows, in its order. */
  readonly billIds: readonly string[];
  /** Whether the sharer's notes on those bills go into the link. */
  readonly notes: boolean;
  /** Where the app is served: the link's address starts with it. */
  readonly origin: string;
}

export interface SharedListLink {
  readonly url: string;
  readonly linkId: string;
  readonly backupId: string;
}

function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'The link was not created.';
}

/**
 * The team workspace the list is shared from, by its name (the link's page says "From Health
 * team", never which member shared it); undefined from the personal space. A name that cannot be
 * opened here (no key yet, offline) stops the share: the link would not say where it comes from.
 */
async function sharedFrom(list: ListToShare): Promise<string | undefined> {
  const workspaceId = activeWorkspaceId();
  if (workspaceId === null) return undefined;
  const { createWorkspaceService } = await import('../workspaces/workspace-service.ts');
  const service = createWorkspaceService({
    api: list.api,
    crypto: browserCrypto,
    userId: list.userId,
    dataKey: list.keys.dataKey,
    keyEpoch: list.keys.keyEpoch,
  });
  const name = (await service.list()).find((workspace) => workspace.id === workspaceId)?.name;
  if (name === undefined || name === null) {
    throw new Error(
      'The workspace’s name could not be opened on this device, and a link from it says the workspace it comes from. Try again once the owner has confirmed you, with a connection.',
    );
  }
  return name;
}

/** Shares the list as a public link; rejects with an Error whose message is for the user. */
export async function shareListAsLink(list: ListToShare): Promise<SharedListLink> {
  let shared;
  try {
    const workspace = await sharedFrom(list);
    shared = await userDataWorker().shareList(
      {
        userId: list.userId,
        epoch: list.keys.keyEpoch,
        dataKey: list.keys.dataKey,
        name: list.name,
        description: '',
        billIds: [...list.billIds],
        notes: list.notes,
        workspace,
        workspaceId: activeWorkspaceId(),
      },
      proxy(async (body) => {
        await uploadBackup(list.api, body);
      }),
      proxy(async (body) => {
        await createLink(list.api, body);
      }),
    );
  } catch (error) {
    throw new Error(messageOf(error));
  }
  // What the link holds is kept on this device, so the backup's link screen can say it; its key
  // is not (the product's default, issue 38): it is copied or shared from the sheet that made it.
  await saveLinkKey(shared.linkId, null, { choices: shared.choices, counts: shared.counts });
  return {
    url: publicLinkUrl(list.origin, shared.linkId, shared.fragmentKey),
    linkId: shared.linkId,
    backupId: shared.backupId,
  };
}
