import { createContext, use } from 'react';
import type { ApiClient } from '../api/api-client.ts';
import type { DocketAuthClient } from '../auth/auth-client.ts';
import type { AuthSessionSync } from '../auth/auth-session-sync.ts';
import type { Platform } from '../platform/platform.ts';
import type { AppStore } from '../state/app-store.ts';
import type { SyncRunnerApi } from '../sync/lazy-sync-runner.ts';

/** The long-lived services made at startup, handed to screens through React context. */
export interface AppServices {
  readonly platform: Platform;
  readonly appStore: AppStore;
  /** better-auth's client, loaded on first call (auth/lazy-auth-client.ts). */
  readonly loadAuthClient: () => Promise<DocketAuthClient>;
  readonly authSync: AuthSessionSync;
  readonly api: ApiClient;
  /** Sync for the signed-in user (sync/sync-runner.ts). */
  readonly sync: SyncRunnerApi;
  /**
   * Settles once the first screen had its turn (app-stability.ts, afterStart): background work
   * waits for it, so a cold start's reads and requests are the first screen's own.
   */
  readonly started: Promise<void>;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = use(AppServicesContext);
  if (!services) throw new Error('useAppServices needs an AppServicesContext provider.');
  return services;
}
