import { describe, expect, it } from 'vitest';
import { createLazySyncRunner, initialSyncState, type SyncRunnerApi } from './lazy-sync-runner.ts';
import type { SyncRunnerState } from './sync-runner-types.ts';

/** A runner that records what it was asked, in order, and can change its state. */
function recordingRunner() {
  const calls: string[] = [];
  const listeners = new Set<() => void>();
  let state: SyncRunnerState = { ...initialSyncState, view: { kind: 'offline' } };
  const record =
    (name: string) =>
    (...args: unknown[]): void => {
      calls.push(args.length === 0 ? name : `${name}(${args.map(String).join(', ')})`);
    };
  const runner: SyncRunnerApi = {
    get: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setUser: record('setUser'),
    setOnline: record('setOnline'),
    requestSync: record('requestSync'),
    connectionBack: record('connectionBack'),
    nudged: record('nudged'),
    passwordHeld: record('passwordHeld'),
    passwordRejected: record('passwordRejected'),
    passwordEntered: record('passwordEntered'),
    termsAccepted: record('termsAccepted'),
    termsSetAside: record('termsSetAside'),
    askForTerms: record('askForTerms'),
    dismissNotice: record('dismissNotice'),
    skipChange: (seqno) => {
      calls.push(`skipChange(${seqno})`);
      return Promise.resolve();
    },
    skipUnsendable: (entryId) => {
      calls.push(`skipUnsendable(${entryId})`);
      return Promise.resolve();
    },
    handOverDevice: () => {
      calls.push('handOverDevice');
      return Promise.resolve();
    },
    bringBackChanges: () => {
      calls.push('bringBackChanges');
      return Promise.resolve();
    },
    syncNow: record('syncNow'),
  };
  const change = (next: SyncRunnerState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  return { runner, calls, change };
}

describe('the sync runner before and after its code loads', () => {
  it('shows the starting state, keeps what it is asked in order, and hands it all to the runner', async () => {
    const real = recordingRunner();
    let made = 0;
    const lazy = createLazySyncRunner(() => {
      made += 1;
      return Promise.resolve(real.runner);
    });
    expect(lazy.get()).toEqual(initialSyncState);
    const heard: SyncRunnerState[] = [];
    const unsubscribe = lazy.subscribe(() => heard.push(lazy.get()));
    lazy.setOnline(true);
    lazy.setUser('user-1');
    lazy.passwordEntered('secret', false);
    expect(real.calls).toEqual([]);

    const [first, second] = await Promise.all([lazy.load(), lazy.load()]);
    expect(first).toBe(real.runner);
    expect(second).toBe(real.runner);
    expect(made).toBe(1);
    expect(real.calls).toEqual([
      'setOnline(true)',
      'setUser(user-1)',
      'passwordEntered(secret, false)',
    ]);
    // The screens are told to read again, and now read the runner's state.
    expect(heard.at(-1)?.view).toEqual({ kind: 'offline' });
    real.change({ ...initialSyncState, view: { kind: 'up-to-date', at: '2026-11-26T18:00:00Z' } });
    expect(lazy.get().view).toEqual({ kind: 'up-to-date', at: '2026-11-26T18:00:00Z' });
    expect(heard.at(-1)?.view.kind).toBe('up-to-date');

    // After loading, calls go straight through; a repair asked before loading waits for it.
    lazy.syncNow();
    await lazy.skipChange(7);
    expect(real.calls.slice(-2)).toEqual(['syncNow', 'skipChange(7)']);
    unsubscribe();
    real.change(initialSyncState);
    expect(heard.at(-1)?.view.kind).toBe('up-to-date');
  });

  it('runs a repair asked for before the code loaded once it has', async () => {
    const real = recordingRunner();
    const lazy = createLazySyncRunner(() => Promise.resolve(real.runner));
    await lazy.skipUnsendable('entry-1');
    expect(real.calls).toEqual(['skipUnsendable(entry-1)']);
  });
});
