import { appendTrace } from '@docket/core/device';
import { SYNC_NUDGE_EVENT, syncNudgeSchema, type SyncNudge } from '@docket/protocol/sync-events';
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

/** What the triggers hold while connected; the functions below act on it. */
interface TriggerState {
  readonly runner: SyncRunnerApi;
  readonly appStore: AppStore;
  wasReachable: boolean;
  /** The pause after an edit, before the push. */
  pause: number | null;
  lastCount: number;
  // The outbox is the signed-in account's: watched only while one is, in its own database (a
  // signed-out page opens no account's database; local-store/account-databases.ts).
  stopWatchingOutbox: (() => void) | null;
  /** The server's nudges, for the user they were opened for. */
  events: EventSource | null;
  eventsUser: string | null;
}

/** The runner follows the app store's user and connection. */
function followApp(state: TriggerState): void {
  const { runner, appStore } = state;
  const { user, online, serverReachable } = appStore.get();
  runner.setOnline(online);
  runner.setUser(user?.id ?? null);
  // A session check answered after the server could not be reached: so could sync now.
  if (serverReachable && !state.wasReachable) runner.connectionBack();
  state.wasReachable = serverReachable;
}

/**
 * The outbox's count: the app store shows it, and when it grew a push follows a short pause, so
 * a burst of edits goes in one batch.
 */
function outboxCounted(state: TriggerState, count: number): void {
  const { appStore } = state;
  if (appStore.get().waitingChanges !== count) appStore.update({ waitingChanges: count });
  const grew = count > 0 && count !== state.lastCount;
  state.lastCount = count;
  if (!grew) return;
  if (state.pause !== null) window.clearTimeout(state.pause);
  state.pause = window.setTimeout(() => {
    state.pause = null;
    state.runner.requestSync();
  }, EDIT_PAUSE_MS);
}

/** Watches the outbox while an account is active, and stops (counting none) when none is. */
function followOutbox(state: TriggerState): void {
  const { appStore } = state;
  const active = appStore.get().email !== null && accountIsActive();
  if (active === (state.stopWatchingOutbox !== null)) return;
  if (!active) {
    state.stopWatchingOutbox?.();
    state.stopWatchingOutbox = null;
    appStore.update({ waitingChanges: 0 });
    return;
  }
  state.lastCount = -1;
  state.stopWatchingOutbox = watchOutboxCount(
    (count) => {
      outboxCounted(state, count);
    },
    (error: unknown) => {
      console.error('[docket] Could not watch the outbox:', error);
    },
  );
}

/** A nudge's `data:`, or null when it is not one. */
export function nudgeOf(data: string): SyncNudge | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data) as unknown;
  } catch {
    parsed = undefined;
  }
  const nudge = syncNudgeSchema.safeParse(parsed);
  return nudge.success ? nudge.data : null;
}

/** Listens to the server's nudges afresh (none while signed out, or without EventSource). */
function openEvents(state: TriggerState, platform: Pick<Platform, 'serverOrigin'>): void {
  state.events?.close();
  state.events = null;
  if (state.appStore.get().user === null || typeof EventSource === 'undefined') return;
  const events = new EventSource(`${platform.serverOrigin}${syncPaths.events}`, {
    withCredentials: platform.serverOrigin !== '',
  });
  state.events = events;
  events.addEventListener(SYNC_NUDGE_EVENT, (event) => {
    const nudge = nudgeOf((event as MessageEvent<string>).data);
    if (nudge !== null) state.runner.nudged(nudge);
  });
}

/** The nudges follow the signed-in user: opened again when the user changes. */
function followEvents(state: TriggerState, platform: Pick<Platform, 'serverOrigin'>): void {
  const userId = state.appStore.get().user?.id ?? null;
  if (userId === state.eventsUser) return;
  state.eventsUser = userId;
  openEvents(state, platform);
}

/** Connects the runner to its triggers; returns the function that disconnects it. */
export function startSyncTriggers(
  runner: SyncRunnerApi,
  appStore: AppStore,
  platform: Pick<Platform, 'serverOrigin'>,
  connection: ConnectionEvents = window,
): () => void {
  const state: TriggerState = {
    runner,
    appStore,
    wasReachable: appStore.get().serverReachable,
    pause: null,
    lastCount: -1,
    stopWatchingOutbox: null,
    events: null,
    eventsUser: null,
  };
  followApp(state);
  const unsubscribeApp = appStore.subscribe(() => {
    followApp(state);
  });
  followOutbox(state);
  const unsubscribeOutbox = appStore.subscribe(() => {
    followOutbox(state);
  });
  followEvents(state, platform);
  const unsubscribeEvents = appStore.subscribe(() => {
    followEvents(state, platform);
  });
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
    state.stopWatchingOutbox?.();
    state.events?.close();
    window.clearInterval(safety);
    if (state.pause !== null) window.clearTimeout(state.pause);
  };
}
