import { type runSync, type SyncTransport, workspaceSync } from '@docket/core/sync';
import type { WebCryptoPort } from '@docket/core/crypto';
import type { DeviceCloudKeys } from './cloud-keys-store.ts';
import type { WorkspaceSyncTarget } from './sync-runner-types.ts';

/** What `runSync` is told of the log it syncs with: where it is and how its changes are sealed. */
export type SyncSpace = Pick<Parameters<typeof runSync>[0], 'transport' | 'session' | 'envelopes'>;

/**
 * The log a run syncs with: the account's own, under this device's cloud keys and the settings'
 * epoch, or a team workspace's, under its key ring (fetched afresh for each run, so a rotation
 * is seen) and its own cursor.
 */
export async function syncSpace(input: {
  readonly crypto: WebCryptoPort;
  readonly transport: SyncTransport;
  readonly workspace: WorkspaceSyncTarget | null;
  readonly userId: string;
  readonly deviceId: string;
  readonly keys: DeviceCloudKeys;
  readonly epochStartSeqno: number;
}): Promise<SyncSpace> {
  const { workspace, userId, deviceId, keys } = input;
  if (workspace === null) {
    return {
      transport: input.transport,
      session: {
        userId,
        deviceId,
        epoch: keys.keyEpoch,
        dataKey: keys.dataKey,
        epochStartSeqno: input.epochStartSeqno,
      },
    };
  }
  return {
    transport: workspace.transport,
    ...workspaceSync(input.crypto, {
      workspaceId: workspace.workspaceId,
      userId,
      deviceId,
      keyring: await workspace.keyring(),
      readOnly: workspace.readOnly === true,
    }),
  };
}
