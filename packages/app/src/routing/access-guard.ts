import { isSignedIn, type AppState } from '../state/app-store.ts';
import { returnPathFromSearch } from './return-to-link.ts';
import { HOME_PATH, isHomePath, LOGIN_PATH, loginPathReturningTo } from './route-paths.ts';

/** Spec §9: the guard waits this long before deciding... */
export const GUARD_DELAY_MS = 500;
/** ...or this long, saying so, when nobody is signed in yet on the empty path or /login. */
export const GUARD_AUTHENTICATING_DELAY_MS = 4000;
export const AUTHENTICATING_MESSAGE = 'Authenticating';

export interface GuardWait {
  readonly delayMs: number;
  /** Text to show while waiting; null for a bare spinner. */
  readonly message: string | null;
}

/** How long the guard waits online before deciding, and what it shows meanwhile. */
export function guardWait(path: string, signedIn: boolean): GuardWait {
  const entryPath = path === HOME_PATH || path === '' || path === LOGIN_PATH;
  return !signedIn && entryPath
    ? { delayMs: GUARD_AUTHENTICATING_DELAY_MS, message: AUTHENTICATING_MESSAGE }
    : { delayMs: GUARD_DELAY_MS, message: null };
}

export type GuardDecision =
  | { readonly kind: 'allow' }
  /** Leave for `to`, replacing the guarded entry in history; `asRoot` also starts a new stack. */
  | { readonly kind: 'redirect'; readonly to: string; readonly asRoot: boolean };

export interface GuardFacts {
  readonly path: string;
  /** The query string of the attempted URL, '' or starting with '?'. */
  readonly search: string;
  readonly online: boolean;
  /**
   * Whether the app's start-up has finished (stored auth record read; first session check
   * answered, failed or timed out; at once when starting offline), at the moment of deciding.
   * Online the guard waits for it, so a deep link opened on a fresh load is kept; offline the
   * guard decides at once and only an app that could not start goes home.
   */
  readonly ready: boolean;
  readonly signedIn: boolean;
}

const allow: GuardDecision = { kind: 'allow' };
const goHome: GuardDecision = { kind: 'redirect', to: HOME_PATH, asRoot: false };

/** Spec §4 Access guard, once the wait is over (or at once when offline). */
export function decideAccess(facts: GuardFacts): GuardDecision {
  if (!facts.online) {
    return facts.ready || isHomePath(facts.path) ? allow : goHome;
  }
  if (facts.signedIn) {
    const returnPath = returnPathFromSearch(facts.search);
    if (returnPath !== null) return { kind: 'redirect', to: returnPath, asRoot: true };
    return facts.ready || isHomePath(facts.path) ? allow : goHome;
  }
  // Login is where signed-out users belong; sending them on to itself would never end.
  if (facts.path === LOGIN_PATH) return allow;
  return {
    kind: 'redirect',
    to: loginPathReturningTo(`${facts.path}${facts.search}`),
    asRoot: false,
  };
}

export interface GuardTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AccessGuardRun {
  readonly path: string;
  readonly search: string;
  readonly store: {
    get(): AppState;
    subscribe(listener: () => void): () => void;
  };
  readonly timers: GuardTimers;
  /**
   * This navigation is the guard's own redirect to /login, made once it had waited and the app
   * was ready: the wait was paid on the attempted route, so /login does not pay it again.
   */
  readonly handedOver?: boolean;
  /**
   * How long ago this route was asked for, when that was before the guard could start: on a
   * page's first route, the time since the navigation began (the page's script had to load
   * first). Counts toward the bare 500 ms wait, never toward the 4000 ms one, whose
   * 'Authenticating' is shown for its whole length.
   */
  readonly askedMsAgo?: number;
  /** Called when the guard starts waiting (online only). */
  onWait(wait: GuardWait): void;
  onDecision(decision: GuardDecision): void;
}

/**
 * Runs the guard for one navigation: offline, or on /login when the guard itself just sent the
 * user there, it decides at once; online it waits 500 ms from when the route was asked for (or
 * 4000 ms with "Authenticating", from when that shows), then for the first session check, then
 * decides. Returns a
 * function that cancels a guard whose navigation was abandoned.
 */
export function startAccessGuard(run: AccessGuardRun): () => void {
  const { store, timers } = run;
  const start = store.get();
  let finished = false;
  let unsubscribe: (() => void) | undefined;

  const decideIfSettled = () => {
    const state = store.get();
    // "Signed in" is only known once the first session check settled; offline it never matters.
    if (finished || (state.online && !state.ready)) return;
    finished = true;
    unsubscribe?.();
    run.onDecision(
      decideAccess({
        path: run.path,
        search: run.search,
        online: state.online,
        ready: state.ready,
        signedIn: isSignedIn(state),
      }),
    );
  };

  if (!start.online || (run.handedOver === true && start.ready)) {
    decideIfSettled();
    return () => undefined;
  }

  const wait = guardWait(run.path, isSignedIn(start));
  run.onWait(wait);
  const waited = wait.message === null ? Math.max(0, run.askedMsAgo ?? 0) : 0;
  const timer = timers.setTimeout(
    () => {
      decideIfSettled();
      if (!finished) unsubscribe = store.subscribe(decideIfSettled);
    },
    Math.max(0, wait.delayMs - waited),
  );

  return () => {
    finished = true;
    timers.clearTimeout(timer);
    unsubscribe?.();
  };
}

/**
 * Remembers the /login redirects the guard made, so that the guard of /login, entered by that
 * very navigation, knows the wait was already paid. One per app (the guards of all routes share
 * it); a hand-over is taken once.
 */
export interface GuardHandOver {
  /** The guard is about to send the user to `to` (path and query). */
  give(to: string): void;
  /** Whether the navigation to `pathAndSearch` is the guard's own; forgets it either way. */
  take(pathAndSearch: string): boolean;
}

export function createGuardHandOver(): GuardHandOver {
  let pending: string | null = null;
  return {
    give(to) {
      pending = to;
    },
    take(pathAndSearch) {
      const handedOver = pending === pathAndSearch;
      pending = null;
      return handedOver;
    },
  };
}
