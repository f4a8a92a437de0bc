import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropHeldPassword, holdPasswordForDevice, takeHeldPassword } from './held-password.ts';

describe('the password held between the sign-in form and the account’s database', () => {
  afterEach(() => {
    vi.useRealTimers();
    dropHeldPassword();
  });

  it('is taken once', () => {
    holdPasswordForDevice('correct horse');
    expect(takeHeldPassword()).toBe('correct horse');
    expect(takeHeldPassword()).toBeNull();
  });

  it('is dropped when the server refuses it', () => {
    holdPasswordForDevice('correct horse');
    dropHeldPassword();
    expect(takeHeldPassword()).toBeNull();
  });

  it('is forgotten after a minute if nothing takes it', () => {
    vi.useFakeTimers();
    holdPasswordForDevice('correct horse');
    vi.advanceTimersByTime(60_001);
    expect(takeHeldPassword()).toBeNull();
  });
});
