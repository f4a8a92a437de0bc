import { setupIonicReact } from '@ionic/react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/api-client.ts';
import { App } from './app.tsx';
import type { AppServices } from './services/app-services.ts';
import { lazyAuthClient } from './auth/lazy-auth-client.ts';
import { startAuthSessionSync } from './auth/auth-session-sync.ts';
import {
  accountIsActive,
  enterAccountDatabase,
  finishRemovals,
  leaveAccountDatabase,
} from './local-store/account-databases.ts';
import { createErrorReporter, type ErrorReporter } from './error-reporting/error-reporter.ts';
import type { Platform } from './platform/platform.ts';
import { pickPlatform } from './platform/pick-platform.ts';
import {
  afterStart,
  createSignal,
  whenReady,
  windowLoaded,
} from './service-worker/app-stability.ts';
import { scheduleServiceWorkerRegistration } from './service-worker/service-worker-schedule.ts';
import { installTraversalListener } from './ui/history-traversal-listener.ts';
import { ionicScrollAssists } from './ui/ionic-scroll-assist.ts';
import { startKeepingFocusInView } from './ui/keep-focus-in-view.ts';
import { createAppStore, type AppStore } from './state/app-store.ts';
import { HOME_PATH, HOME_TAB_PATH } from './routing/route-paths.ts';
import { addressAfterAccountReload } from './routing/return-to-link.ts';
import { createLazySyncRunner, type LazySyncRunner } from './sync/lazy-sync-runner.ts';

export const LOG_PREFIX = '[docket]';

/**
 * The page's connection to the device's database, loaded when first used: the database's code
 * (Dexie, core's store) is not in the script the sign-in screen needs before its first paint.
 */
const pageLocalStore = async () =>
  (await import('./bills/bill-command-services.ts')).pageLocalStore();

/** The paths that open the deck: home, the tabs, the Bills tab. */
const DECK_PATHS: ReadonlySet<string> = new Set([HOME_PATH, '/tabs', HOME_TAB_PATH]);

/** The deck's screen code and the page's database connection, ahead of the guard. */
async function preloadDeck(): Promise<void> {
  await Promise.all([
    import('./screens/swipeable-bills-screen.tsx'),
    import('./local-store/live-database.ts').then(({ warmLiveDatabase }) => warmLiveDatabase()),
  ]);
}

/** The page's handle on the import worker, loaded when first needed. */
const importJobsClient = () => import('./import-worker/import-jobs-client.ts');

/** Sync's code, loaded after the first paint (lazy-sync-runner.ts); the screens hold it already. */
const syncService = () => import('./page-sync-runner.ts');

/** On a native shell: the shell's own fetch, for the import worker (comlink loads with it). */
function handOverSourceFetcher(platform: Platform): void {
  const { sourceFetcher } = platform;
  if (sourceFetcher === null) return;
  importJobsClient()
    .then(({ setSourceFetcher }) => {
      setSourceFetcher(sourceFetcher);
    })
    .catch((error: unknown) => {
      console.error(`${LOG_PREFIX} Could not hand the import worker its fetch:`, error);
    });
}

/**
 * The auth client (loaded after the first paint) and the session listener, started once the
 * databases of accounts removed at sign-out are gone.
 */
async function startSession(platform: Platform, appStore: AppStore, reporter: ErrorReporter) {
  const auth = lazyAuthClient(platform, window.location.origin, (message, error) => {
    console.error(`${LOG_PREFIX} ${message}`, error);
  });
  // An account removed at sign-out: its database goes now, before anything could open it.
  await finishRemovals().catch((error: unknown) => {
    console.error(`${LOG_PREFIX} Could not delete a removed account’s data:`, error);
  });
  const authSync = await startAuthSessionSync({
    session: auth.session,
    store: platform.store,
    appStore,
    reporter,
    recheckSession: auth.recheckSession,
    connection: window,
    accounts: {
      enter: enterAccountDatabase,
      leave: leaveAccountDatabase,
      reload: () => {
        window.location.replace(addressAfterAccountReload(window.location));
      },
    },
  });
  return { auth, authSync };
}

/** Settles once the first screen had its turn: started, and idle (afterStart). */
function whenStarted(appStore: AppStore, firstCommit: Promise<void>): Promise<void> {
  return afterStart({
    firstCommit,
    ready: whenReady(appStore),
    maxWaitMs: 3000,
    settleMs: 500,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    ...(typeof window.requestIdleCallback === 'function'
      ? {
          requestIdleCallback: (callback: () => void, options: { timeout: number }) =>
            window.requestIdleCallback(callback, options),
        }
      : {}),
  });
}

/** Ionic, the page's listeners that must come before the router, and the app's first render. */
function renderApp(container: HTMLElement, services: AppServices, onFirstCommit: () => void) {
  setupIonicReact();
  // Before the router renders: a form's Back/Forward guard must hear popstate before the router.
  installTraversalListener();
  // For the life of the page: a focused field is never left under a phone's keyboard.
  startKeepingFocusInView(window, { leaveAlone: ionicScrollAssists });
  createRoot(container, {
    onUncaughtError: (error) => {
      console.error(`${LOG_PREFIX} The app failed while rendering:`, error);
    },
  }).render(<App services={services} onFirstCommit={onFirstCommit} />);
}

/** Once the first screen had its turn: sync's triggers and the trace start. */
function startSyncAndTrace(
  started: Promise<void>,
  sync: LazySyncRunner,
  appStore: AppStore,
  platform: Platform,
): void {
  started
    .then(async () => {
      const [{ startSyncTriggers }, runner] = await Promise.all([syncService(), sync.load()]);
      startSyncTriggers(runner, appStore, platform);
    })
    .catch((error: unknown) => {
      console.error(`${LOG_PREFIX} Could not start sync:`, error);
    });

  // The trace's code (core's records and their schemas) loads after the first paint too.
  started
    .then(async () => {
      const { startTraceWatchers } = await import('./trace/trace-events.ts');
      // The trace is an account's: nothing is written while none is signed in.
      startTraceWatchers(appStore, window, async () =>
        accountIsActive() ? pageLocalStore() : null,
      );
    })
    .catch((error: unknown) => {
      console.error(`${LOG_PREFIX} Could not start the trace:`, error);
    });
}

/** Once an account is active after the start: its stored bills' order, and jobs left over. */
function startAccountUpkeep(started: Promise<void>, appStore: AppStore): void {
  // Bills stored before the deck's recent order get their place in it, in the background.
  const accountStarted = started.then(() => whenAccountActive(appStore));
  accountStarted
    .then(async () => {
      const { fillDeckOrderInBackground } = await import('./local-store/deck-order-backfill.ts');
      await fillDeckOrderInBackground();
    })
    .catch((error: unknown) => {
      console.error(
        `${LOG_PREFIX} Could not put the stored bills in the deck's recent order:`,
        error,
      );
    });

  accountStarted.then(resumeLeftJobs).catch((error: unknown) => {
    console.error(`${LOG_PREFIX} Could not look for jobs left unfinished:`, error);
  });
}

/** The service worker, registered once the first screen is in and the window has loaded. */
function registerServiceWorkerLater(firstCommit: Promise<void>): void {
  scheduleServiceWorkerRegistration({
    isDevelopment: import.meta.env.DEV,
    whenStable: Promise.all([firstCommit, windowLoaded(window)]),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    // workbox-window loads when the worker is registered, after the first screen.
    register: async () => {
      const { registerServiceWorker } = await import('./service-worker/register-service-worker.ts');
      await registerServiceWorker();
    },
  }).catch((error: unknown) => {
    console.error(`${LOG_PREFIX} Service worker registration failed:`, error);
  });
}

/** Builds the app's services, renders it, and schedules the service worker. */
export async function startApp(container: HTMLElement): Promise<void> {
  const platform = await pickPlatform();
  handOverSourceFetcher(platform);
  const reporter = createErrorReporter(import.meta.env.VITE_SENTRY_DSN, import.meta.env.MODE);
  const appStore = createAppStore({ online: navigator.onLine });
  const { auth, authSync } = await startSession(platform, appStore, reporter);
  const api = createApiClient(platform);
  const sync = createLazySyncRunner(async () => (await syncService()).createPageSyncRunner(api));
  const firstCommit = createSignal();
  // What runs in the background waits until the first screen had its turn: started, and idle.
  const started = whenStarted(appStore, firstCommit.promise);
  const services: AppServices = {
    platform,
    appStore,
    loadAuthClient: auth.load,
    authSync,
    api,
    sync,
    started,
  };

  // A known user opening the deck (a cold start of the app's home): its screen's code and the
  // device's database start loading now, beside the first render and the session check, not
  // after the first paint when the guard mounts (cold-start-bench).
  if (appStore.get().email !== null && DECK_PATHS.has(window.location.pathname)) {
    preloadDeck().catch(() => undefined);
  }

  renderApp(container, services, firstCommit.fire);
  startSyncAndTrace(started, sync, appStore, platform);
  startAccountUpkeep(started, appStore);
  if (platform.usesServiceWorker) registerServiceWorkerLater(firstCommit.promise);
}

/**
 * Resolves once an account is signed in on this page and its database is the active one: what
 * works on the device's data waits for it (signed out, the page opens no account's database).
 */
function whenAccountActive(appStore: AppStore): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (appStore.get().email === null || !accountIsActive()) return false;
      resolve();
      return true;
    };
    if (check()) return;
    const unsubscribe = appStore.subscribe(() => {
      if (check()) unsubscribe();
    });
  });
}

/**
 * A job still marked queued or running when the app starts was cut off (a reload, a closed tab,
 * a crash) unless another tab is running it. Starting the import worker is what sorts that out:
 * it marks the orphans interrupted, so the jobs screen offers Resume. Only started when there is
 * such a job, so an ordinary start does not pay for the worker.
 */
async function resumeLeftJobs(): Promise<void> {
  const store = await pageLocalStore();
  const unfinished = await store.read(['jobs'], async (tx) => {
    const [queued, running] = await Promise.all([
      tx.where('jobs', 'status', 'queued'),
      tx.where('jobs', 'status', 'running'),
    ]);
    return queued.length + running.length;
  });
  if (unfinished > 0) (await importJobsClient()).importJobs();
}
