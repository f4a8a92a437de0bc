import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAuthSessionSync } from '../auth/auth-session-sync.ts';
import type { SessionSnapshot } from '../auth/session-snapshot.ts';
import { createMemoryKeyValueStore } from '../platform/memory-key-value-store.ts';
import { AppServicesContext, type AppServices } from '../services/app-services.ts';
import { createAppStore, type AppStore } from '../state/app-store.ts';
import { createLazySyncRunner } from '../sync/lazy-sync-runner.ts';
import { PageHeader } from './page-header.tsx';

afterEach(cleanup);

/**
 * A start as app-startup.tsx makes it: the app store from the browser's `navigator.onLine`, the
 * stored auth record of a user this device knows, and the first session check's answer.
 */
async function start(browserOnline: boolean, firstCheck: SessionSnapshot | null) {
  const appStore = createAppStore({ online: browserOnline, waitingChanges: 3 });
  await startAuthSessionSync({
    session: {
      subscribe(listener) {
        if (firstCheck !== null) listener(firstCheck);
        return () => undefined;
      },
    },
    store: createMemoryKeyValueStore({ auth: JSON.stringify({ email: 'ann@example.org' }) }).store,
    appStore,
    reporter: { identify: vi.fn() },
  });
  return appStore;
}

function renderHeader(appStore: AppStore) {
  // Only what the header reads: the app store, and a sync runner still loading (signed out).
  const services = {
    appStore,
    sync: createLazySyncRunner(() => new Promise(() => undefined)),
  } as unknown as AppServices;
  act(() => {
    render(
      <AppServicesContext value={services}>
        <PageHeader title="Bills" />
      </AppServicesContext>,
    );
  });
}

describe('the page header after a start', () => {
  it('says Offline, with the changes waiting, when the browser starts without a connection', async () => {
    renderHeader(await start(false, null));
    expect(screen.getByText('Offline')).toBeTruthy();
    expect(screen.getByText('3 changes waiting to sync')).toBeTruthy();
  });

  it('says Offline when the first request to the server fails, though the browser says online', async () => {
    renderHeader(await start(true, { kind: 'unreachable' }));
    expect(screen.getByText('Offline')).toBeTruthy();
    expect(screen.getByText('3 changes waiting to sync')).toBeTruthy();
  });

  it('says nothing of being offline once the server answered', async () => {
    renderHeader(
      await start(true, {
        kind: 'signed-in',
        user: { id: 'u1', email: 'ann@example.org', name: 'ann' },
      }),
    );
    expect(screen.queryByText('Offline')).toBeNull();
    expect(screen.queryByText('3 changes waiting to sync')).toBeNull();
  });
});
