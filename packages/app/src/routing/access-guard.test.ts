import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore, type AppState, type AppStore } from '../state/app-store.ts';
import {
  AUTHENTICATING_MESSAGE,
  createGuardHandOver,
  decideAccess,
  guardWait,
  startAccessGuard,
  type GuardDecision,
  type GuardFacts,
  type GuardWait,
} from './access-guard.ts';

const facts = (overrides: Partial<GuardFacts>): GuardFacts => ({
  path: '/jobs',
  search: '',
  online: true,
  ready: true,
  signedIn: true,
  ...overrides,
});

describe('decideAccess offline', () => {
  it('allows the route when the app is ready', () => {
    expect(decideAccess(facts({ online: false, signedIn: false }))).toEqual({ kind: 'allow' });
  });

  it('goes home when the app is not ready yet', () => {
    expect(decideAccess(facts({ online: false, ready: false }))).toEqual({
      kind: 'redirect',
      to: '/',
      asRoot: false,
    });
  });

  it('allows home itself even before ready, instead of redirecting to itself', () => {
    expect(decideAccess(facts({ online: false, ready: false, path: '/' }))).toEqual({
      kind: 'allow',
    });
    expect(decideAccess(facts({ online: false, ready: false, path: '/tabs/bills' }))).toEqual({
      kind: 'allow',
    });
  });
});

describe('decideAccess online, signed in', () => {
  it('navigates to the decoded returnToLink as the new root', () => {
    const search = `?returnToLink=${encodeURIComponent('/bill-details?id=42')}`;
    expect(decideAccess(facts({ path: '/login', search }))).toEqual({
      kind: 'redirect',
      to: '/bill-details?id=42',
      asRoot: true,
    });
    expect(decideAccess(facts({ path: '/login', search, ready: false }))).toEqual({
      kind: 'redirect',
      to: '/bill-details?id=42',
      asRoot: true,
    });
  });

  it('allows the route when the app is already ready', () => {
    expect(decideAccess(facts({}))).toEqual({ kind: 'allow' });
  });

  it('goes home when the app is not ready yet', () => {
    expect(decideAccess(facts({ ready: false }))).toEqual({
      kind: 'redirect',
      to: '/',
      asRoot: false,
    });
  });

  it.each([
    '//evil.example',
    '//evil.example/path',
    'https://evil.example',
    'javascript:alert(1)',
    '/\\evil.example',
    'evil.example',
    '/logout',
  ])('refuses the hostile returnToLink %s', (hostile) => {
    const search = `?returnToLink=${encodeURIComponent(hostile)}`;
    expect(decideAccess(facts({ path: '/login', search }))).toEqual({ kind: 'allow' });
    expect(decideAccess(facts({ path: '/login', search, ready: false }))).toEqual({
      kind: 'redirect',
      to: '/',
      asRoot: false,
    });
  });
});

describe('decideAccess online, signed out', () => {
  it('sends the user to /login with the attempted path and query, encoded', () => {
    expect(
      decideAccess(facts({ signedIn: false, path: '/bill-details', search: '?id=7' })),
    ).toEqual({
      kind: 'redirect',
      to: '/login?returnToLink=%2Fbill-details%3Fid%3D7',
      asRoot: false,
    });
  });

  it('does so whether or not the app is ready', () => {
    expect(decideAccess(facts({ signedIn: false, ready: false, path: '/' }))).toEqual({
      kind: 'redirect',
      to: '/login?returnToLink=%2F',
      asRoot: false,
    });
  });

  it('lets a signed-out user stay on /login', () => {
    const search = '?returnToLink=%2Fjobs';
    expect(decideAccess(facts({ signedIn: false, path: '/login', search }))).toEqual({
      kind: 'allow',
    });
  });
});

describe('guardWait', () => {
  it('waits 4000 ms with "Authenticating" on the empty path and /login when not signed in', () => {
    for (const path of ['/', '', '/login']) {
      expect(guardWait(path, false)).toEqual({ delayMs: 4000, message: 'Authenticating' });
    }
  });

  it('waits 500 ms everywhere else, and for a signed-in user', () => {
    expect(guardWait('/jobs', false)).toEqual({ delayMs: 500, message: null });
    expect(guardWait('/tabs/bills', false)).toEqual({ delayMs: 500, message: null });
    expect(guardWait('/', true)).toEqual({ delayMs: 500, message: null });
    expect(guardWait('/login', true)).toEqual({ delayMs: 500, message: null });
  });
});

describe('startAccessGuard timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timers = {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
  };

  function run(store: AppStore, path: string, search = '', handedOver = false, askedMsAgo = 0) {
    const waits: GuardWait[] = [];
    const decisions: GuardDecision[] = [];
    const cancel = startAccessGuard({
      path,
      search,
      store,
      timers,
      handedOver,
      askedMsAgo,
      onWait: (wait) => waits.push(wait),
      onDecision: (decision) => decisions.push(decision),
    });
    return { waits, decisions, cancel };
  }

  const readySignedIn: Partial<AppState> = { ready: true, email: 'ann@example.org' };

  it('decides at once when offline, without waiting', () => {
    const { waits, decisions } = run(createAppStore({ online: false, ready: true }), '/jobs');
    expect(waits).toEqual([]);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('decides after 500 ms, not at 499 ms', () => {
    const { waits, decisions } = run(createAppStore(readySignedIn), '/jobs');
    expect(waits).toEqual([{ delayMs: 500, message: null }]);
    vi.advanceTimersByTime(499);
    expect(decisions).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it("counts the 500 ms from when the page's route was asked for: its script loaded meanwhile", () => {
    const { waits, decisions } = run(createAppStore(readySignedIn), '/tabs/bills', '', false, 300);
    expect(waits).toEqual([{ delayMs: 500, message: null }]);
    vi.advanceTimersByTime(199);
    expect(decisions).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('asked longer ago than 500 ms, decides as soon as the first session check has answered', () => {
    const store = createAppStore({ email: 'ann@example.org' });
    const { decisions } = run(store, '/tabs/bills', '', false, 1_200);
    vi.advanceTimersByTime(0);
    expect(decisions).toEqual([]);
    store.update({ ready: true });
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('never shortens the 4000 ms wait that says "Authenticating": it shows for all of it', () => {
    const { decisions } = run(createAppStore({ ready: true }), '/login', '', false, 1_200);
    vi.advanceTimersByTime(3999);
    expect(decisions).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(decisions).toHaveLength(1);
  });

  it.each(['/', '/login'])(
    'shows "Authenticating" on %s when not signed in and decides after 4000 ms, not at 3999 ms',
    (path) => {
      const { waits, decisions } = run(createAppStore({ ready: true }), path);
      expect(waits).toEqual([{ delayMs: 4000, message: AUTHENTICATING_MESSAGE }]);
      vi.advanceTimersByTime(3999);
      expect(decisions).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(decisions).toHaveLength(1);
    },
  );

  it('does not wait again on /login when the guard itself sent the user there, once ready', () => {
    const { waits, decisions } = run(
      createAppStore({ ready: true }),
      '/login',
      '?returnToLink=%2F',
      true,
    );
    expect(waits).toEqual([]);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('still waits on a hand-over before start-up finished (the session is not known yet)', () => {
    const { waits } = run(createAppStore({ ready: false }), '/login', '', true);
    expect(waits).toEqual([{ delayMs: 4000, message: AUTHENTICATING_MESSAGE }]);
  });

  it('waits only 500 ms on / for a signed-in user', () => {
    const { decisions } = run(createAppStore(readySignedIn), '/');
    vi.advanceTimersByTime(500);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('after the wait, waits for the first session check before deciding "signed in"', () => {
    const store = createAppStore({ ready: false });
    const { decisions } = run(store, '/jobs');
    vi.advanceTimersByTime(5000);
    expect(decisions).toEqual([]);
    store.update({ ready: true, email: 'ann@example.org' });
    // Start-up finished before the decision, so the deep link opened on this fresh load stays.
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('sends a user the first session check found signed out to /login', () => {
    const store = createAppStore({ ready: false });
    const { decisions } = run(store, '/jobs', '?tab=2');
    vi.advanceTimersByTime(500);
    store.update({ ready: true });
    expect(decisions).toEqual([
      { kind: 'redirect', to: '/login?returnToLink=%2Fjobs%3Ftab%3D2', asRoot: false },
    ]);
  });

  it('applies the offline rule when the connection dropped during the wait', () => {
    const store = createAppStore({ ready: false });
    const { decisions } = run(store, '/tabs/bills');
    store.update({ online: false });
    vi.advanceTimersByTime(500);
    expect(decisions).toEqual([{ kind: 'allow' }]);
  });

  it('decides nothing once cancelled', () => {
    const { decisions, cancel } = run(createAppStore(readySignedIn), '/jobs');
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(decisions).toEqual([]);
  });

  it('decides only once', () => {
    const store = createAppStore({ ready: false });
    const { decisions } = run(store, '/jobs');
    vi.advanceTimersByTime(500);
    store.update({ ready: true });
    store.update({ email: 'ann@example.org' });
    store.update({ online: false });
    expect(decisions).toHaveLength(1);
  });
});

describe("the guard's hand-over to /login", () => {
  it('is taken once, by the navigation it was given for', () => {
    const handOver = createGuardHandOver();
    handOver.give('/login?returnToLink=%2F');
    expect(handOver.take('/login?returnToLink=%2F')).toBe(true);
    expect(handOver.take('/login?returnToLink=%2F')).toBe(false);
  });

  it('is forgotten when another navigation comes first', () => {
    const handOver = createGuardHandOver();
    handOver.give('/login?returnToLink=%2F');
    expect(handOver.take('/login')).toBe(false);
    expect(handOver.take('/login?returnToLink=%2F')).toBe(false);
  });
});
