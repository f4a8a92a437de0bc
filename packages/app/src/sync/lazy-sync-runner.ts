import type { SyncRunner } from './sync-runner.ts';
import type { SyncRunnerState } from './sync-runner-types.ts';

// The page's sync runner as the screens hold it, before and after its code has loaded. Sync is
// not needed for the first paint (the sign-in form, the deck), and its code (the runner, core's
// sync engine, the status machine, ZIP for dataset files) is a tenth of the first screen's
// script, so it loads after the first paint (app-startup.tsx). Until then the screens read the
// state a runner starts in, and what they ask of it waits, in order, for the runner.

/** What the screens use of the sync runner. */
export type SyncRunnerApi = Pick<
  SyncRunner,
  | 'get'
  | 'subscribe'
  | 'setUser'
  | 'setOnline'
  | 'requestSync'
  | 'connectionBack'
  | 'nudged'
  | 'passwordHeld'
  | 'passwordRejected'
  | 'passwordEntered'
  | 'termsAccepted'
  | 'termsSetAside'
  | 'askForTerms'
  | 'dismissNotice'
  | 'skipChange'
  | 'skipUnsendable'
  | 'handOverDevice'
  | 'bringBackChanges'
  | 'syncNow'
>;

/** The state a runner starts in (SyncRunner's constructor), shown until it has loaded. */
export const initialSyncState: SyncRunnerState = Object.freeze({
  status: 'idle',
  retrySeqno: 0,
  view: Object.freeze({ kind: 'signed-out' }),
  lastSyncedAt: null,
  notice: null,
  bringBackFrom: null,
  askTerms: false,
});

export interface LazySyncRunner extends SyncRunnerApi {
  /** Loads and starts the real runner once; every later call goes to it. */
  load(): Promise<SyncRunnerApi>;
}

/** What a lazy runner holds before and after the real one has loaded. */
interface LazyState {
  readonly make: () => Promise<SyncRunnerApi>;
  runner: SyncRunnerApi | null;
  loading: Promise<SyncRunnerApi> | null;
  /** Each screen's listener, with its subscription to the runner once that has loaded. */
  readonly listeners: Map<() => void, (() => void) | null>;
  /** Calls made before the runner loaded, replayed on it in order. */
  readonly waiting: ((loaded: SyncRunnerApi) => void)[];
}

/** Loads the real runner once: the screens' listeners move to it, then the waiting calls run. */
function loadRunner(state: LazyState): Promise<SyncRunnerApi> {
  const { listeners, waiting } = state;
  state.loading ??= state.make().then((loaded) => {
    state.runner = loaded;
    for (const listener of listeners.keys()) listeners.set(listener, loaded.subscribe(listener));
    for (const call of waiting.splice(0)) call(loaded);
    // The loaded runner's state may differ from the one shown: tell every screen to read again.
    for (const listener of listeners.keys()) listener();
    return loaded;
  });
  return state.loading;
}

/** A call made on the runner now, or, before it has loaded, once it has (in order). */
function later(state: LazyState, call: (loaded: SyncRunnerApi) => void): () => void {
  return () => {
    if (state.runner !== null) call(state.runner);
    else state.waiting.push(call);
  };
}

/** A call whose outcome the caller waits for: it loads the runner when it has not loaded. */
function laterAsync(
  state: LazyState,
  call: (loaded: SyncRunnerApi) => Promise<void>,
): Promise<void> {
  return state.runner !== null ? call(state.runner) : loadRunner(state).then(call);
}

/** What the screens read: the state a runner starts in until the real one has loaded. */
function lazyReads(state: LazyState): Pick<SyncRunnerApi, 'get' | 'subscribe'> {
  const { listeners } = state;
  return {
    get: () => (state.runner === null ? initialSyncState : state.runner.get()),
    subscribe: (listener) => {
      listeners.set(listener, state.runner?.subscribe(listener) ?? null);
      return () => {
        listeners.get(listener)?.();
        listeners.delete(listener);
      };
    },
  };
}

/** What the sync service tells the runner: the user, the connection, edits and nudges. */
function lazyTriggers(
  state: LazyState,
): Pick<SyncRunnerApi, 'setUser' | 'setOnline' | 'requestSync' | 'connectionBack' | 'nudged'> {
  return {
    setUser: (userId) => {
      later(state, (loaded) => {
        loaded.setUser(userId);
      })();
    },
    setOnline: (online) => {
      later(state, (loaded) => {
        loaded.setOnline(online);
      })();
    },
    requestSync: later(state, (loaded) => {
      loaded.requestSync();
    }),
    connectionBack: later(state, (loaded) => {
      loaded.connectionBack();
    }),
    nudged: (nudge) => {
      later(state, (loaded) => {
        loaded.nudged(nudge);
      })();
    },
  };
}

/** What the screens ask of the runner: the password, the terms, notices and "Sync now". */
function lazyRequests(
  state: LazyState,
): Omit<SyncRunnerApi, keyof ReturnType<typeof lazyReads> | keyof ReturnType<typeof lazyTriggers>> {
  return {
    passwordHeld: (password) => {
      later(state, (loaded) => {
        loaded.passwordHeld(password);
      })();
    },
    passwordRejected: later(state, (loaded) => {
      loaded.passwordRejected();
    }),
    passwordEntered: (password, change) => {
      later(state, (loaded) => {
        loaded.passwordEntered(password, change);
      })();
    },
    termsAccepted: later(state, (loaded) => {
      loaded.termsAccepted();
    }),
    termsSetAside: later(state, (loaded) => {
      loaded.termsSetAside();
    }),
    askForTerms: later(state, (loaded) => {
      loaded.askForTerms();
    }),
    dismissNotice: later(state, (loaded) => {
      loaded.dismissNotice();
    }),
    skipChange: (seqno) => laterAsync(state, (loaded) => loaded.skipChange(seqno)),
    skipUnsendable: (entryId) => laterAsync(state, (loaded) => loaded.skipUnsendable(entryId)),
    handOverDevice: () => laterAsync(state, (loaded) => loaded.handOverDevice()),
    bringBackChanges: () => laterAsync(state, (loaded) => loaded.bringBackChanges()),
    syncNow: later(state, (loaded) => {
      loaded.syncNow();
    }),
  };
}

/**
 * The page's sync runner before `make` has loaded the real one: reads give the state a runner
 * starts in, calls wait for it in order, and `load` loads it.
 */
export function createLazySyncRunner(make: () => Promise<SyncRunnerApi>): LazySyncRunner {
  const state: LazyState = { make, runner: null, loading: null, listeners: new Map(), waiting: [] };
  return {
    load: () => loadRunner(state),
    ...lazyReads(state),
    ...lazyTriggers(state),
    ...lazyRequests(state),
  };
}
