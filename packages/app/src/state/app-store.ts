/** The signed-in user as the auth server describes them; the app only relies on these fields. */
export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

export interface AppState {
  /** False after the browser reported going offline, until the page reloads on reconnect. */
  readonly online: boolean;
  /**
   * False while the Docket server gives no answer: the first session check (or a later one)
   * failed or timed out, though the browser may think it is online (a page served by the service
   * worker without a network, a Wi-Fi without internet). True again once a check is answered.
   */
  readonly serverReachable: boolean;
  /** Startup finished: the stored auth record was read and the first session check settled. */
  readonly ready: boolean;
  /** The user of the server session, when the server confirmed one. */
  readonly user: SessionUser | null;
  /**
   * The e-mail of whoever is signed in on this device: the session user's once the server
   * answered; before that, and while the server cannot be reached, the stored auth record's.
   */
  readonly email: string | null;
  readonly settingsVersion: number;
  /** Changes made on this device that have not reached the server yet (the outbox's size). */
  readonly waitingChanges: number;
  /**
   * The server knows the session, but the account's work on this device has no vault yet (a
   * session kept from an app version older than vaults): the person signs in with the password
   * before anything is shown or written (local-store/vault-files.ts, PasswordNeededError). The
   * account's address, which the sign-in form fills in; null when no password is needed.
   */
  readonly passwordNeededFor: string | null;
}

export const initialAppState: AppState = {
  online: true,
  serverReachable: true,
  ready: false,
  user: null,
  email: null,
  settingsVersion: 0,
  waitingChanges: 0,
  passwordNeededFor: null,
};

// Function-valued fields rather than methods: React takes `subscribe` detached from the store.
export interface AppStore {
  readonly get: () => AppState;
  readonly update: (patch: Partial<AppState>) => void;
  readonly subscribe: (listener: () => void) => () => void;
}

/** A tiny external store, read in React with useSyncExternalStore. */
export function createAppStore(initial: Partial<AppState> = {}): AppStore {
  let state: AppState = { ...initialAppState, ...initial };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    update(patch) {
      const next = { ...state, ...patch };
      const changed = (Object.keys(patch) as (keyof AppState)[]).some((k) => next[k] !== state[k]);
      if (!changed) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function isSignedIn(state: AppState): boolean {
  return state.email !== null;
}

/**
 * What the header calls "Offline": the browser says so (read at start and on its events), or
 * the server cannot be reached. Only `online` drives the spec's reload when the connection
 * returns; this is what the user is told.
 */
export function isOffline(state: AppState): boolean {
  return !state.online || !state.serverReachable;
}
