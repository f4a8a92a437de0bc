/** Settles once the window's load event has fired (at once if it already has). */
export function windowLoaded(target: Window): Promise<void> {
  if (target.document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    target.addEventListener(
      'load',
      () => {
        resolve();
      },
      { once: true },
    );
  });
}

/** A promise plus the function that settles it, for "the first render was committed". */
export function createSignal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

interface ReadyFlag {
  get(): { readonly ready: boolean };
  subscribe(listener: () => void): () => void;
}

/** Settles once `store` says start-up has finished (the first session check settled). */
export function whenReady(store: ReadyFlag): Promise<void> {
  return new Promise((resolve) => {
    if (store.get().ready) {
      resolve();
      return;
    }
    const unsubscribe = store.subscribe(() => {
      if (!store.get().ready) return;
      unsubscribe();
      resolve();
    });
  });
}

export interface AfterStartOptions {
  readonly firstCommit: Promise<void>;
  readonly ready: Promise<void>;
  /** The longest wait for `ready` once the first render is committed. */
  readonly maxWaitMs: number;
  /**
   * How long after `ready` to wait still: the guard opens the first screen then, and the screen
   * reads the device's database (idle time for the page, but not yet painted).
   */
  readonly settleMs: number;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  /** The page's idle callback; absent where the browser has none. */
  readonly requestIdleCallback?: (callback: () => void, options: { timeout: number }) => unknown;
}

/**
 * Settles once the app has started (its first render committed and the first session check
 * settled, or `maxWaitMs` after that render when the server is slow), `settleMs` more have
 * passed for the first screen to read and paint, and then the page was idle:
 * for work that would otherwise compete with the first screen's own reads and requests (a
 * browser opens six connections to a server: thirty chunks of background code queue the
 * session check behind them).
 */
export async function afterStart(options: AfterStartOptions): Promise<void> {
  await options.firstCommit;
  await Promise.race([
    options.ready,
    new Promise<void>((resolve) => options.setTimeout(resolve, options.maxWaitMs)),
  ]);
  await new Promise<void>((resolve) => options.setTimeout(resolve, options.settleMs));
  await new Promise<void>((resolve) => {
    if (options.requestIdleCallback === undefined) options.setTimeout(resolve, 0);
    else options.requestIdleCallback(resolve, { timeout: 500 });
  });
}
