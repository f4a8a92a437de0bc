import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../state/app-store.ts';
import { afterStart, createSignal, whenReady } from './app-stability.ts';

describe('afterStart: background work waits for the first screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(ready: Promise<void>) {
    const firstCommit = createSignal();
    let settled = false;
    void afterStart({
      firstCommit: firstCommit.promise,
      ready,
      maxWaitMs: 3000,
      settleMs: 500,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
    }).then(() => {
      settled = true;
    });
    return { firstCommit, settled: () => settled };
  }

  it('waits for the first render and the first session check, then a turn of the page', async () => {
    const store = createAppStore({ ready: false });
    const run = start(whenReady(store));
    run.firstCommit.fire();
    await vi.advanceTimersByTimeAsync(2000);
    expect(run.settled()).toBe(false);
    store.update({ ready: true });
    // The first screen's turn, then a turn of the page.
    await vi.advanceTimersByTimeAsync(500);
    expect(run.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.settled()).toBe(true);
  });

  it('does not wait for a slow server longer than maxWaitMs after the first render', async () => {
    const run = start(new Promise<void>(() => undefined));
    await vi.advanceTimersByTimeAsync(5000);
    expect(run.settled()).toBe(false);
    run.firstCommit.fire();
    await vi.advanceTimersByTimeAsync(2999);
    expect(run.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(501);
    expect(run.settled()).toBe(true);
  });

  it('waits only for the first screen when start-up had already finished', async () => {
    const run = start(whenReady(createAppStore({ ready: true })));
    run.firstCommit.fire();
    await vi.advanceTimersByTimeAsync(501);
    expect(run.settled()).toBe(true);
  });
});
