import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReturnFromLoginScreen } from './return-from-login-screen.tsx';

// The verification link signs nobody in (issue 38: an account's work on a device opens only with
// its password), so the landing page sends a browser without a session to sign in, back to where
// the link pointed; a signed-in browser just continues.

const session = vi.hoisted(() => ({ user: null as { id: string } | null }));
vi.mock('../state/use-app-state.ts', () => ({
  useAppState: <T,>(select: (state: typeof session) => T) => select(session),
}));
vi.mock('../services/app-services.ts', () => ({ useAppServices: () => ({}) }));
vi.mock('../layout/page-header.tsx', () => ({ PageHeader: () => null }));

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <ReturnFromLoginScreen />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  session.user = null;
});

describe('the verification link’s landing page', () => {
  it('asks a browser without a session to sign in with the password, returning where it pointed', () => {
    renderAt('/return-from-login?mode=verified&returnToLink=%2Ftabs%2Ftracked');
    expect(screen.getByRole('heading', { name: 'E-mail verified' })).toBeTruthy();
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    expect(signIn.getAttribute('href')).toBe('/login?returnToLink=%2Ftabs%2Ftracked');
    expect(screen.getByText(/with your password to continue/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Continue' })).toBeNull();
  });

  it('lets a signed-in browser continue', () => {
    session.user = { id: 'u1' };
    renderAt('/return-from-login?mode=verified');
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });
});
