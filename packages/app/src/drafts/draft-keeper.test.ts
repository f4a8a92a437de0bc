import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftKeeper, DRAFT_SAVE_DELAY_MS, type DraftStorage } from './draft-keeper.ts';

function fakeStorage() {
  const log: string[] = [];
  let value: Record<string, string> | null = null;
  const storage: DraftStorage = {
    save: async (fields) => {
      await Promise.resolve();
      value = { ...fields };
      log.push(`save ${JSON.stringify(fields)}`);
    },
    remove: async () => {
      await Promise.resolve();
      value = null;
      log.push('remove');
    },
  };
  return { storage, log, value: () => value };
}

describe('the draft keeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('saves a short pause after the last keystroke, once', async () => {
    const { storage, log, value } = fakeStorage();
    const keeper = createDraftKeeper(storage, { stored: false });
    keeper.change({ note: 'A' });
    keeper.change({ note: 'As' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1);
    expect(log).toEqual([]);
    keeper.change({ note: 'Ask' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(log).toEqual(['save {"note":"Ask"}']);
    expect(value()).toEqual({ note: 'Ask' });
    // The same text again writes nothing.
    keeper.change({ note: 'Ask' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(log).toHaveLength(1);
  });

  it('writes a waiting change at once when flushed', async () => {
    const { storage, value } = fakeStorage();
    const keeper = createDraftKeeper(storage, { stored: false });
    keeper.change({ note: 'typed just before the reload' });
    await keeper.flush();
    expect(value()).toEqual({ note: 'typed just before the reload' });
  });

  it('removes the draft when the form is back as it started, only if one is stored', async () => {
    const { storage, log, value } = fakeStorage();
    const keeper = createDraftKeeper(storage, { stored: false });
    keeper.change(null);
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(log).toEqual([]);
    keeper.change({ name: 'x' });
    await keeper.flush();
    keeper.change(null);
    await keeper.flush();
    expect(log).toEqual(['save {"name":"x"}', 'remove']);
    expect(value()).toBeNull();
  });

  it('never brings a cleared draft back: a waiting save is dropped, writes keep their order', async () => {
    const { storage, log, value } = fakeStorage();
    const keeper = createDraftKeeper(storage, { stored: true });
    keeper.change({ note: 'saved a moment later' });
    await keeper.clear();
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 4);
    expect(log).toEqual(['remove']);
    expect(value()).toBeNull();
  });

  it('reports a failed write and carries on', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const keeper = createDraftKeeper(
      {
        save: async () => {
          await Promise.resolve();
          if (fail) throw new Error('quota');
        },
        remove: () => Promise.resolve(),
      },
      { stored: false, onError: (error) => errors.push(error) },
    );
    keeper.change({ note: 'a' });
    await keeper.flush();
    expect(errors).toHaveLength(1);
    fail = false;
    keeper.change({ note: 'b' });
    await keeper.flush();
    expect(errors).toHaveLength(1);
  });
});
