import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../state/app-store.ts';
import { SIGN_IN_SHOWN_TIMEOUT_MS, waitForSignIn } from './wait-for-sign-in.ts';

describe('waitForSignIn', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settledYet = (promise: Promise<void>) => {
    let settled = false;
    void promise.then(() => {
      settled = true;
    });
    return () => settled;
  };

  it('waits through a slow vault: an account shown after 8 s is waited for', async () => {
    const appStore = createAppStore();
    const settled = settledYet(waitForSignIn(appStore));
    await vi.advanceTimersByTimeAsync(8_000);
    expect(settled()).toBe(false);
    appStore.update({ email: 'reader@example.test' });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled()).toBe(true);
  });

  it('settles at once when the user already shows', async () => {
    const appStore = createAppStore({ email: 'reader@example.test' });
    const settled = settledYet(waitForSignIn(appStore));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled()).toBe(true);
  });

  it('does not take a pending "password needed" for a sign-in', async () => {
    const appStore = createAppStore({ passwordNeededFor: 'reader@example.test' });
    const settled = settledYet(waitForSignIn(appStore));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settled()).toBe(false);
  });

  it('gives up after its timeout, so the form is never busy for good', async () => {
    const appStore = createAppStore();
    const settled = settledYet(waitForSignIn(appStore));
    await vi.advanceTimersByTimeAsync(SIGN_IN_SHOWN_TIMEOUT_MS - 1);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled()).toBe(true);
  });
});
