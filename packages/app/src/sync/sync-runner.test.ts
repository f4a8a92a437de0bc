import { createAnnotation, createTag, NOTE_MAX } from '@docket/core/commands';
import {
  billIdOf,
  storeWithBills,
  testContext,
} from '@docket/core/test-support/bill-command-harness';
import { TestLogError, testTransport } from '@docket/core/test-support/sync-log-server';
import { SyncEngineError } from '@docket/core/sync';
import type { SyncSettings } from '@docket/protocol/sync-settings';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../api/api-client.ts';
import { retryDelay } from './sync-failure.ts';
import {
  deviceKeys,
  noPassword,
  passwordDevice,
  pullFailing,
  syncRunnerHarness,
  withPassword,
  type SyncRunnerHarness,
} from './sync-runner-harness.ts';

const UNREACHABLE = 'The Docket server cannot be reached. Check your connection and try again.';

/** A device whose pulls fail as if the network were down, while `down()` says so. */
function deviceBehindNetwork(down: () => boolean): Promise<SyncRunnerHarness> {
  return passwordDevice({
    transport: (log) => {
      const inner = testTransport(log);
      return {
        ...inner,
        pull: (since, limit) =>
          down()
            ? Promise.reject(new ApiRequestError(UNREACHABLE, null, null))
            : inner.pull(since, limit),
      };
    },
  });
}

describe('the sync runner', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('after a reset on another device, saves this device’s work as a full backup, traces it and says where', async () => {
    const keys = await deviceKeys();
    const before = syncRunnerHarness({ settings: withPassword, keys });
    await createTag(testContext(before.store, 'device-a'), { name: 'Housing', color: '#cc0000' });
    before.runner.setUser('user-1');
    await before.settled();
    expect(before.log.changes).toHaveLength(1);
    before.runner.setUser(null);

    // The cloud password was reset elsewhere: a new key epoch, which this device now holds.
    const reset: SyncSettings = { ...withPassword, keyEpoch: 1, version: 2, epochStartSeqno: 1 };
    const h = syncRunnerHarness({
      settings: reset,
      keys: { ...keys, keyEpoch: 1 },
      store: before.store,
    });
    h.log.keyEpoch = 1;
    h.runner.setUser('user-1');
    await h.settled();
    const backups = await h.store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    expect(backups).toHaveLength(1);
    const name = backups[0]?.name ?? '';
    expect(h.runner.get().notice).toContain('reset on another device');
    expect(h.runner.get().notice).toContain(`"${name}"`);
    // Told once the run ended, with what "Bring back my changes" would add.
    expect(h.runner.get().notice).toContain('the new data lacks 1 tag.');
    expect(h.runner.get().bringBackFrom).toBe(backups[0]?.id);
    expect(h.traces).toContainEqual({
      kind: 'sync-revert',
      durationMs: null,
      details: { backup: name, keyEpoch: 1, cursorEpoch: 0 },
    });
    expect(await h.store.read(['tags'], (tx) => tx.count('tags'))).toBe(0);

    // "Bring back my changes": the tag is back and goes to the server under the new epoch.
    await h.runner.bringBackChanges();
    await h.settled();
    expect(h.runner.get().notice).toBe(
      'Your changes are back: 1 tag. They sync to your other devices now.',
    );
    const tags = await h.store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name)).toEqual(['Housing']);
    expect(h.log.changes.filter((change) => change.epoch === 1)).toHaveLength(1);
  });

  it('waits for a first cloud password when the server has none (sync up)', async () => {
    const h = syncRunnerHarness({ settings: noPassword, keys: null });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({
      status: 'waiting-for-password-sync-up',
      view: { kind: 'needs-password', mode: 'set' },
    });
    // A run that stops to wait is a run: it is traced too.
    expect(h.traces).toEqual([
      expect.objectContaining({
        kind: 'sync',
        details: { outcome: 'needs-password', password: 'set' },
      }),
    ]);
  });

  it('waits for the password when this device lacks the keys (sync down)', async () => {
    const h = syncRunnerHarness({ settings: withPassword, keys: null });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({
      status: 'waiting-for-password-sync-dn',
      view: { kind: 'needs-password', mode: 'enter' },
    });
    // A password typed in is held while it is checked (have-password), and a wrong one puts
    // sync back to waiting, forgetting it.
    h.runner.passwordHeld('a guess');
    expect(h.runner.get()).toMatchObject({ status: 'have-password-sync-dn' });
    h.runner.passwordRejected();
    expect(h.runner.get()).toMatchObject({ status: 'waiting-for-password-sync-dn' });
  });

  it('syncs nothing until the terms are accepted; asks once, and accepting syncs', async () => {
    const keys = await deviceKeys();
    let accepted = false;
    let asked = 0;
    const h = syncRunnerHarness({
      settings: withPassword,
      keys,
      termsAccepted: () => {
        asked++;
        return Promise.resolve(accepted);
      },
    });
    await createTag(testContext(h.store, 'device-a'), { name: 'Housing', color: '#cc0000' });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({ view: { kind: 'needs-terms' }, askTerms: true });
    expect(h.log.changes).toHaveLength(0);
    expect(h.traces.at(-1)).toMatchObject({ kind: 'sync', details: { outcome: 'needs-terms' } });

    // Set aside: the next run does not put them in front of the user again, nor sync.
    h.runner.termsSetAside();
    h.runner.syncNow();
    await h.settled();
    expect(h.runner.get()).toMatchObject({ view: { kind: 'needs-terms' }, askTerms: false });
    expect(h.log.changes).toHaveLength(0);
    h.runner.askForTerms();
    expect(h.runner.get().askTerms).toBe(true);

    accepted = true;
    h.runner.termsAccepted();
    await h.settled();
    expect(h.runner.get()).toMatchObject({ view: { kind: 'up-to-date' }, askTerms: false });
    expect(h.log.changes).toHaveLength(1);
    // Known accepted: later runs do not ask the server again.
    const before = asked;
    h.runner.syncNow();
    await h.settled();
    expect(asked).toBe(before);
  });

  it('without the password, the terms are the cloud password flow’s to ask, not the run’s', async () => {
    const h = syncRunnerHarness({
      settings: noPassword,
      keys: null,
      termsAccepted: () => Promise.resolve(false),
    });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({
      view: { kind: 'needs-password', mode: 'set' },
      askTerms: false,
    });
  });

  it('a run that fails after sign-out leaves the view signed out (no "Sync error")', async () => {
    const keys = await deviceKeys();
    let release: () => void = () => undefined;
    const h = syncRunnerHarness({
      settings: withPassword,
      keys,
      transport: (log) => {
        const inner = testTransport(log);
        return {
          ...inner,
          push: async () => {
            await new Promise<void>((resolve) => {
              release = resolve;
            });
            throw new ApiRequestError('You are not signed in.', 401, 'unauthenticated');
          },
        };
      },
    });
    await createTag(testContext(h.store, 'device-a'), { name: 'Housing', color: '#cc0000' });
    h.runner.setUser('user-1');
    await vi.waitFor(() => {
      expect(h.runner.get().view).toMatchObject({ kind: 'syncing', phase: 'push' });
    });
    h.runner.setUser(null);
    release();
    await h.settled();
    expect(h.runner.get().view).toEqual({ kind: 'signed-out' });
    expect(h.traces.at(-1)).toMatchObject({ kind: 'sync', details: { outcome: 'abandoned' } });
  });

  it('pushes the outbox, ends idle and up to date, and traces the run', async () => {
    const h = await passwordDevice();
    await createTag(testContext(h.store, 'device-a'), { name: 'Housing', color: '#cc0000' });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
    expect(h.log.changes).toHaveLength(1);
    expect(h.traces).toEqual([
      expect.objectContaining({
        kind: 'sync',
        details: expect.objectContaining({ outcome: 'done', pushed: 1 }) as unknown,
      }),
    ]);
  });

  it('does not sync one account’s work into another; "Start afresh" saves it first', async () => {
    const h = await passwordDevice();
    const context = testContext(h.store, 'device-a');
    await createTag(context, { name: 'Housing', color: '#cc0000' });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.log.changes).toHaveLength(1);

    // Another account signs in on the same device, which still holds user-1's work.
    h.runner.setUser(null);
    await createTag(context, { name: 'Made after signing out', color: '#00cc00' });
    h.runner.setUser('user-2');
    await h.settled();
    expect(h.runner.get().view).toMatchObject({
      kind: 'error',
      retryAt: null,
      handOver: true,
      message: expect.stringContaining('another account') as unknown,
    });
    expect(h.log.changes).toHaveLength(1);
    expect(await h.store.read(['tags'], (tx) => tx.count('tags'))).toBe(2);
    expect(h.traces.at(-1)).toMatchObject({
      kind: 'sync',
      details: { outcome: 'other-account' },
    });

    await h.runner.handOverDevice();
    await h.settled();
    expect(h.runner.get().view.kind).toBe('up-to-date');
    expect(h.runner.get().notice).toContain('saved as the full backup');
    expect(h.log.changes).toHaveLength(1);
    const backups = await h.store.read(['fullBackups'], (tx) => tx.all('fullBackups'));
    expect(backups.map((backup) => backup.name)).toEqual([
      expect.stringContaining('Another account’s work on this device') as unknown,
    ]);
    expect(h.runner.get().notice).toContain(`"${backups[0]?.name ?? ''}"`);
    expect(h.traces).toContainEqual({
      kind: 'sync-hand-over',
      durationMs: null,
      details: { backup: backups[0]?.name },
    });
    expect(
      await h.store.read(['tags', 'outbox'], async (tx) => [
        await tx.count('tags'),
        await tx.count('outbox'),
      ]),
    ).toEqual([0, 0]);
  });

  it('retries a failed run after a back-off, counting retries in retrySeqno', async () => {
    const keys = await deviceKeys();
    let failures = 1;
    const h = syncRunnerHarness({
      settings: withPassword,
      keys,
      transport: (log) => {
        const inner = testTransport(log);
        return {
          ...inner,
          pull: (since, limit) => {
            if (failures-- > 0) {
              return Promise.reject(
                new ApiRequestError('The Docket server cannot be reached.', null, null),
              );
            }
            return inner.pull(since, limit);
          },
        };
      },
    });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({
      retrySeqno: 1,
      view: { kind: 'error', message: 'The Docket server cannot be reached.' },
    });
    expect(h.traces.at(-1)?.details).toMatchObject({ outcome: 'failed' });
    await vi.advanceTimersByTimeAsync(retryDelay(0, () => 0.5) + 10);
    await h.settled();
    expect(h.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
  });

  it('runs at once when the connection is back, and the error of the lost connection goes', async () => {
    let down = true;
    const h = await deviceBehindNetwork(() => down);
    h.runner.setUser('user-1');
    await h.settled();
    const view = h.runner.get().view;
    expect(view).toMatchObject({ kind: 'error', message: UNREACHABLE });
    const retryAt = view.kind === 'error' ? (view.retryAt ?? 0) : 0;
    down = false;
    h.runner.connectionBack();
    await h.settled();
    expect(h.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
    // Not the back-off's retry: that was still to come.
    expect(Date.now()).toBeLessThan(retryAt);
    h.runner.setUser(null);
  });

  it('says Offline, not "Sync error", when the connection went during the run', async () => {
    const h: SyncRunnerHarness = await passwordDevice({
      transport: pullFailing(() => {
        h.runner.setOnline(false);
        return new ApiRequestError(UNREACHABLE, null, null);
      }),
    });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get().view).toEqual({ kind: 'offline' });
    h.runner.setUser(null);
  });

  it('stops retrying on a tampered change and says so', async () => {
    const keys = await deviceKeys();
    const h = syncRunnerHarness({ settings: withPassword, keys });
    h.log.push({
      batchId: 'device-x.1',
      deviceId: 'device-x',
      epoch: 0,
      envelopes: [{ id: 'x', ciphertext: 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=' }],
    });
    h.runner.setUser('user-1');
    await h.settled();
    const state = h.runner.get();
    expect(state.view).toMatchObject({ kind: 'error', retryAt: null });
    expect(state.view.kind === 'error' ? state.view.message : '').toMatch(/Sync stopped/);
    expect(state.view).toMatchObject({ skippable: 1 });
    // The connection coming back does not mend it: "Sync now" or the repair does.
    const runs = h.traces.length;
    h.runner.connectionBack();
    await h.settled();
    expect(h.traces).toHaveLength(runs);
    expect(h.runner.get().view).toBe(state.view);

    // The repair: skip it, and sync goes on.
    await h.runner.skipChange(1);
    await h.settled();
    expect(h.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
    expect(h.traces.map((entry) => entry.kind)).toContain('sync-skip');
  });

  it.each([
    [
      '426, a server on another protocol version',
      new ApiRequestError(
        'This app speaks protocol 2; the server speaks 3. Update the app (reload the page, or install the new version).',
        426,
        'protocol-mismatch',
      ),
    ],
    [
      '413, a push too large',
      new ApiRequestError('Envelope 0 is larger than the limit.', 413, 'envelope-too-large'),
    ],
    ['400, a request refused', new ApiRequestError('The request failed (400).', 400, null)],
    [
      '409, a batch conflict',
      new ApiRequestError('Batch "b" was already pushed.', 409, 'batch-conflict'),
    ],
    [
      'a change dated far ahead',
      new SyncEngineError('clock-drift', 'A change is dated 3 days ahead of this device.'),
    ],
  ])('stops retrying on %s, says why and waits for "Sync now"', async (_name, failure) => {
    const keys = await deviceKeys();
    let pulls = 0;
    const h = syncRunnerHarness({
      settings: withPassword,
      keys,
      transport: pullFailing(() => {
        pulls++;
        return failure;
      }),
    });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({
      retrySeqno: 0,
      view: {
        kind: 'error',
        retryAt: null,
        message: `${failure.message} Sync stopped; "Sync now" tries again.`,
      },
    });
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    await h.settled();
    expect(pulls).toBe(1);
    // "Sync now" tries again.
    h.runner.syncNow();
    await h.settled();
    expect(pulls).toBe(2);
  });

  it('still retries a 429: it means later, not never', async () => {
    const h = await passwordDevice({
      transport: pullFailing(() => new ApiRequestError('Too many requests.', 429, 'rate-limited')),
    });
    h.runner.setUser('user-1');
    await h.settled();
    expect(h.runner.get()).toMatchObject({ retrySeqno: 1, view: { kind: 'error' } });
    expect(h.runner.get().view).not.toMatchObject({ retryAt: null });
    h.runner.setUser(null);
  });

  it("waits at least as long as a 429's Retry-After asks before the next try", async () => {
    const h = await passwordDevice({
      transport: pullFailing(
        () => new ApiRequestError('Too many requests.', 429, 'rate-limited', 120_000),
      ),
    });
    const before = Date.now();
    h.runner.setUser('user-1');
    await h.settled();
    const view = h.runner.get().view;
    expect(view).toMatchObject({ kind: 'error' });
    const retryAt = view.kind === 'error' ? view.retryAt : null;
    expect(retryAt).not.toBeNull();
    expect(retryAt ?? 0).toBeGreaterThanOrEqual(before + 120_000);
    h.runner.setUser(null);
  });

  it('traces what a run pushed before it failed', async () => {
    const h = await passwordDevice({
      transport: pullFailing(() => new TestLogError('network', 'The request was lost.')),
    });
    await createTag(testContext(h.store, 'device-a'), { name: 'Housing', color: '#cc0000' });
    h.runner.setUser('user-1');
    await h.settled();
    h.runner.setUser(null);
    expect(h.log.changes).toHaveLength(1);
    expect(h.traces).toEqual([
      expect.objectContaining({
        kind: 'sync',
        details: expect.objectContaining({
          outcome: 'failed',
          error: 'Sync failed for a reason this app did not expect. It tries again by itself.',
          pushed: 1,
          pulled: 0,
          bytesUp: h.log.changes[0]?.ciphertext.length,
        }) as unknown,
      }),
    ]);
  });

  it('stops on a change too large ever to send, naming its row; skipping it traces the row', async () => {
    const keys = await deviceKeys();
    const { store } = await storeWithBills(1);
    const h = syncRunnerHarness({ settings: withPassword, keys, store });
    const context = testContext(store, 'device-a');
    const annotation = await createAnnotation(context, {
      billId: billIdOf(1),
      target: 'title',
      start: 0,
      end: 6,
      color: '#cc0000',
      // Three bytes a character in UTF-8: 300 kB, over the server's cap on one envelope.
      note: '法'.repeat(NOTE_MAX),
    });
    await createTag(context, { name: 'Housing', color: '#cc0000' });
    const [entry] = await store.read(['outbox'], (tx) => tx.all('outbox', { limit: 1 }));
    h.runner.setUser('user-1');
    await h.settled();
    const state = h.runner.get();
    expect(state.view).toMatchObject({ kind: 'error', retryAt: null, unsendable: entry?.id });
    expect(state.view.kind === 'error' ? state.view.message : '').toContain(annotation.id);
    expect(h.traces.at(-1)?.details).toMatchObject({
      outcome: 'failed',
      code: 'change-too-large',
      table: 'annotations',
      rowId: annotation.id,
    });

    await h.runner.skipUnsendable(entry?.id ?? '');
    await h.settled();
    expect(h.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
    expect(h.traces).toContainEqual({
      kind: 'sync-skip',
      durationMs: null,
      details: {
        unsent: true,
        entryId: entry?.id,
        table: 'annotations',
        rowId: annotation.id,
        op: 'put',
      },
    });
    expect(h.log.changes).toHaveLength(1);
    // The row stays on this device.
    expect(await store.read(['annotations'], (tx) => tx.count('annotations'))).toBe(1);
  });

  it('backs off from 2 s up to 5 minutes with jitter', () => {
    expect(retryDelay(0, () => 0.5)).toBe(2000);
    expect(retryDelay(3, () => 0.5)).toBe(16_000);
    expect(retryDelay(30, () => 0.5)).toBe(300_000);
    expect(retryDelay(0, () => 0)).toBe(1000);
    expect(retryDelay(0, () => 0.999)).toBeLessThan(3000);
  });
});
