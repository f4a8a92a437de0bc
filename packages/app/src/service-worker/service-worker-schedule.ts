/** Spec §9: the service worker is registered this long after the app is stable. */
export const SERVICE_WORKER_DELAY_MS = 30_000;

export interface ServiceWorkerSchedule {
  /** Development builds never register one (spec §7). */
  readonly isDevelopment: boolean;
  /** Settles when the app is stable: first render committed and the window's load fired. */
  readonly whenStable: Promise<unknown>;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  readonly register: () => Promise<unknown>;
  readonly delayMs?: number;
}

/**
 * Registers the service worker once, SERVICE_WORKER_DELAY_MS after the app is stable, so its
 * precaching never competes with the first load. Resolves when the registration was started.
 */
export async function scheduleServiceWorkerRegistration(schedule: ServiceWorkerSchedule) {
  if (schedule.isDevelopment) return;
  await schedule.whenStable;
  await new Promise<void>((resolve) => {
    schedule.setTimeout(resolve, schedule.delayMs ?? SERVICE_WORKER_DELAY_MS);
  });
  await schedule.register();
}
