import type { FormDraftFields } from '@docket/core/device';
import { createPausedWriter } from './paused-writer.ts';

// Keeps a form's draft in step with what is typed, a short pause after the last keystroke, and
// writes in the order things happened (paused-writer.ts): a save finished after the draft was
// cleared must not bring it back. The storage is the device store in the app (use-form-draft.ts), a fake in tests.

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
  let stored = options.stored;
  let lastWritten: string | null = null;

  // Runs in the writer's line, so it sees what the writes before it (and a clear) left.
  const write = async (fields: FormDraftFields | null): Promise<void> => {
    if (fields === null) {
      if (!stored) return;
      stored = false;
      lastWritten = null;
      await storage.remove();
      return;
    }
    const text = JSON.stringify(fields);
    if (stored && text === lastWritten) return;
    stored = true;
    lastWritten = text;
    await storage.save(fields);
  };
  const writer = createPausedWriter({
    write,
    delayMs: options.delayMs ?? DRAFT_SAVE_DELAY_MS,
    onError: (error) => {
      options.onError?.(error);
    },
  });

  return {
    change(fields) {
      writer.change(fields);
    },
    flush: () => writer.flush(),
    clear() {
      // A waiting save is dropped; one already in the line runs first, then this removes it.
      writer.cancel();
      return writer.enqueue(async () => {
        // Removed even when this keeper thinks nothing is stored: another tab may have kept one.
        stored = false;
        lastWritten = null;
        await storage.remove();
      });
    },
  };
}
