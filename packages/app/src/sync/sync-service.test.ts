import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/api-client.ts';
import { testTransport } from '@docket/core/test-support/sync-log-server';
import { createAppStore } from '../state/app-store.ts';
import { passwordDevice } from './sync-runner-harness.ts';
import { nudgeOf, startSyncTriggers } from './sync-service.ts';

const UNREACHABLE = 'The Docket server cannot be reached. Check your connection and try again.';
const ann = { id: 'user-1', email: 'ann@example.org', name: 'ann' };

/**
 * A signed-in page whose sync failed for want of a connection that the browser never said it
 * lost (so its return does not reload the page): the header shows the red "Sync error".
 */
async function pageAfterLostConnection() {
  let down = true;
  const h = await passwordDevice({
    transport: (log) => {
      const inner = testTransport(log);
      return {
        ...inner,
        pull: (since, limit) =>
          down
            ? Promise.reject(new ApiRequestError(UNREACHABLE, null, null))
            : inner.pull(since, limit),
      };
    },
  });
  const appStore = createAppStore({ online: true, user: ann, email: ann.email });
  const connection = new EventTarget();
  const stop = startSyncTriggers(h.runner, appStore, { serverOrigin: '' }, connection);
  await h.settled();
  const view = h.runner.get().view;
  expect(view).toMatchObject({ kind: 'error', message: UNREACHABLE });
  const retryAt = view.kind === 'error' ? (view.retryAt ?? 0) : 0;
  return {
    h,
    appStore,
    connection,
    stop,
    retryAt,
    connectionReturns: () => {
      down = false;
    },
  };
}

describe('the sync triggers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clear the "cannot be reached" error on the browser’s online event once the run succeeds', async () => {
    const page = await pageAfterLostConnection();
    page.connectionReturns();
    page.connection.dispatchEvent(new Event('online'));
    await page.h.settled();
    expect(page.h.runner.get().view).toMatchObject({ kind: 'up-to-date' });
    // At once, not at the back-off's next try.
    expect(Date.now()).toBeLessThan(page.retryAt);
    page.stop();
  });

  it('clear it when the server answers a session check again after it could not be reached', async () => {
    const page = await pageAfterLostConnection();
    page.appStore.update({ serverReachable: false });
    page.connectionReturns();
    page.appStore.update({ serverReachable: true });
    await page.h.settled();
    expect(page.h.runner.get().view).toMatchObject({ kind: 'up-to-date' });
    expect(Date.now()).toBeLessThan(page.retryAt);
    page.stop();
  });

  it('stop listening for the online event when stopped', async () => {
    const page = await pageAfterLostConnection();
    page.stop();
    page.connectionReturns();
    page.connection.dispatchEvent(new Event('online'));
    await page.h.settled();
    expect(page.h.runner.get().view).toMatchObject({ kind: 'error' });
  });
});

describe('a nudge from the server', () => {
  it('is read from its data', () => {
    expect(nudgeOf('{"latestSeqno":12,"settingsVersion":3}')).toEqual({
      latestSeqno: 12,
      settingsVersion: 3,
    });
  });

  it('is none when the data is not JSON', () => {
    expect(nudgeOf('not json')).toBeNull();
  });

  it('is none when the data is not a nudge', () => {
    expect(nudgeOf('{"latestSeqno":"twelve"}')).toBeNull();
    expect(nudgeOf('null')).toBeNull();
  });
});
