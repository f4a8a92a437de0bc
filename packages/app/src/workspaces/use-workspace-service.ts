import { useMemo } from 'react';
import { useBackupKeys } from '../backups/backup-keys.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { useAppServices } from '../services/app-services.ts';
import { createWorkspaceService, type WorkspaceService } from './workspace-service.ts';

// The workspace service for the signed-in account on this device, once the device holds the
// account's cloud keys (the member private key is wrapped under the cloud data key). The keys are
// watched live, as the backup screens watch them: entering the cloud password makes the
// workspace screens usable without a reload.

export type WorkspaceAccess =
  | { readonly status: 'loading' }
  | { readonly status: 'signed-out' }
  | { readonly status: 'no-password' }
  | { readonly status: 'ready'; readonly service: WorkspaceService };

export function useWorkspaceService(): WorkspaceAccess {
  const { api } = useAppServices();
  const keys = useBackupKeys();
  const userId = keys.status === 'ready' ? keys.userId : null;
  const dataKey = keys.status === 'ready' ? keys.keys.dataKey : null;
  const keyEpoch = keys.status === 'ready' ? keys.keys.keyEpoch : null;
  const service = useMemo(
    () =>
      userId === null || dataKey === null || keyEpoch === null
        ? null
        : createWorkspaceService({ api, crypto: browserCrypto, userId, dataKey, keyEpoch }),
    [api, userId, dataKey, keyEpoch],
  );
  if (keys.status !== 'ready' || service === null) {
    return keys.status === 'ready' ? { status: 'loading' } : { status: keys.status };
  }
  return { status: 'ready', service };
}
