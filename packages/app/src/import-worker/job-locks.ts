// Which import jobs are alive, across every open tab. A job's tab holds a Web Lock named after
// the job for as long as the job is queued or running there; the browser releases it when the
// tab closes or crashes. So at start-up a job marked running whose lock nobody holds was cut
// off, while one whose lock is held belongs to another tab and is left alone. One more lock,
// held while a job runs, makes imports run one at a time across tabs (the others wait queued).

export interface JobLocks {
  /** Runs `body` holding the lock `name`; rejects with an AbortError if `signal` fires while
   *  still waiting for it. */
  hold<T>(name: string, body: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Locks held or waited for, in any tab. */
  names(): Promise<Set<string>>;
}

export const IMPORTS_LOCK = 'docket-imports';
export function jobLockName(jobId: string): string {
  return `docket-import-job:${jobId}`;
}

export function webJobLocks(locks: LockManager): JobLocks {
  return {
    hold: async <T>(name: string, body: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
      let result: T | undefined;
      await locks.request(name, signal === undefined ? {} : { signal }, async () => {
        result = await body();
      });
      return result as T;
    },
    names: async () => {
      const snapshot = await locks.query();
      return new Set(
        [...(snapshot.held ?? []), ...(snapshot.pending ?? [])].flatMap((lock) =>
          lock.name === undefined ? [] : [lock.name],
        ),
      );
    },
  };
}

function abortError(): Error {
  const error = new Error('The wait for the lock was aborted.');
  error.name = 'AbortError';
  return error;
}

/** For where Web Locks are missing (tests, old browsers): locks within this context only. */
export function localJobLocks(): JobLocks {
  const tails = new Map<string, Promise<void>>();
  const held = new Map<string, number>();
  return {
    async hold(name, body, signal) {
      if (signal?.aborted === true) throw abortError();
      held.set(name, (held.get(name) ?? 0) + 1);
      const previous = tails.get(name) ?? Promise.resolve();
      let release = (): void => undefined;
      const tail = new Promise<void>((resolve) => {
        release = resolve;
      });
      tails.set(
        name,
        previous.then(() => tail),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            reject(abortError());
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          void previous.then(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          });
        });
        return await body();
      } finally {
        release();
        const count = (held.get(name) ?? 1) - 1;
        if (count === 0) held.delete(name);
        else held.set(name, count);
      }
    },
    names: () => Promise.resolve(new Set(held.keys())),
  };
}
