// The page's side of the background refresh (service-worker/background-refresh.ts runs it in the service
// worker): registering the browser's periodic background sync at the "Refresh datasets
// automatically" interval, dropping it when that is turned off or the user signs out, and whether
// this browser offers it at all, for Settings to say. Chromium offers it to an installed app the
// user engages with (the 'periodic-background-sync' permission); other browsers do not have it.

/** The periodic background sync's tag, which the service worker answers. */
export const BACKGROUND_REFRESH_TAG = 'docket-refresh';

const HOUR_MS = 60 * 60 * 1000;

/** The Periodic Background Sync API, not in TypeScript's DOM library. */
interface PeriodicSyncManager {
  register(tag: string, options?: { minInterval?: number }): Promise<void>;
  unregister(tag: string): Promise<void>;
  getTags(): Promise<string[]>;
}
type WithPeriodicSync = ServiceWorkerRegistration & { periodicSync?: PeriodicSyncManager };

function periodicSyncOf(registration: ServiceWorkerRegistration | undefined) {
  return (registration as WithPeriodicSync | undefined)?.periodicSync ?? null;
}

/**
 * Whether this browser runs the background refresh: 'allowed'; 'not-allowed' when it has the API
 * but not the permission here (Chromium grants it to an installed app the user engages with);
 * 'unsupported' when it has no such thing.
 */
export type BackgroundRefreshState = 'allowed' | 'not-allowed' | 'unsupported';

export async function backgroundRefreshState(): Promise<BackgroundRefreshState> {
  if (!('serviceWorker' in navigator)) return 'unsupported';
  if (
    typeof ServiceWorkerRegistration === 'undefined' ||
    !('periodicSync' in ServiceWorkerRegistration.prototype)
  ) {
    return 'unsupported';
  }
  try {
    const status = await navigator.permissions.query({
      name: 'periodic-background-sync' as PermissionName,
    });
    return status.state === 'granted' ? 'allowed' : 'not-allowed';
  } catch {
    // A browser that does not know the permission's name.
    return 'unsupported';
  }
}

/** Whether this browser would run the background refresh: it has the API and allows it here. */
export async function backgroundRefreshAvailable(): Promise<boolean> {
  return (await backgroundRefreshState()) === 'allowed';
}

/**
 * Keeps the periodic sync in step with the setting, once the service worker is active (it is
 * registered 30 s after the app is stable): registered every `hours` (0: dropped). Resolves to
 * whether the browser now runs the refresh in the background.
 */
export async function keepBackgroundRefresh(hours: number): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const sync = periodicSyncOf(await navigator.serviceWorker.ready);
  if (sync === null) return false;
  if (hours <= 0) {
    await sync.unregister(BACKGROUND_REFRESH_TAG);
    return false;
  }
  if (!(await backgroundRefreshAvailable())) return false;
  await sync.register(BACKGROUND_REFRESH_TAG, { minInterval: hours * HOUR_MS });
  return true;
}

/** Drops the periodic sync (signing out): a device without a user refreshes nothing. */
export async function stopBackgroundRefresh(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const sync = periodicSyncOf(await navigator.serviceWorker.getRegistration('/'));
  await sync?.unregister(BACKGROUND_REFRESH_TAG);
}
