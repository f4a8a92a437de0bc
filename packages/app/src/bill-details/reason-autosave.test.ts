import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createReasonAutosave,
  REASON_SAVE_DELAY_MS,
  reasonAfterStoredChange,
} from './reason-autosave.ts';

/** A store that takes a moment to write, as IndexedDB does. */
function fakeStore(initial = '') {
  let stored = initial;
  const saves: string[] = [];
  return {
    saves,
    stored: () => stored,
    save: async (reason: string) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      saves.push(reason);
      stored = reason;
    },
  };
}

describe('createReasonAutosave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('saves a pause after the last keystroke, once, trimmed', async () => {
    const store = fakeStore();
    const autosave = createReasonAutosave(store);
    autosave.change('C');
    autosave.change('Co');
    await vi.advanceTimersByTimeAsync(REASON_SAVE_DELAY_MS - 100);
    autosave.change('Costs ');
    await vi.advanceTimersByTimeAsync(REASON_SAVE_DELAY_MS - 100);
    expect(store.saves).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(store.saves).toEqual(['Costs']);
  });

  it('saves at once when flushed (the field left, the page hidden), in order', async () => {
    const store = fakeStore();
    const autosave = createReasonAutosave(store);
    autosave.change('First');
    const first = autosave.flush();
    autosave.change('Second');
    const second = autosave.flush();
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all([first, second]);
    expect(store.saves).toEqual(['First', 'Second']);
    expect(store.stored()).toBe('Second');
  });

  it('writes nothing for text that is what is stored, or for a cancelled change', async () => {
    const store = fakeStore('Costs');
    const autosave = createReasonAutosave(store);
    autosave.change('Costs  ');
    await autosave.flush();
    autosave.change('x'.repeat(3_000));
    autosave.cancel();
    await vi.advanceTimersByTimeAsync(REASON_SAVE_DELAY_MS * 2);
    await autosave.flush();
    expect(store.saves).toEqual([]);
  });

  it('reports a failed save and saves again when asked', async () => {
    const store = fakeStore();
    const errors: unknown[] = [];
    let fail = true;
    const autosave = createReasonAutosave({
      stored: store.stored,
      save: (reason) => (fail ? Promise.reject(new Error('locked')) : store.save(reason)),
      onError: (error) => errors.push(error),
    });
    autosave.change('Kept');
    await autosave.flush();
    expect(errors).toHaveLength(1);
    fail = false;
    autosave.change('Kept');
    const done = autosave.flush();
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(store.saves).toEqual(['Kept']);
  });
});

describe('reasonAfterStoredChange', () => {
  it('keeps typing not saved yet, and the spaces of text that is saved', () => {
    // A save of "Cost" landed while "Costs" was being typed.
    expect(reasonAfterStoredChange('Costs', '', 'Cost')).toBe('Costs');
    // The save of what the field holds landed: the trailing space typed last stays.
    expect(reasonAfterStoredChange('Costs ', 'Cost', 'Costs')).toBe('Costs ');
  });

  it('shows a change made elsewhere when the field holds nothing unsaved', () => {
    expect(reasonAfterStoredChange('Costs', 'Costs', 'Cheap now')).toBe('Cheap now');
    expect(reasonAfterStoredChange('', '', 'From the other tab')).toBe('From the other tab');
  });
});
