import { useSyncExternalStore } from 'react';
import { useAppServices } from '../services/app-services.ts';
import type { SyncRunnerState } from './sync-runner-types.ts';

/** The sync runner's state, kept current. */
export function useSyncState(): SyncRunnerState {
  const { sync } = useAppServices();
  return useSyncExternalStore(sync.subscribe, sync.get);
}
