import { useIonRouter } from '@ionic/react';
import { createContext, use, useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { useAppServices } from '../services/app-services.ts';
import { createGuardHandOver, startAccessGuard, type GuardTimers } from './access-guard.ts';
import { WaitContent } from './wait-content.tsx';

type GuardPhase =
  { readonly kind: 'waiting'; readonly message: string | null } | { readonly kind: 'allowed' };

const browserTimers: GuardTimers = {
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => {
    window.clearTimeout(handle as number);
  },
};

/** The guard's redirects, shared by the guards of every route of the page. */
const handOver = createGuardHandOver();

/**
 * Whether a guard has run on this page yet. The first one guards the route the page was loaded
 * for, asked for when the navigation began: its 500 ms count from then (performance.now()), so a
 * cold start does not wait for its script and then 500 ms more.
 */
let pageRouteGuarded = false;

/**
 * The message of the guard's wait ('Authenticating'), for a screen shown while the guard waits;
 * null when the guard is not waiting with a message.
 */
const GuardWaitMessage = createContext<string | null>(null);

export function useGuardWaitMessage(): string | null {
  return use(GuardWaitMessage);
}

export interface AccessGuardViewProps {
  /** The route pattern this guard protects, e.g. '/bill-details' or '/tabs/*'. */
  readonly pattern: string;
  /**
   * Show the screen during the 'Authenticating' wait (the screen shows the message itself, from
   * useGuardWaitMessage): /login, whose form is for exactly the people that wait is about.
   */
  readonly showWhileAuthenticating?: boolean;
  readonly children: ReactNode;
}

/**
 * Shows the guarded route only once the access guard allowed it (src/routing/access-guard.ts
 * holds the rules). Ionic keeps visited pages mounted, so the guard runs again each time the
 * location enters its route, as a router guard would, not just when it first mounts.
 */
export function AccessGuardView({
  pattern,
  showWhileAuthenticating = false,
  children,
}: AccessGuardViewProps) {
  const { appStore } = useAppServices();
  const location = useLocation();
  const ionRouter = useIonRouter();
  const [phase, setPhase] = useState<GuardPhase>({ kind: 'waiting', message: null });
  const entered = matchPath({ path: pattern, end: true }, location.pathname)?.pathnameBase ?? null;

  const runGuard = useEffectEvent(() => {
    const cancel = startAccessGuard({
      path: location.pathname,
      search: location.search,
      store: appStore,
      timers: browserTimers,
      handedOver: handOver.take(`${location.pathname}${location.search}`),
      askedMsAgo: pageRouteGuarded ? 0 : performance.now(),
      // A page already shown stays up while the guard checks again on a later entry: Ionic
      // keeps that page's element for its transitions, and swapping it out leaves it invisible.
      onWait: ({ message }) => {
        setPhase((current) =>
          current.kind === 'allowed' ? current : { kind: 'waiting', message },
        );
      },
      onDecision: (decision) => {
        if (decision.kind === 'allow') {
          setPhase({ kind: 'allowed' });
          return;
        }
        handOver.give(decision.to);
        if (decision.asRoot) {
          ionRouter.navigateRoot(decision.to);
        } else {
          ionRouter.push(decision.to, 'root', 'replace');
        }
      },
    });
    pageRouteGuarded = true;
    return cancel;
  });

  useEffect(() => {
    if (entered === null) return;
    return runGuard();
  }, [entered]);

  // One element tree whether waiting or allowed, so a form shown during the wait keeps what was
  // typed into it when the wait ends.
  const message = phase.kind === 'waiting' ? phase.message : null;
  if (phase.kind === 'allowed' || (showWhileAuthenticating && message !== null)) {
    return <GuardWaitMessage value={message}>{children}</GuardWaitMessage>;
  }
  return <WaitContent message={phase.message} />;
}
