import { describe, expect, it, vi } from 'vitest';
import { logout } from './logout.ts';

describe('logout', () => {
  it('clears the auth record, signs out, then navigates to /login', async () => {
    const calls: string[] = [];
    await logout({
      clearAuthRecord: () => {
        calls.push('clearAuthRecord');
        return Promise.resolve();
      },
      signOut: async () => {
        // A slow sign-out must still finish before the navigation.
        await new Promise((resolve) => setTimeout(resolve, 5));
        calls.push('signOut');
      },
      navigateToLogin: () => calls.push('navigateToLogin'),
    });
    expect(calls).toEqual(['clearAuthRecord', 'signOut', 'navigateToLogin']);
  });

  it('still reaches /login when signing out fails', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const navigateToLogin = vi.fn();
    await logout({
      clearAuthRecord: () => Promise.resolve(),
      signOut: () => Promise.reject(new Error('offline')),
      navigateToLogin,
    });
    expect(navigateToLogin).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('[docket] Sign-out failed:', expect.any(Error));
    error.mockRestore();
  });
});
