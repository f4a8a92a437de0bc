import type { FormDraftFields } from '@docket/core/device';

// Keeps a form's draft in step with what is typed, a short pause after the last keystroke, and
// writes in the order things happened: a save finished after the draft was cleared must not
// bring it back. The storage is the device store in the app (use-form-draft.ts), a fake in tests.

export interface DraftStorage {
  save(fields: FormDraftFields): Promise<void>;
  remove(): Promise<void>;
}

/** A light debounce: typing is not slowed, and a reload a moment after a keystroke keeps it. */
export const DRAFT_SAVE_DELAY_MS = 250;

export interface DraftKeeper {
  /** What the form holds now; null when there is nothing to keep (the form is as it started). */
  change(fields: FormDraftFields | null): void;
  /** Writes a waiting change at once (the page is being hidden or left). */
  flush(): Promise<void>;
  /** Forgets the draft: the form was saved or its changes discarded. */
  clear(): Promise<void>;
}

export function createDraftKeeper(
  storage: DraftStorage,
  options: {
    /** Whether a draft is stored already (one was found, or none). */
    stored: boolean;
    delayMs?: number;
    onError?: (error: unknown) => void;
  },
): DraftKeeper {
  const delayMs = options.delayMs ?? DRAFT_SAVE_DELAY_MS;
  let stored = options.stored;
  let waiting: { fields: FormDraftFields | null } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWritten: string | null = null;
  let queue: Promise<void> = Promise.resolve();

  const enqueue = (write: () => Promise<void>): Promise<void> => {
    queue = queue.then(write).catch((error: unknown) => {
      options.onError?.(error);
    });
    return queue;
  };

  const write = (fields: FormDraftFields | null): Promise<void> => {
    if (fields === null) {
      if (!stored) return queue;
      stored = false;
      lastWritten = null;
      return enqueue(() => storage.remove());
    }
    const text = JSON.stringify(fields);
    if (stored && text === lastWritten) return queue;
    stored = true;
    lastWritten = text;
    return enqueue(() => storage.save(fields));
  };

  const stopTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const flush = (): Promise<void> => {
    stopTimer();
    const pending = waiting;
    waiting = null;
    return pending === null ? queue : write(pending.fields);
  };

  return {
    change(fields) {
      waiting = { fields };
      stopTimer();
      timer = setTimeout(() => {
        void flush();
      }, delayMs);
    },
    flush,
    clear() {
      stopTimer();
      waiting = null;
      // Removed even when this keeper thinks nothing is stored: another tab may have kept one.
      stored = false;
      lastWritten = null;
      return enqueue(() => storage.remove());
    },
  };
}
