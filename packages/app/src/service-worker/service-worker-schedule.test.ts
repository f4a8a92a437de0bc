import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleServiceWorkerRegistration } from './service-worker-schedule.ts';

describe('scheduleServiceWorkerRegistration', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const schedule = (isDevelopment: boolean, whenStable: Promise<unknown> = Promise.resolve()) => {
    const register = vi.fn(() => Promise.resolve());
    const done = scheduleServiceWorkerRegistration({
      isDevelopment,
      whenStable,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      register,
    });
    return { register, done };
  };

  it('registers once, exactly 30 000 ms after the app is stable', async () => {
    const { register, done } = schedule(false);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(register).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(register).toHaveBeenCalledTimes(1);
    await done;
  });

  it('counts the 30 000 ms from the moment the app became stable', async () => {
    let becomeStable: () => void = () => undefined;
    const stable = new Promise<void>((resolve) => {
      becomeStable = resolve;
    });
    const { register } = schedule(false, stable);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(register).not.toHaveBeenCalled();
    becomeStable();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('never registers in development', async () => {
    const { register, done } = schedule(true);
    await vi.advanceTimersByTimeAsync(300_000);
    await done;
    expect(register).not.toHaveBeenCalled();
  });
});
