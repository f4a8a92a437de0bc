import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { docketDatabaseNames, sharedActiveDatabase } from '../local-store/account-databases.ts';
import { openIndexedDbLocalStore } from '../local-store/indexeddb-local-store.ts';
import { jobLockName } from '../import-worker/job-locks.ts';
import { browserJobLocks, createWebImportRunner } from '../import-worker/web-import-runner.ts';
import { runBackgroundRefresh } from './background-refresh.ts';
import { BACKGROUND_REFRESH_TAG } from '../changes/periodic-refresh.ts';

// Docket's service worker (vite-plugin-pwa's injectManifest builds it into dist/sw.js, with the
// precache list in place of self.__WB_MANIFEST). What it did as Workbox's generated worker, the
// same: the whole shell precached, navigations answered with /index.html except /api, the first
// worker taking over open pages at once while an update waits for every tab to close. And the
// periodic background sync: "Refresh all" with no page open (background-refresh.ts).

/** The parts of ServiceWorkerGlobalScope used here (the app's TypeScript lib is the DOM's). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PeriodicSyncEvent extends ExtendableEvent {
  readonly tag: string;
}
interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly __WB_MANIFEST: (string | { url: string; revision: string | null })[];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
  addEventListener(type: 'periodicsync', listener: (event: PeriodicSyncEvent) => void): void;
}
const scope = self as unknown as ServiceWorkerScope;

// workbox-window's messageSkipWaiting(), as the generated worker answered it.
scope.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void scope.skipWaiting();
});
clientsClaim();
// Written out as `self.__WB_MANIFEST`: the build puts the precache list in its place.
precacheAndRoute((self as unknown as ServiceWorkerScope).__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/] }),
);

/** The user of the session the server confirms for this browser's cookie; a server that cannot
 *  be reached counts as none (the relay would refuse the downloads anyway). */
async function sessionUserId(): Promise<string | null> {
  try {
    const response = await fetch('/api/auth/get-session', { credentials: 'same-origin' });
    if (!response.ok) return null;
    const session = (await response.json()) as { user?: { id?: unknown } | null } | null;
    return typeof session?.user?.id === 'string' ? session.user.id : null;
  } catch {
    return null;
  }
}

/** The signed-in account's own database (the page tells it, account-databases.ts), if it exists. */
async function signedInAccountDatabase(): Promise<string | null> {
  const userId = await sessionUserId();
  if (userId === null) return null;
  const database = await sharedActiveDatabase(userId);
  return database !== null && (await docketDatabaseNames()).includes(database) ? database : null;
}

function backgroundRefresh(): Promise<void> {
  const locks = browserJobLocks();
  // Only the account signed in on this browser is refreshed, in its own database.
  let database: string | null = null;
  return runBackgroundRefresh({
    hasLocalData: async () => {
      database = await signedInAccountDatabase();
      return database !== null;
    },
    openStore: () =>
      database === null
        ? Promise.reject(new Error('no account is signed in'))
        : openIndexedDbLocalStore({ name: database }),
    signedIn: async () => (await sessionUserId()) !== null,
    // A service worker cannot start workers: the runner parses in this thread.
    createRunner: (store) =>
      createWebImportRunner(store, { locks, fetch: (url, init) => fetch(url, init) }),
    jobEnded: (jobId) => locks.hold(jobLockName(jobId), () => Promise.resolve()),
    alertsAllowed: () =>
      typeof Notification !== 'undefined' && Notification.permission === 'granted',
    showAlert: ({ title, body, tag }) => scope.registration.showNotification(title, { body, tag }),
    now: () => new Date().toISOString(),
  }).then(
    (outcome) => {
      console.info('[docket] Background refresh:', outcome);
    },
    (error: unknown) => {
      console.error('[docket] The background refresh failed:', error);
    },
  );
}

scope.addEventListener('periodicsync', (event) => {
  if (event.tag === BACKGROUND_REFRESH_TAG) event.waitUntil(backgroundRefresh());
});
