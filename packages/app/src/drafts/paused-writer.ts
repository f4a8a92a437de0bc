// What a form's draft and a form that saves itself share: a value written a short pause after
// its last change, or at once when flushed (the field left, the page hidden), with writes run
// one after another in the order they were asked for, so an older value never lands last.
// The draft keeper (draft-keeper.ts) and useFormDraft's autosave (use-form-draft.ts) are its
// two users.

export interface PausedWriter<T> {
  /** The value now: written after the pause, unless changed again before. */
  change(value: T): void;
  /** Forgets a waiting change. */
  cancel(): void;
  /** Writes a waiting change at once; resolves once every write asked for has finished. */
  flush(): Promise<void>;
  /** Runs `task` after every write asked for so far, in the same line. */
  enqueue(task: () => Promise<void>): Promise<void>;
}

export function createPausedWriter<T>(options: {
  /** Writes a value; runs when its turn comes, so it reads what the writes before it left. */
  write: (value: T) => Promise<void>;
  delayMs: number;
  /** A failed write is reported here and the line carries on. */
  onError?: (error: unknown) => void;
}): PausedWriter<T> {
  let waiting: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queue: Promise<void> = Promise.resolve();

  const enqueue = (task: () => Promise<void>): Promise<void> => {
    queue = queue.then(task).catch((error: unknown) => {
      options.onError?.(error);
    });
    return queue;
  };

  const stopTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const flush = (): Promise<void> => {
    stopTimer();
    const pending = waiting;
    waiting = null;
    return pending === null ? queue : enqueue(() => options.write(pending.value));
  };

  return {
    change(value) {
      waiting = { value };
      stopTimer();
      timer = setTimeout(() => {
        void flush();
      }, options.delayMs);
    },
    cancel() {
      stopTimer();
      waiting = null;
    },
    flush,
    enqueue,
  };
}
