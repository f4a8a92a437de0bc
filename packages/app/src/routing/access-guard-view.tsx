import { IonContent, IonPage, IonSpinner, useIonRouter } from '@ionic/react';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { useAppServices } from '../app-services.ts';
import { startAccessGuard, type GuardTimers } from './access-guard.ts';

type GuardPhase =
  { readonly kind: 'waiting'; readonly message: string | null } | { readonly kind: 'allowed' };

const browserTimers: GuardTimers = {
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  clearTimeout: (handle) => {
    window.clearTimeout(handle as number);
  },
};

export interface AccessGuardViewProps {
  /** The route pattern this guard protects, e.g. '/bill-details' or '/tabs/*'. */
  readonly pattern: string;
  /**
   * Set when the guarded content is a page of its own (IonTabs): the waiting view then brings
   * its own IonPage instead of living inside the route's.
   */
  readonly standalone?: boolean;
  readonly children: ReactNode;
}

/**
 * Shows the guarded route only once the access guard allowed it (src/routing/access-guard.ts
 * holds the rules). Ionic keeps visited pages mounted, so the guard runs again each time the
 * location enters its route, as a router guard would, not just when it first mounts.
 */
export function AccessGuardView({ pattern, standalone = false, children }: AccessGuardViewProps) {
  const { appStore } = useAppServices();
  const location = useLocation();
  const ionRouter = useIonRouter();
  const [phase, setPhase] = useState<GuardPhase>({ kind: 'waiting', message: null });
  const entered = matchPath({ path: pattern, end: true }, location.pathname)?.pathnameBase ?? null;

  const runGuard = useEffectEvent(() =>
    startAccessGuard({
      path: location.pathname,
      search: location.search,
      store: appStore,
      timers: browserTimers,
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
        } else if (decision.asRoot) {
          ionRouter.navigateRoot(decision.to);
        } else {
          ionRouter.push(decision.to, 'root', 'replace');
        }
      },
    }),
  );

  useEffect(() => {
    if (entered === null) return;
    return runGuard();
  }, [entered]);

  if (phase.kind === 'allowed') return children;
  const waiting = (
    <IonContent>
      <div className="guard-wait" role="status">
        <IonSpinner aria-hidden="true" name="crescent" color="primary" />
        {phase.message === null ? (
          <span className="visually-hidden">Loading</span>
        ) : (
          <p>{phase.message}</p>
        )}
      </div>
    </IonContent>
  );
  return standalone ? <IonPage>{waiting}</IonPage> : waiting;
}
