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

export function createLazySyncRunner(make: () => Promise<SyncRunnerApi>): LazySyncRunner {
  let runner: SyncRunnerApi | null = null;
  let loading: Promise<SyncRunnerApi> | null = null;
  /** Each screen's listener, with its subscription to the runner once that has loaded. */
  const listeners = new Map<() => void, (() => void) | null>();
  /** Calls made before the runner loaded, replayed on it in order. */
  const waiting: ((loaded: SyncRunnerApi) => void)[] = [];

  const later = (call: (loaded: SyncRunnerApi) => void) => (): void => {
    if (runner !== null) call(runner);
    else waiting.push(call);
  };
  const laterAsync = (call: (loaded: SyncRunnerApi) => Promise<void>): Promise<void> =>
    runner !== null ? call(runner) : load().then(call);

  function load(): Promise<SyncRunnerApi> {
    loading ??= make().then((loaded) => {
      runner = loaded;
      for (const listener of listeners.keys()) listeners.set(listener, loaded.subscribe(listener));
      for (const call of waiting.splice(0)) call(loaded);
      // The loaded runner's state may differ from the one shown: tell every screen to read again.
      for (const listener of listeners.keys()) listener();
      return loaded;
    });
    return loading;
  }

  return {
    load,
    get: () => (runner === null ? initialSyncState : runner.get()),
    subscribe: (listener) => {
      listeners.set(listener, runner?.subscribe(listener) ?? null);
      return () => {
        listeners.get(listener)?.();
        listeners.delete(listener);
      };
    },
    setUser: (userId) => {
      later((loaded) => {
        loaded.setUser(userId);
      })();
    },
    setOnline: (online) => {
      later((loaded) => {
        loaded.setOnline(online);
      })();
    },
    requestSync: later((loaded) => {
      loaded.requestSync();
    }),
    connectionBack: later((loaded) => {
      loaded.connectionBack();
    }),
    nudged: (nudge) => {
      later((loaded) => {
        loaded.nudged(nudge);
      })();
    },
    passwordHeld: (password) => {
      later((loaded) => {
        loaded.passwordHeld(password);
      })();
    },
    passwordRejected: later((loaded) => {
      loaded.passwordRejected();
    }),
    passwordEntered: (password, change) => {
      later((loaded) => {
        loaded.passwordEntered(password, change);
      })();
    },
    termsAccepted: later((loaded) => {
      loaded.termsAccepted();
    }),
    termsSetAside: later((loaded) => {
      loaded.termsSetAside();
    }),
    askForTerms: later((loaded) => {
      loaded.askForTerms();
    }),
    dismissNotice: later((loaded) => {
      loaded.dismissNotice();
    }),
    skipChange: (seqno) => laterAsync((loaded) => loaded.skipChange(seqno)),
    skipUnsendable: (entryId) => laterAsync((loaded) => loaded.skipUnsendable(entryId)),
    handOverDevice: () => laterAsync((loaded) => loaded.handOverDevice()),
    bringBackChanges: () => laterAsync((loaded) => loaded.bringBackChanges()),
    syncNow: later((loaded) => {
      loaded.syncNow();
    }),
  };
}
