import { appendTrace } from '@docket/core/device';
import { SYNC_NUDGE_EVENT, syncNudgeSchema } from '@docket/protocol/sync-events';
import {
  pullResponseSchema,
  pushResponseSchema,
  type PullResponse,
  type PushResponse,
} from '@docket/protocol/sync-changes';
import { syncPaths } from '@docket/protocol/sync-wire';
import type { ApiClient } from '../api/api-client.ts';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { datasetsNeedingImport } from '@docket/core/commands';
import { billCommandContext, pageLocalStore } from '../bills/bill-command-services.ts';
import { accountIsActive } from '../local-store/account-databases.ts';
import { watchOutboxCount } from '../local-store/live-outbox.ts';
import type { Platform } from '../platform/platform.ts';
import type { AppStore } from '../state/app-store.ts';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { loadDeviceCloudKeys } from './cloud-keys-store.ts';
import { fetchSyncSettings } from './cloud-password-flow.ts';
import { termsAcceptedOnServer } from '../terms/terms-acceptance.ts';
import { SyncRunner } from './sync-runner.ts';
import type { SyncRunnerDeps } from './sync-runner-types.ts';
import { bringBackOn } from './bring-back.ts';
import type { SyncRunnerApi } from './lazy-sync-runner.ts';
import type { SyncTransport } from '@docket/core/sync';

// The sync runner of this page, with what sets it off: the signed-in user and the connection
// (from the app store; the browser's `online` event and the server answering again end a
// retry's wait at once), the outbox growing (a Dexie live query, which also sees other tabs'
// writes), and the server's nudges (server-sent events, which the browser reconnects by
// itself). Edits made in quick succession are pushed together after a short pause.

/** Quiet time after an edit before pushing, so a burst of edits goes in one batch. */
const EDIT_PAUSE_MS = 400;
/** A run now and then even without a nudge, in case a nudge was missed. */
const SAFETY_INTERVAL_MS = 5 * 60 * 1000;

export function httpSyncTransport(api: ApiClient): SyncTransport {
  return {
    push: (request): Promise<PushResponse> =>
      api({ method: 'POST', path: syncPaths.push, body: request, response: pushResponseSchema }),
    pull: (since, limit): Promise<PullResponse> =>
      api({
        method: 'GET',
        path: `${syncPaths.pull}?since=${since}&limit=${limit}`,
        response: pullResponseSchema,
      }),
    putBlob: async (address, bytes) => {
      await api.bytes({ method: 'PUT', path: `${syncPaths.blobs}/${address}`, body: bytes });
    },
    getBlob: (address) => api.bytes({ method: 'GET', path: `${syncPaths.blobs}/${address}` }),
    hasBlob: async (address) =>
      (await api.bytes({ method: 'HEAD', path: `${syncPaths.blobs}/${address}` })) !== null,
  };
}

function exclusive<T>(body: () => Promise<T>): Promise<T> {
  // Web Locks keep two tabs of this device from syncing at once; both would be correct, but
  // twice the work.
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return body();
  return navigator.locks.request('docket-sync', body) as Promise<T>;
}

export function createSyncRunner(
  api: ApiClient,
  options: Pick<SyncRunnerDeps, 'workspace'> = {},
): SyncRunner {
  return new SyncRunner({
    ...options,
    store: pageLocalStore,
    deviceId: async () => (await billCommandContext()).deviceId,
    fetchSettings: () => fetchSyncSettings(api),
    loadKeys: loadDeviceCloudKeys,
    transport: httpSyncTransport(api),
    crypto: browserCrypto,
    trace: async (entry) => {
      // The trace is an account's: with none signed in there is none to write to.
      if (!accountIsActive()) return;
      await appendTrace(await pageLocalStore(), entry, Date.now());
    },
    exclusive,
    now: () => Date.now(),
    random: Math.random,
    newId: () => crypto.randomUUID(),
    setTimer: (callback, ms) => window.setTimeout(callback, ms),
    clearTimer: (handle) => {
      window.clearTimeout(handle as number);
    },
    termsAccepted: () => termsAcceptedOnServer(api),
    bringBack: bringBackOn({
      store: pageLocalStore,
      crypto: browserCrypto,
      deviceId: async () => (await billCommandContext()).deviceId,
      now: () => Date.now(),
    }),
    importSyncedDatasets: async () => {
      // The worker starts only when there is an import to run.
      const waiting = await datasetsNeedingImport(await pageLocalStore());
      return waiting.length === 0 ? 0 : importJobs().importSynced();
    },
  });
}

/** The browser's `online` event (the window's in the app). */
export interface ConnectionEvents {
  addEventListener(type: 'online', listener: () => void): void;
  removeEventListener(type: 'online', listener: () => void): void;
}

/** Connects the runner to its triggers; returns the function that disconnects it. */
export function startSyncTriggers(
  runner: SyncRunnerApi,
  appStore: AppStore,
  platform: Pick<Platform, 'serverOrigin'>,
  connection: ConnectionEvents = window,
): () => void {
  let wasReachable = appStore.get().serverReachable;
  const follow = () => {
    const { user, online, serverReachable } = appStore.get();
    runner.setOnline(online);
    runner.setUser(user?.id ?? null);
    // A session check answered after the server could not be reached: so could sync now.
    if (serverReachable && !wasReachable) runner.connectionBack();
    wasReachable = serverReachable;
  };
  follow();
  const unsubscribeApp = appStore.subscribe(follow);

  let pause: number | null = null;
  let lastCount = -1;
  // The outbox is the signed-in account's: watched only while one is, in its own database (a
  // signed-out page opens no account's database; local-store/account-databases.ts).
  let stopWatchingOutbox: (() => void) | null = null;
  const followOutbox = () => {
    const active = appStore.get().email !== null && accountIsActive();
    if (active === (stopWatchingOutbox !== null)) return;
    if (!active) {
      stopWatchingOutbox?.();
      stopWatchingOutbox = null;
      appStore.update({ waitingChanges: 0 });
      return;
    }
    lastCount = -1;
    stopWatchingOutbox = watchOutboxCount(
      (count) => {
        if (appStore.get().waitingChanges !== count) appStore.update({ waitingChanges: count });
        const grew = count > 0 && count !== lastCount;
        lastCount = count;
        if (!grew) return;
        if (pause !== null) window.clearTimeout(pause);
        pause = window.setTimeout(() => {
          pause = null;
          runner.requestSync();
        }, EDIT_PAUSE_MS);
      },
      (error: unknown) => {
        console.error('[docket] Could not watch the outbox:', error);
      },
    );
  };
  followOutbox();
  const unsubscribeOutbox = appStore.subscribe(followOutbox);

  let events: EventSource | null = null;
  const openEvents = () => {
    events?.close();
    events = null;
    if (appStore.get().user === null || typeof EventSource === 'undefined') return;
    events = new EventSource(`${platform.serverOrigin}${syncPaths.events}`, {
      withCredentials: platform.serverOrigin !== '',
    });
    events.addEventListener(SYNC_NUDGE_EVENT, (event) => {
      const nudge = syncNudgeSchema.safeParse(
        (() => {
          try {
            return JSON.parse((event as MessageEvent<string>).data) as unknown;
          } catch {
            return undefined;
          }
        })(),
      );
      if (nudge.success) runner.nudged(nudge.data);
    });
  };
  let eventsUser: string | null = null;
  const followEvents = () => {
    const userId = appStore.get().user?.id ?? null;
    if (userId === eventsUser) return;
    eventsUser = userId;
    openEvents();
  };
  followEvents();
  const unsubscribeEvents = appStore.subscribe(followEvents);
  // The browser may say it is online again without having said it went offline (then the page
  // does not reload): a run waiting out a back-off after failing for want of a connection goes
  // now, not minutes later with its error on screen all the while.
  const onOnline = () => {
    runner.connectionBack();
  };
  connection.addEventListener('online', onOnline);
  const safety = window.setInterval(() => {
    runner.requestSync();
  }, SAFETY_INTERVAL_MS);

  return () => {
    unsubscribeApp();
    unsubscribeEvents();
    unsubscribeOutbox();
    connection.removeEventListener('online', onOnline);
    stopWatchingOutbox?.();
    events?.close();
    window.clearInterval(safety);
    if (pause !== null) window.clearTimeout(pause);
  };
}
