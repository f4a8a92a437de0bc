import { createTag } from '@docket/core/commands';
import type { WorkspaceKey } from '@docket/core/crypto';
import { testContext } from '@docket/core/test-support/bill-command-harness';
import { newDataKey } from '@docket/core/test-support/sync-devices';
import { TestWorkspaceLog } from '@docket/core/test-support/sync-log-server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceSyncTarget } from './sync-runner-types.ts';
import { passwordDevice } from './sync-runner-harness.ts';

// The sync runner in a team workspace's space (issue 39): the same runs, triggers and errors,
// against the workspace's log, under the key ring the workspace gives, never the personal log.

const WORKSPACE = 'ws-health';

async function keyOf(version: number): Promise<WorkspaceKey> {
  return { workspaceId: WORKSPACE, version, key: await newDataKey() };
}

/** A member's device in the workspace's space: its key ring is what `ring` holds at each run. */
function memberDevice(log: TestWorkspaceLog, userId: string, ring: () => WorkspaceKey[]) {
  const asked: string[] = [];
  const target: WorkspaceSyncTarget = {
    workspaceId: WORKSPACE,
    transport: log.transportFor(userId),
    keyring: () => Promise.resolve(ring()),
  };
  return passwordDevice({
    deviceId: `${userId}-device`,
    workspace: (user) => {
      asked.push(user);
      return Promise.resolve(target);
    },
  }).then((harness) => ({ ...harness, asked }));
}

describe('the sync runner in a workspace’s space', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pushes to the workspace’s log and pulls a teammate’s change, leaving the personal log alone', async () => {
    const log = new TestWorkspaceLog();
    log.keyEpoch = 1;
    const v1 = await keyOf(1);
    const editor = await memberDevice(log, 'user-editor', () => [v1]);
    const owner = await memberDevice(log, 'user-owner', () => [v1]);

    await createTag(testContext(editor.store, 'user-editor-device'), {
      name: 'Housing',
      color: '#cc0000',
    });
    editor.runner.setUser('user-editor');
    await editor.settled();
    expect(editor.runner.get()).toMatchObject({ status: 'idle', view: { kind: 'up-to-date' } });
    expect(editor.asked).toContain('user-editor');
    expect(log.changes).toHaveLength(1);
    expect([...log.authors.values()]).toEqual(['user-editor']);
    // The personal log got nothing.
    expect(editor.log.changes).toEqual([]);

    owner.runner.setUser('user-owner');
    await owner.settled();
    expect(owner.runner.get().view).toMatchObject({ kind: 'up-to-date' });
    const tags = await owner.store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name)).toEqual(['Housing']);
  });

  it('fetches the key ring again when the workspace moved to a key it has not fetched', async () => {
    const log = new TestWorkspaceLog();
    log.keyEpoch = 1;
    const v1 = await keyOf(1);
    const v2 = await keyOf(2);
    const owner = await memberDevice(log, 'user-owner', () => [v1, v2]);
    log.keyEpoch = 2;
    await createTag(testContext(owner.store, 'user-owner-device'), {
      name: 'After the rotation',
      color: '#cc0000',
    });
    owner.runner.setUser('user-owner');
    await owner.settled();
    expect(log.changes.map((change) => change.epoch)).toEqual([2]);

    // The editor's device held only version 1 at its first try; the server gives it version 2
    // by its next (the runner asks for the ring before each run).
    let fetched = 0;
    const editor = await memberDevice(log, 'user-editor', () =>
      ++fetched === 1 ? [v1] : [v1, v2],
    );
    editor.runner.setUser('user-editor');
    await editor.settled();
    expect(fetched).toBe(2);
    expect(editor.runner.get().view).toMatchObject({ kind: 'up-to-date' });
    const tags = await editor.store.read(['tags'], (tx) => tx.all('tags'));
    expect(tags.map((tag) => tag.name)).toEqual(['After the rotation']);
  });

  it('stops with the reason when the account holds no key of the workspace', async () => {
    const log = new TestWorkspaceLog();
    const waiting = await memberDevice(log, 'user-viewer', () => []);
    waiting.runner.setUser('user-viewer');
    await waiting.settled();
    const view = waiting.runner.get().view;
    expect(view).toMatchObject({ kind: 'error', retryAt: null });
    expect(view.kind === 'error' ? view.message : '').toMatch(/holds no key for the workspace/);
  });
});
