import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryKeyValueStore } from '../platform/memory-key-value-store.ts';
import { createAppStore, isOffline } from '../state/app-store.ts';
import { startAuthSessionSync } from './auth-session-sync.ts';
import type { SessionSnapshot, SessionSource } from './session-snapshot.ts';

/** A session store like better-auth's: subscribing delivers the current snapshot at once. */
function fakeSession(initial: SessionSnapshot = { kind: 'pending' }) {
  let current = initial;
  const listeners = new Set<(snapshot: SessionSnapshot) => void>();
  const source: SessionSource = {
    subscribe(listener) {
      listeners.add(listener);
      listener(current);
      return () => listeners.delete(listener);
    },
  };
  const emit = (snapshot: SessionSnapshot) => {
    current = snapshot;
    for (const listener of listeners) listener(snapshot);
  };
  return { source, emit, listeners };
}

const ann = { id: 'u1', email: 'ann@example.org', name: 'ann' };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup(initialRecord?: string, online = true) {
  const session = fakeSession();
  const { store, entries } = createMemoryKeyValueStore(
    initialRecord === undefined ? {} : { auth: initialRecord },
  );
  const appStore = createAppStore({ online });
  const identify = vi.fn();
  const sync = await startAuthSessionSync({
    session: session.source,
    store,
    appStore,
    reporter: { identify },
    firstCheckTimeoutMs: 10_000,
  });
  return { session, entries, appStore, identify, sync };
}

describe('startAuthSessionSync', () => {
  it('writes {email} under the key auth when the session shows a user', async () => {
    const { session, entries, appStore, identify } = await setup();
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(entries.get('auth')).toBe(JSON.stringify({ email: 'ann@example.org' }));
    expect(appStore.get()).toMatchObject({ user: ann, email: 'ann@example.org', ready: true });
    expect(identify).toHaveBeenLastCalledWith('ann@example.org');
  });

  it('removes the record when the session shows none', async () => {
    const { session, entries, appStore, identify } = await setup(
      JSON.stringify({ email: 'ann@example.org' }),
    );
    session.emit({ kind: 'signed-out' });
    await flush();
    expect(entries.has('auth')).toBe(false);
    expect(appStore.get()).toMatchObject({ user: null, email: null, ready: true });
    expect(identify).toHaveBeenLastCalledWith(null);
  });

  it('keeps the stored e-mail while the server cannot be reached', async () => {
    const { session, entries, appStore } = await setup(
      JSON.stringify({ email: 'ann@example.org' }),
    );
    expect(appStore.get()).toMatchObject({ email: 'ann@example.org', ready: false });
    session.emit({ kind: 'unreachable' });
    await flush();
    expect(entries.get('auth')).toBe(JSON.stringify({ email: 'ann@example.org' }));
    expect(appStore.get()).toMatchObject({ user: null, email: 'ann@example.org', ready: true });
  });

  it('counts as offline at once when starting without a connection', async () => {
    const { appStore } = await setup(JSON.stringify({ email: ann.email }), false);
    expect(isOffline(appStore.get())).toBe(true);
  });

  it('counts as offline when the first session check gets no answer, though the browser says online', async () => {
    // A reload without a network that the browser does not know of (the service worker's page).
    const { session, appStore } = await setup(JSON.stringify({ email: ann.email }));
    expect(isOffline(appStore.get())).toBe(false);
    session.emit({ kind: 'unreachable' });
    await flush();
    expect(appStore.get()).toMatchObject({ online: true, ready: true, email: ann.email });
    expect(isOffline(appStore.get())).toBe(true);
    // The server answers again: online, without the reload that the browser's return causes.
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(isOffline(appStore.get())).toBe(false);
  });

  it('is not ready while the first session check is pending', async () => {
    const { appStore } = await setup();
    expect(appStore.get().ready).toBe(false);
  });

  it('is ready at once when starting offline, keeping the stored e-mail', async () => {
    const { appStore } = await setup(JSON.stringify({ email: ann.email }), false);
    expect(appStore.get()).toMatchObject({ ready: true, email: ann.email });
  });

  it('is ready as soon as the connection drops during the first session check', async () => {
    const { appStore } = await setup(JSON.stringify({ email: ann.email }));
    expect(appStore.get().ready).toBe(false);
    const seen: boolean[] = [];
    // A listener added later (as the access guard's is) sees the app ready on the same change.
    appStore.subscribe(() => seen.push(appStore.get().ready));
    appStore.update({ online: false });
    expect(appStore.get()).toMatchObject({ ready: true, email: ann.email });
    expect(seen.every(Boolean)).toBe(true);
  });

  it('ignores a stored record it cannot read', async () => {
    for (const raw of ['not json', '[]', 'null', '{"email":""}', '{"email":7}', '{}']) {
      const { appStore } = await setup(raw);
      expect(appStore.get().email).toBeNull();
    }
  });

  it('reads the e-mail of a stored record, and only that', async () => {
    const { appStore } = await setup('{"email":"ann@example.org","token":"x"}');
    expect(appStore.get().email).toBe('ann@example.org');
  });

  it('marks a sign-out at once', async () => {
    const { session, appStore, sync, identify } = await setup();
    session.emit({ kind: 'signed-in', user: ann });
    sync.markSignedOut();
    expect(appStore.get()).toMatchObject({ user: null, email: null });
    expect(identify).toHaveBeenLastCalledWith(null);
  });

  it('stops listening', async () => {
    const { session, sync } = await setup();
    sync.stop();
    expect(session.listeners.size).toBe(0);
  });

  describe('with a user the server could not confirm', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    async function unconfirmed(online: boolean) {
      const session = fakeSession();
      const { store } = createMemoryKeyValueStore({ auth: JSON.stringify({ email: ann.email }) });
      const appStore = createAppStore({ online });
      const onlineListeners = new Set<() => void>();
      const recheckSession = vi.fn();
      const sync = await startAuthSessionSync({
        session: session.source,
        store,
        appStore,
        reporter: { identify: vi.fn() },
        recheckSession,
        connection: {
          addEventListener: (_type, listener) => onlineListeners.add(listener),
          removeEventListener: (_type, listener) => onlineListeners.delete(listener),
        },
      });
      session.emit({ kind: 'unreachable' });
      const connectionBack = () => {
        for (const listener of onlineListeners) listener();
      };
      return { session, appStore, recheckSession, sync, connectionBack };
    }

    it('checks the session again as soon as the connection is back', async () => {
      const { appStore, recheckSession, connectionBack } = await unconfirmed(false);
      expect(appStore.get()).toMatchObject({ user: null, email: ann.email, ready: true });
      // Offline, nothing is asked.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(recheckSession).not.toHaveBeenCalled();
      connectionBack();
      expect(recheckSession).toHaveBeenCalledTimes(1);
    });

    it('asks again soon while the server cannot be reached, and stops once it answers', async () => {
      const { session, appStore, recheckSession } = await unconfirmed(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(recheckSession).toHaveBeenCalledTimes(1);
      session.emit({ kind: 'unreachable' });
      await vi.advanceTimersByTimeAsync(4_000);
      expect(recheckSession).toHaveBeenCalledTimes(2);
      session.emit({ kind: 'signed-in', user: ann });
      expect(appStore.get()).toMatchObject({ user: ann, email: ann.email });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(recheckSession).toHaveBeenCalledTimes(2);
    });

    it('asks again while the server cannot be reached with nobody signed in, until it answers', async () => {
      const session = fakeSession();
      const appStore = createAppStore({ online: true });
      const recheckSession = vi.fn();
      await startAuthSessionSync({
        session: session.source,
        store: createMemoryKeyValueStore({}).store,
        appStore,
        reporter: { identify: vi.fn() },
        recheckSession,
      });
      session.emit({ kind: 'unreachable' });
      expect(isOffline(appStore.get())).toBe(true);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(recheckSession).toHaveBeenCalledTimes(1);
      session.emit({ kind: 'signed-out' });
      expect(isOffline(appStore.get())).toBe(false);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(recheckSession).toHaveBeenCalledTimes(1);
    });

    it('checks at once when asked (Sync now before the server answered)', async () => {
      const { recheckSession, sync } = await unconfirmed(true);
      sync.recheck();
      expect(recheckSession).toHaveBeenCalledTimes(1);
    });
  });

  describe('with a session check that never answers', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('becomes ready after the timeout, keeping the stored e-mail', async () => {
      const pending = setup(JSON.stringify({ email: 'ann@example.org' }));
      await vi.advanceTimersByTimeAsync(0);
      const { appStore } = await pending;
      await vi.advanceTimersByTimeAsync(9_999);
      expect(appStore.get().ready).toBe(false);
      expect(isOffline(appStore.get())).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(appStore.get()).toMatchObject({ ready: true, email: 'ann@example.org' });
      // Unanswered counts as unreachable: the header says Offline.
      expect(isOffline(appStore.get())).toBe(true);
    });
  });
});

describe('startAuthSessionSync with a database per account', () => {
  async function setupAccounts(reloadNeeded = false) {
    const session = fakeSession();
    const { store } = createMemoryKeyValueStore({});
    const appStore = createAppStore({ online: true });
    let release: () => void = () => undefined;
    const entered: string[] = [];
    const accounts = {
      enter: vi.fn(
        (userId: string) =>
          new Promise<{ reload: boolean }>((resolve) => {
            entered.push(userId);
            release = () => {
              resolve({ reload: reloadNeeded });
            };
          }),
      ),
      leave: vi.fn(),
      reload: vi.fn(),
    };
    await startAuthSessionSync({
      session: session.source,
      store,
      appStore,
      reporter: { identify: vi.fn() },
      accounts,
    });
    return {
      session,
      appStore,
      accounts,
      entered,
      release: () => {
        release();
      },
    };
  }

  it('makes the user known only once their own database is the active one', async () => {
    const { session, appStore, accounts, release } = await setupAccounts();
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(accounts.enter).toHaveBeenCalledWith('u1');
    expect(appStore.get()).toMatchObject({ user: null, ready: false });
    release();
    await flush();
    expect(appStore.get()).toMatchObject({ user: ann, email: ann.email, ready: true });
    // The same user again (a session refetch) does not switch anything.
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(accounts.enter).toHaveBeenCalledTimes(1);
  });

  it('lets the entry under way finish when the same session is seen again meanwhile', async () => {
    const { session, appStore, accounts, release } = await setupAccounts();
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    // The session refetched while the sign-in still makes the vault: no second entry, which
    // would find the password taken and sign the account out.
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(accounts.enter).toHaveBeenCalledTimes(1);
    release();
    await flush();
    expect(appStore.get()).toMatchObject({ user: ann, passwordNeededFor: null, ready: true });
    // Signed out and in again, the account is entered anew.
    session.emit({ kind: 'signed-out' });
    await flush();
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(accounts.enter).toHaveBeenCalledTimes(2);
  });

  it('reloads instead of showing the user when the page holds another account’s database', async () => {
    const { session, appStore, accounts, release } = await setupAccounts(true);
    session.emit({ kind: 'signed-in', user: ann });
    release();
    await flush();
    expect(accounts.reload).toHaveBeenCalledTimes(1);
    expect(appStore.get().user).toBeNull();
  });

  it('leaves the account’s database at sign-out, after the app hears of it, and enters again at sign-in', async () => {
    const { session, appStore, accounts, release } = await setupAccounts();
    session.emit({ kind: 'signed-in', user: ann });
    release();
    await flush();
    const emailWhenLeft: (string | null)[] = [];
    accounts.leave.mockImplementation(() => {
      emailWhenLeft.push(appStore.get().email);
    });
    session.emit({ kind: 'signed-out' });
    await flush();
    expect(emailWhenLeft).toEqual([null]);
    session.emit({ kind: 'signed-in', user: ann });
    release();
    await flush();
    expect(accounts.enter).toHaveBeenCalledTimes(2);
    expect(appStore.get().user).toEqual(ann);
  });

  it('signs out here, and says the password is needed, when the account’s work has no vault yet', async () => {
    const session = fakeSession();
    const { store } = createMemoryKeyValueStore({ auth: JSON.stringify({ email: ann.email }) });
    const appStore = createAppStore({ online: true });
    const needed = new Error('Sign in with your password once more.');
    needed.name = 'PasswordNeededError';
    const accounts = {
      enter: vi.fn((_userId: string): Promise<{ reload: boolean }> => Promise.reject(needed)),
      leave: vi.fn(),
      reload: vi.fn(),
    };
    await startAuthSessionSync({
      session: session.source,
      store,
      appStore,
      reporter: { identify: vi.fn() },
      accounts,
    });
    // The stored record had the user known, as a session kept from an older version would.
    expect(appStore.get().email).toBe(ann.email);
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(appStore.get()).toMatchObject({
      user: null,
      email: null,
      ready: true,
      passwordNeededFor: ann.email,
    });
    expect(accounts.leave).toHaveBeenCalledTimes(1);
    // A sign-in with the password enters, and the notice goes.
    accounts.enter.mockImplementation(() => Promise.resolve({ reload: false }));
    session.emit({ kind: 'signed-out' });
    session.emit({ kind: 'signed-in', user: ann });
    await flush();
    expect(appStore.get()).toMatchObject({ user: ann, passwordNeededFor: null });
  });

  it('drops an entry overtaken by a sign-out', async () => {
    const { session, appStore, release } = await setupAccounts();
    session.emit({ kind: 'signed-in', user: ann });
    session.emit({ kind: 'signed-out' });
    release();
    await flush();
    expect(appStore.get()).toMatchObject({ user: null, email: null });
  });
});
