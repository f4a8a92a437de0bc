import type { Platform } from '../platform/platform.ts';
import type { DocketAuthClient } from './auth-client.ts';
import { sessionSourceFromStore, type SessionSource } from './session-snapshot.ts';

// better-auth's client (with its fetch wrapper and stores, about 9 KB of brotli) loaded as the app
// starts, not before its first paint: nothing on the first screen needs it before the access
// guard's wait is over (spec §6: 500 ms at least), and sign-in, sign-up and the rest ask for it
// when pressed. The session store is subscribed to once it has loaded (issue 19).

export interface LazyAuthClient {
  /** The one better-auth client, loaded on first call. */
  readonly load: () => Promise<DocketAuthClient>;
  /** The client's session store; its first subscriber starts the load. */
  readonly session: SessionSource;
  /** Asks the client to check the session with the server again, once it has loaded. */
  readonly recheckSession: () => void;
}

export function lazyAuthClient(
  platform: Platform,
  pageOrigin: string,
  report: (message: string, error: unknown) => void,
): LazyAuthClient {
  let loading: Promise<DocketAuthClient> | undefined;
  const load = () => {
    loading ??= import('./auth-client.ts')
      .then(({ createDocketAuthClient }) => createDocketAuthClient(platform, pageOrigin))
      .catch((error: unknown) => {
        // Tried again at the next call (a chunk that failed to arrive, say).
        loading = undefined;
        throw error;
      });
    return loading;
  };
  const session: SessionSource = {
    subscribe(listener) {
      let stopped = false;
      let unsubscribe: (() => void) | undefined;
      load()
        .then((client) => {
          if (stopped) return;
          const store = client.$store.atoms.session;
          if (!store) throw new Error('The auth client has no session store.');
          unsubscribe = sessionSourceFromStore(store).subscribe(listener);
        })
        .catch((error: unknown) => {
          report('Could not load the sign-in code:', error);
          // As a server that cannot be reached: a known user stays signed in on this device.
          if (!stopped) listener({ kind: 'unreachable' });
        });
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    },
  };
  const recheckSession = () => {
    load()
      .then((client) => {
        client.$store.notify('$sessionSignal');
      })
      .catch((error: unknown) => {
        report('Could not check the session again:', error);
      });
  };
  return { load, session, recheckSession };
}
