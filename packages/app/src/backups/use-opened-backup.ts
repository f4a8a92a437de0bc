import { useEffect, useState } from 'react';
import { useAppServices } from '../services/app-services.ts';
import { openBackup, type OpenedBackup } from './backup-actions.ts';
import type { BackupKeys } from './backup-keys.ts';

export type OpenedBackupState =
  | { readonly status: 'loading' }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'open'; readonly backup: OpenedBackup };

/** Downloads and decrypts one backup for a screen; nothing of it touches the local data. */
export function useOpenedBackup(id: string | undefined, keys: BackupKeys): OpenedBackupState {
  const { api } = useAppServices();
  // Each answer is kept with the request it answers, so a stale one never shows.
  const [state, setState] = useState<{ request: string; value: OpenedBackupState } | null>(null);
  const userId = keys.status === 'ready' ? keys.userId : null;
  const ready = keys.status === 'ready' ? keys : null;
  const request = `${userId ?? ''}|${id ?? ''}|${ready?.keys.keyEpoch ?? ''}`;
  useEffect(() => {
    if (id === undefined || userId === null || ready === null) return;
    let live = true;
    openBackup(api, userId, ready.keys, id).then(
      (backup) => {
        if (live) setState({ request, value: { status: 'open', backup } });
      },
      (error: unknown) => {
        if (live) {
          setState({
            request,
            value: {
              status: 'failed',
              message: error instanceof Error ? error.message : 'This backup could not be opened.',
            },
          });
        }
      },
    );
    return () => {
      live = false;
    };
    // The keys object changes identity on every live-query run; its epoch is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, request]);
  return state?.request === request ? state.value : { status: 'loading' };
}
