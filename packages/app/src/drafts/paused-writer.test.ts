import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPausedWriter } from './paused-writer.ts';

const DELAY = 700;

/** A store that takes a moment to write, as IndexedDB does. */
function fakeStore() {
  const writes: string[] = [];
  return {
    writes,
    write: async (value: string) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      writes.push(value);
    },
  };
}

describe('createPausedWriter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a pause after the last change, once', async () => {
    const store = fakeStore();
    const writer = createPausedWriter({ write: store.write, delayMs: DELAY });
    writer.change('C');
    writer.change('Co');
    await vi.advanceTimersByTimeAsync(DELAY - 100);
    writer.change('Costs');
    await vi.advanceTimersByTimeAsync(DELAY - 100);
    expect(store.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(store.writes).toEqual(['Costs']);
  });

  it('writes at once when flushed, in the order asked, each after the one before', async () => {
    const store = fakeStore();
    const writer = createPausedWriter({ write: store.write, delayMs: DELAY });
    writer.change('First');
    const first = writer.flush();
    writer.change('Second');
    const second = writer.flush();
    const after = writer.enqueue(() => {
      store.writes.push('after both');
      return Promise.resolve();
    });
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all([first, second, after]);
    expect(store.writes).toEqual(['First', 'Second', 'after both']);
  });

  it('writes nothing for a cancelled change', async () => {
    const store = fakeStore();
    const writer = createPausedWriter({ write: store.write, delayMs: DELAY });
    writer.change('x'.repeat(3_000));
    writer.cancel();
    await vi.advanceTimersByTimeAsync(DELAY * 2);
    await writer.flush();
    expect(store.writes).toEqual([]);
  });

  it('reports a failed write and writes again when asked', async () => {
    const store = fakeStore();
    const errors: unknown[] = [];
    let fail = true;
    const writer = createPausedWriter<string>({
      write: (value) => (fail ? Promise.reject(new Error('locked')) : store.write(value)),
      delayMs: DELAY,
      onError: (error) => errors.push(error),
    });
    writer.change('Kept');
    await writer.flush();
    expect(errors).toHaveLength(1);
    fail = false;
    writer.change('Kept');
    const done = writer.flush();
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(store.writes).toEqual(['Kept']);
  });
});
