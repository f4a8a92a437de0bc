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
  const { session, store, appStore, reporter } = options;
  const timers = options.timers ?? {
    setTimeout: (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => {
      globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>);
    },
  };

  const stored = await readStoredAuthRecord(store);
  let recordEmail = stored?.email ?? null;
  let identified: string | null = null;
  let settled = false;

  const identify = (email: string | null) => {
    if (email === identified) return;
    identified = email;
    reporter.identify(email);
  };

  // Local-first: until the server answers (and for as long as it cannot be reached), whoever
  // signed in last on this device is still the user.
  if (recordEmail !== null) {
    appStore.update({ email: recordEmail });
    identify(recordEmail);
  }

  const settle = () => {
    if (settled) return;
    settled = true;
    timers.clearTimeout(timeout);
    appStore.update({ ready: true });
  };

  // The user whose database was last made active, the user being entered now, and a count that
  // drops a slower `enter` overtaken by a newer snapshot.
  let entered: string | null = null;
  let enteringUser: string | null = null;
  let entering = 0;

  const showUser = (user: SessionUser) => {
    appStore.update({ user, email: user.email, passwordNeededFor: null });
    if (recordEmail !== user.email) {
      recordEmail = user.email;
      writeStoredAuthRecord(store, { email: user.email }).catch(logStorageFailure);
    }
    identify(user.email);
  };

  const showNone = () => {
    entered = null;
    enteringUser = null;
    entering++;
    // Told first, the trace still writes the sign-out into the account's own database.
    appStore.update({ user: null, email: null });
    options.accounts?.leave();
    if (recordEmail !== null) {
      recordEmail = null;
      removeStoredAuthRecord(store).catch(logStorageFailure);
    }
    identify(null);
  };

  // Rechecks while the server gives no answer, and so a user the device knows is unconfirmed.
  let unconfirmed = false;
  const unreachable = () => !appStore.get().serverReachable;
  const reached = (reachable: boolean) => {
    appStore.update({ serverReachable: reachable });
  };
  let recheckAttempt = 0;
  let recheckTimer: unknown = null;
  const cancelRecheck = () => {
    if (recheckTimer !== null) timers.clearTimeout(recheckTimer);
    recheckTimer = null;
  };
  const recheckNow = () => {
    cancelRecheck();
    options.recheckSession?.();
  };
  const scheduleRecheck = () => {
    cancelRecheck();
    if (!(unconfirmed || unreachable()) || options.recheckSession === undefined) return;
    if (!appStore.get().online) return;
    const delays = SESSION_RECHECK_DELAYS_MS;
    const delay = delays[Math.min(recheckAttempt, delays.length - 1)] ?? delays[0];
    recheckAttempt++;
    recheckTimer = timers.setTimeout(() => {
      recheckTimer = null;
      options.recheckSession?.();
    }, delay);
  };
  const confirmed = () => {
    unconfirmed = false;
    recheckAttempt = 0;
    cancelRecheck();
  };

  const onSnapshot = (snapshot: SessionSnapshot) => {
    switch (snapshot.kind) {
      case 'pending':
        return;
      case 'signed-in': {
        confirmed();
        reached(true);
        const { user } = snapshot;
        const { accounts } = options;
        if (accounts === undefined || entered === user.id) {
          showUser(user);
          break;
        }
        // The same user again while their database is being entered (a session refetch right
        // after sign-in): that entry goes on. A second one would find the sign-in's password
        // taken and, while the first still makes the vault (Argon2id, slow on a busy phone),
        // could take the account for one without a vault and sign it out.
        if (enteringUser === user.id) return;
        // Until the user's own database is the active one, nothing may open one for them.
        const attempt = ++entering;
        enteringUser = user.id;
        accounts.enter(user.id).then(
          ({ reload }) => {
            if (attempt !== entering) return;
            enteringUser = null;
            if (reload) {
              accounts.reload();
              return;
            }
            entered = user.id;
            showUser(user);
            settle();
          },
          (error: unknown) => {
            if (attempt !== entering) return;
            enteringUser = null;
            if (error instanceof Error && error.name === 'PasswordNeededError') {
              // Nothing of the account's is shown or written until its password opens a vault:
              // signed out here, and the sign-in page says why.
              showNone();
              appStore.update({ passwordNeededFor: user.email });
              settle();
              return;
            }
            // The user stays unknown to the app (no database of theirs to open): the sign-in
            // page says the session could not be confirmed, as when the server is unreachable.
            console.error('[docket] Could not open the account’s device data:', error);
            settle();
          },
        );
        return;
      }
      case 'signed-out':
        confirmed();
        reached(true);
        showNone();
        break;
      case 'unreachable':
        // Nothing is known; the e-mail from the stored record stays, and the server is asked
        // again soon, so a user it would confirm is not kept from syncing.
        unconfirmed = appStore.get().user === null && recordEmail !== null;
        reached(false);
        scheduleRecheck();
        break;
    }
    settle();
  };

  // Cleared once settled: firing, the first check has not answered, and until it (or a later
  // one) does, the server counts as unreachable.
  const timeout = timers.setTimeout(() => {
    reached(false);
    settle();
  }, options.firstCheckTimeoutMs ?? FIRST_SESSION_CHECK_TIMEOUT_MS);
  // Starting offline, no session check can answer: the stored record is all there is to know,
  // so start-up is finished now and the offline guard can open the route it was asked for. The
  // same holds when the connection drops while the first check is in flight (a page loaded from
  // the service worker can learn it is offline only after it started): this listener was added
  // before any guard's, so a guard woken by the same change already sees the app ready.
  if (!appStore.get().online) settle();
  let wasOnline = appStore.get().online;
  const stopWatchingOnline = appStore.subscribe(() => {
    const { online } = appStore.get();
    if (!online) settle();
    if (online && !wasOnline && (unconfirmed || unreachable())) recheckNow();
    if (!online) cancelRecheck();
    wasOnline = online;
  });
  // The connection is back: the server is asked at once, not at the next scheduled recheck.
  const onOnline = () => {
    if (unconfirmed || unreachable()) recheckNow();
  };
  options.connection?.addEventListener('online', onOnline);
  const unsubscribe = session.subscribe(onSnapshot);

  return {
    markSignedOut: () => {
      confirmed();
      showNone();
    },
    recheck: recheckNow,
    stop() {
      timers.clearTimeout(timeout);
      cancelRecheck();
      stopWatchingOnline();
      options.connection?.removeEventListener('online', onOnline);
      unsubscribe();
    },
  };
}
