// The position's "Why" saves as it is typed, with no Save button, like the position beside it:
// a short pause after the last keystroke, at once when the field is left or the page hidden. Saves
// run one after another in the order they were asked for, so an older text never lands last.
// The text is compared with what is stored (trimmed, as core keeps it), so leaving a field that
// holds what is stored writes nothing.

/** Long enough not to write at every keystroke, short enough that a pause saves. */
export const REASON_SAVE_DELAY_MS = 700;

export interface ReasonAutosave {
  /** What the field holds now: saved after the pause, unless changed again before. */
  change(text: string): void;
  /** Forgets a waiting change (the text cannot be saved: too long). */
  cancel(): void;
  /** Saves a waiting change at once; resolves once every save asked for has finished. */
  flush(): Promise<void>;
}

export function createReasonAutosave(options: {
  /** Writes the reason (core's setPositionReason); rejects when it could not. */
  save: (reason: string) => Promise<void>;
  /** The reason as stored now. */
  stored: () => string;
  delayMs?: number;
  onError?: (error: unknown) => void;
}): ReasonAutosave {
  const delayMs = options.delayMs ?? REASON_SAVE_DELAY_MS;
  let waiting: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queue: Promise<void> = Promise.resolve();

  const stopTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const flush = (): Promise<void> => {
    stopTimer();
    const text = waiting;
    waiting = null;
    if (text === null) return queue;
    queue = queue.then(async () => {
      // Read when its turn comes: a save before it may have stored this very text.
      const reason = text.trim();
      if (reason === options.stored().trim()) return;
      try {
        await options.save(reason);
      } catch (error) {
        options.onError?.(error);
      }
    });
    return queue;
  };

  return {
    change(text) {
      waiting = text;
      stopTimer();
      timer = setTimeout(() => {
        void flush();
      }, delayMs);
    },
    cancel() {
      stopTimer();
      waiting = null;
    },
    flush,
  };
}

/**
 * What the field shows once the stored reason changed from `previous` to `stored`: the user's own
 * text while it holds typing not saved yet, otherwise what is stored now (a change from another
 * tab or device, or from a restore).
 */
export function reasonAfterStoredChange(text: string, previous: string, stored: string): string {
  const typed = text.trim();
  if (typed === stored.trim()) return text;
  return typed === previous.trim() ? stored : text;
}
