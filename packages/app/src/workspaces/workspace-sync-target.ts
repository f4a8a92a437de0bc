import type { OpaqueCryptoKey } from '@docket/core/crypto';
import type { ApiClient } from '../api/api-client.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { activeWorkspaceId } from '../local-store/account-databases.ts';
import { spaceIsReadOnly } from '../local-store/space-role.ts';
import { createWorkspaceService, type WorkspaceService } from './workspace-service.ts';
import { workspaceSyncTransport } from '../api/workspaces-api.ts';

/**
 * What sync needs of the team workspace whose space this page opened (local-store's
 * space-databases.ts), or null in the personal space: the workspace's log and its key ring,
 * opened with the account's member key (itself wrapped under the cloud data key). The sync
 * runner (sync/sync-runner.ts, `workspace`) asks before each run, so a key rotated since is
 * fetched then. A viewer's runs only pull (local-store/space-role.ts).
 */
export function activeWorkspaceSync(api: ApiClient) {
  let service: WorkspaceService | null = null;
  let serviceKey: OpaqueCryptoKey | null = null;
  return (
    userId: string,
    { dataKey, keyEpoch }: { dataKey: OpaqueCryptoKey; keyEpoch: number },
  ) => {
    const workspaceId = activeWorkspaceId();
    if (workspaceId === null) return Promise.resolve(null);
    // Made again for another account, or after a cloud-password reset gave the account a new key.
    if (service?.userId !== userId || serviceKey !== dataKey) {
      service = createWorkspaceService({ api, crypto: browserCrypto, userId, dataKey, keyEpoch });
      serviceKey = dataKey;
    }
    const current = service;
    return Promise.resolve({
      workspaceId,
      transport: workspaceSyncTransport(api, workspaceId),
      keyring: () => current.keyring(workspaceId),
      readOnly: spaceIsReadOnly(),
    });
  };
}
