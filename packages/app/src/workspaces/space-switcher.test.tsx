import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppServicesContext, type AppServices } from '../services/app-services.ts';
import { createAppStore } from '../state/app-store.ts';
import SpaceSwitcher from './space-switcher.tsx';

// The header's space switcher: hidden for an account that never entered a workspace here,
// naming the personal space once it did.

const ACCOUNT_DB = `docket-${'a'.repeat(32)}`;

function renderSwitcher(signedIn: boolean) {
  const appStore = createAppStore({
    online: true,
    user: signedIn ? { id: 'user-1', email: 'ann@example.org', name: 'Ann' } : null,
  });
  act(() => {
    render(
      <AppServicesContext value={{ appStore } as unknown as AppServices}>
        <SpaceSwitcher />
      </AppServicesContext>,
    );
  });
}

describe('the space switcher', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('docket.accounts', JSON.stringify({ 'user-1': ACCOUNT_DB }));
    localStorage.setItem('docket.database', ACCOUNT_DB);
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('is absent for an account that never entered a workspace on this device, and signed out', () => {
    renderSwitcher(true);
    expect(screen.queryByText('Personal')).toBeNull();
    cleanup();
    localStorage.setItem(
      'docket.spaces',
      JSON.stringify({ [ACCOUNT_DB]: { 'ws-1': `${ACCOUNT_DB}.space-${'b'.repeat(32)}` } }),
    );
    renderSwitcher(false);
    expect(screen.queryByText('Personal')).toBeNull();
  });

  it('names the personal space, and says what it is for, once the account entered a workspace', () => {
    localStorage.setItem(
      'docket.spaces',
      JSON.stringify({ [ACCOUNT_DB]: { 'ws-1': `${ACCOUNT_DB}.space-${'b'.repeat(32)}` } }),
    );
    renderSwitcher(true);
    const button = screen.getByText('Personal').closest('ion-button');
    // What a screen reader reads: the name, then what the control is for, with no space between.
    const read = Array.from(
      button?.querySelectorAll('span:not([aria-hidden])') ?? [],
      (span) => span.textContent,
    ).join('');
    expect(read).toBe('Personal: the space you work in. Change space');
    expect(button?.href).toBe('/tabs/more/workspaces');
  });
});
