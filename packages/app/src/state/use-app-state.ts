import { useSyncExternalStore } from 'react';
import { useAppServices } from '../services/app-services.ts';
import type { AppState } from './app-store.ts';

/** One field (or any primitive derived from the state) of the app store, kept current. */
export function useAppState<T>(select: (state: AppState) => T): T {
  const { appStore } = useAppServices();
  return useSyncExternalStore(appStore.subscribe, () => select(appStore.get()));
}
