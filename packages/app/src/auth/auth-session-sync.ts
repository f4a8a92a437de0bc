import type { ErrorReporter } from '../error-reporting/error-reporter.ts';
import type { KeyValueStore } from '../platform/platform.ts';
import type { AppStore, SessionUser } from '../state/app-store.ts';
import type { SessionSnapshot, SessionSource } from './session-snapshot.ts';
import {
  readStoredAuthRecord,
  removeStoredAuthRecord,
  writeStoredAuthRecord,
} from './stored-auth-record.ts';

/** A session check that has not answered by then counts as "server unreachable". */
export const FIRST_SESSION_CHECK_TIMEOUT_MS = 10_000;

/**
 * While the server cannot be reached (to confirm a user this device knows, or at all), the
 * session is checked again after these waits (the last repeats), and at once when the
 * connection comes back.
 */
export const SESSION_RECHECK_DELAYS_MS = [2_000, 4_000, 8_000, 15_000] as const;

/**
 * The device's database for each account (local-store/account-databases.ts): a user is made
 * known to the app only once their own database is the one the page opens.
 */
export interface AccountDatabases {
  /** Makes the user's database the active one; `reload` when the page holds another open. */
  enter(userId: string): Promise<{ readonly reload: boolean }>;
  /** No account is active (signed out). */
  leave(): void;
  /** Loads the page again, so nothing opened for the previous account stays in memory. */
  reload(): void;
}

export interface AuthSessionSyncOptions {
  session: SessionSource;
  accounts?: AccountDatabases;
  store: KeyValueStore;
  appStore: AppStore;
  reporter: ErrorReporter;
  firstCheckTimeoutMs?: number;
  /** Asks the auth client to check the session with the server again. */
  recheckSession?: () => void;
  /** The browser's online event, which may come without the app having seen itself offline. */
  connection?: {
    addEventListener(type: 'online', listener: () => void): void;
    removeEventListener(type: 'online', listener: () => void): void;
  };
  timers?: {
    setTimeout: (callback: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  };
}

export interface AuthSessionSync {
  /** Applies a sign-out at once, without waiting for the session store to notice it. */
  markSignedOut(): void;
  /** Checks the session with the server again now (a user asked to sync before it answered). */
  recheck(): void;
  stop(): void;
}

function logStorageFailure(error: unknown) {
  console.error('[docket] Could not update the stored auth record:', error);
}

/** The timers a session sync uses. */
type Timers = NonNullable<AuthSessionSyncOptions['timers']>;

/** The page's own timers, used unless the options give others. */
const pageTimers: Timers = {
  setTimeout: (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => {
    globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
  },
};

/** What a running session sync holds between snapshots; the functions below act on it. */
interface SessionSyncState {
  readonly options: AuthSessionSyncOptions;
  readonly timers: Timers;
  /** The e-mail of the stored auth record, as last written. */
  recordEmail: string | null;
  /** Whom the error reporter was last told of. */
  identified: string | null;
  /** Whether `ready` is set: start-up is finished. */
  settled: boolean;
  /** The first check's time limit, cleared once settled. */
  timeout: unknown;
  // The user whose database was last made active, the user being entered now, and a count that
  // drops a slower `enter` overtaken by a newer snapshot.
  entered: string | null;
  enteringUser: string | null;
  entering: number;
  // Rechecks while the server gives no answer, and so a user the device knows is unconfirmed.
  unconfirmed: boolean;
  recheckAttempt: number;
  recheckTimer: unknown;
}

/** Tells the error reporter who the user is, when that changed. */
function identify(state: SessionSyncState, email: string | null): void {
  if (email === state.identified) return;
  state.identified = email;
  state.options.reporter.identify(email);
}

/** Start-up is finished (once): the app store says `ready`. */
function settle(state: SessionSyncState): void {
  if (state.settled) return;
  state.settled = true;
  state.timers.clearTimeout(state.timeout);
  state.options.appStore.update({ ready: true });
}

/** A signed-in user: the app store, the stored auth record and the error reporter know them. */
function showUser(state: SessionSyncState, user: SessionUser): void {
  const { appStore, store } = state.options;
  appStore.update({ user, email: user.email, passwordNeededFor: null });
  if (state.recordEmail !== user.email) {
    state.recordEmail = user.email;
    writeStoredAuthRecord(store, { email: user.email }).catch(logStorageFailure);
  }
  identify(state, user.email);
}

/** No user: the app store, the account databases, the stored record and the reporter forget. */
function showNone(state: SessionSyncState): void {
  const { appStore, store, accounts } = state.options;
  state.entered = null;
  state.enteringUser = null;
  state.entering++;
  // Told first, the trace still writes the sign-out into the account's own database.
  appStore.update({ user: null, email: null });
  accounts?.leave();
  if (state.recordEmail !== null) {
    state.recordEmail = null;
    removeStoredAuthRecord(store).catch(logStorageFailure);
  }
  identify(state, null);
}

/** Whether the last session check went unanswered. */
function unreachable(state: SessionSyncState): boolean {
  return !state.options.appStore.get().serverReachable;
}

function reached(state: SessionSyncState, reachable: boolean): void {
  state.options.appStore.update({ serverReachable: reachable });
}

function cancelRecheck(state: SessionSyncState): void {
  if (state.recheckTimer !== null) state.timers.clearTimeout(state.recheckTimer);
  state.recheckTimer = null;
}

function recheckNow(state: SessionSyncState): void {
  cancelRecheck(state);
  state.options.recheckSession?.();
}

/** Asks the server again after the next of the recheck delays, while it is needed and online. */
function scheduleRecheck(state: SessionSyncState): void {
  const { options, timers } = state;
  cancelRecheck(state);
  if (!(state.unconfirmed || unreachable(state)) || options.recheckSession === undefined) return;
  if (!options.appStore.get().online) return;
  const delays = SESSION_RECHECK_DELAYS_MS;
  const delay = delays[Math.min(state.recheckAttempt, delays.length - 1)] ?? delays[0];
  state.recheckAttempt++;
  state.recheckTimer = timers.setTimeout(() => {
    state.recheckTimer = null;
    options.recheckSession?.();
  }, delay);
}

/** The server answered about the user: no more rechecks. */
function confirmed(state: SessionSyncState): void {
  state.unconfirmed = false;
  state.recheckAttempt = 0;
  cancelRecheck(state);
}

/**
 * A signed-in user whose database is not the active one: it is entered first, and only then is
 * the user shown (or the page reloaded, or, without their vault's password, signed out here).
 */
function enterAccount(state: SessionSyncState, accounts: AccountDatabases, user: SessionUser) {
  // The same user again while their database is being entered (a session refetch right
  // after sign-in): that entry goes on. A second one would find the sign-in's password
  // taken and, while the first still makes the vault (Argon2id, slow on a busy phone),
  // could take the account for one without a vault and sign it out.
  if (state.enteringUser === user.id) return;
  // Until the user's own database is the active one, nothing may open one for them.
  const attempt = ++state.entering;
  state.enteringUser = user.id;
  accounts.enter(user.id).then(
    ({ reload }) => {
      if (attempt !== state.entering) return;
      state.enteringUser = null;
      if (reload) {
        accounts.reload();
        return;
      }
      state.entered = user.id;
      showUser(state, user);
      settle(state);
    },
    (error: unknown) => {
      if (attempt !== state.entering) return;
      state.enteringUser = null;
      if (error instanceof Error && error.name === 'PasswordNeededError') {
        // Nothing of the account's is shown or written until its password opens a vault:
        // signed out here, and the sign-in page says why.
        showNone(state);
        state.options.appStore.update({ passwordNeededFor: user.email });
        settle(state);
        return;
      }
      // The user stays unknown to the app (no database of theirs to open): the sign-in
      // page says the session could not be confirmed, as when the server is unreachable.
      console.error('[docket] Could not open the account’s device data:', error);
      settle(state);
    },
  );
}

/** What the session store says, acted on; any answer but pending settles start-up. */
function onSnapshot(state: SessionSyncState, snapshot: SessionSnapshot): void {
  switch (snapshot.kind) {
    case 'pending':
      return;
    case 'signed-in': {
      confirmed(state);
      reached(state, true);
      const { user } = snapshot;
      const { accounts } = state.options;
      if (accounts === undefined || state.entered === user.id) {
        showUser(state, user);
        break;
      }
      enterAccount(state, accounts, user);
      return;
    }
    case 'signed-out':
      confirmed(state);
      reached(state, true);
      showNone(state);
      break;
    case 'unreachable':
      // Nothing is known; the e-mail from the stored record stays, and the server is asked
      // again soon, so a user it would confirm is not kept from syncing.
      state.unconfirmed = state.options.appStore.get().user === null && state.recordEmail !== null;
      reached(state, false);
      scheduleRecheck(state);
      break;
  }
  settle(state);
}

/**
 * Follows the app store's connection: going offline settles start-up and stops the rechecks;
 * coming back asks the server at once while it is needed. Returns the unsubscribe.
 */
function watchOnline(state: SessionSyncState): () => void {
  const { appStore } = state.options;
  let wasOnline = appStore.get().online;
  return appStore.subscribe(() => {
    const { online } = appStore.get();
    if (!online) settle(state);
    if (online && !wasOnline && (state.unconfirmed || unreachable(state))) recheckNow(state);
    if (!online) cancelRecheck(state);
    wasOnline = online;
  });
}

/**
 * Spec §4 Authentication: listens to the auth client's session store. A user stores the user,
 * the e-mail and the auth record; none clears the record. Sets `ready` once the stored record
 * was read and the first session check answered, failed or timed out, and `serverReachable`
 * from whether the checks get an answer: the first request of a start is this check, so a start
 * without a connection the browser does not know of is told "Offline" by its failure.
 */
export async function startAuthSessionSync(
  options: AuthSessionSyncOptions,
): Promise<AuthSessionSync> {
  const { session, store, appStore } = options;
  const stored = await readStoredAuthRecord(store);
  const state: SessionSyncState = {
    options,
    timers: options.timers ?? pageTimers,
    recordEmail: stored?.email ?? null,
    identified: null,
    settled: false,
    timeout: null,
    entered: null,
    enteringUser: null,
    entering: 0,
    unconfirmed: false,
    recheckAttempt: 0,
    recheckTimer: null,
  };

  // Local-first: until the server answers (and for as long as it cannot be reached), whoever
  // signed in last on this device is still the user.
  if (state.recordEmail !== null) {
    appStore.update({ email: state.recordEmail });
    identify(state, state.recordEmail);
  }

  // Cleared once settled: firing, the first check has not answered, and until it (or a later
  // one) does, the server counts as unreachable.
  state.timeout = state.timers.setTimeout(() => {
    reached(state, false);
    settle(state);
  }, options.firstCheckTimeoutMs ?? FIRST_SESSION_CHECK_TIMEOUT_MS);
  // Starting offline, no session check can answer: the stored record is all there is to know,
  // so start-up is finished now and the offline guard can open the route it was asked for. The
  // same holds when the connection drops while the first check is in flight (a page loaded from
  // the service worker can learn it is offline only after it started): this listener was added
  // before any guard's, so a guard woken by the same change already sees the app ready.
  if (!appStore.get().online) settle(state);
  const stopWatchingOnline = watchOnline(state);
  // The connection is back: the server is asked at once, not at the next scheduled recheck.
  const onOnline = () => {
    if (state.unconfirmed || unreachable(state)) recheckNow(state);
  };
  options.connection?.addEventListener('online', onOnline);
  const unsubscribe = session.subscribe((snapshot) => {
    onSnapshot(state, snapshot);
  });

  return {
    markSignedOut: () => {
      confirmed(state);
      showNone(state);
    },
    recheck: () => {
      recheckNow(state);
    },
    stop() {
      state.timers.clearTimeout(state.timeout);
      cancelRecheck(state);
      stopWatchingOnline();
      options.connection?.removeEventListener('online', onOnline);
      unsubscribe();
    },
  };
}
