import { describe, expect, it } from 'vitest';
import { setPosition } from '../commands/position-commands.ts';
import { createTag, tagBills, untagBills } from '../commands/tag-commands.ts';
import { billIdOf, storeWithBills, testContext } from '../test-support/bill-command-harness.ts';
import { newDataKey, webCrypto } from '../test-support/sync-devices.ts';
import { TestWorkspaceLog } from '../test-support/sync-log-server.ts';
import type { WorkspaceKey } from '../crypto/workspace-keys.ts';
import { runSync } from './sync-engine.ts';
import { workspaceSync } from './sync-envelopes.ts';
import { markTeamActivitySeen, readTeamActivity, TEAM_ACTIVITY_TABLES } from './team-activity.ts';

// A workspace's Activity: what teammates last did to each row, read back from the sync state and
// the authors the pull recorded, and how much of it came since this member last looked.

const WORKSPACE = 'ws-health';
const OWNER = 'user-owner';
const EDITOR = 'user-editor';
const RED = '#cc0000';
const MINUTE = 60_000;

async function member(log: TestWorkspaceLog, userId: string, deviceId: string, key: WorkspaceKey) {
  const { store } = await storeWithBills(3);
  const context = testContext(store, deviceId);
  const sync = () => {
    const { session, envelopes } = workspaceSync(webCrypto, {
      workspaceId: WORKSPACE,
      userId,
      deviceId,
      keyring: [key],
      readOnly: false,
    });
    return runSync({
      store,
      transport: log.transportFor(userId),
      crypto: webCrypto,
      session,
      envelopes,
      now: () => context.now(),
    });
  };
  const activity = () =>
    store.read(TEAM_ACTIVITY_TABLES, (tx) => readTeamActivity(tx, userId, { limit: 10 }));
  return { store, context, sync, activity };
}

async function team() {
  const log = new TestWorkspaceLog();
  log.keyEpoch = 1;
  const key: WorkspaceKey = { workspaceId: WORKSPACE, version: 1, key: await newDataKey() };
  const owner = await member(log, OWNER, 'owner-laptop', key);
  const editor = await member(log, EDITOR, 'editor-phone', key);
  return { owner, editor };
}

describe('a workspace’s Activity', () => {
  it('lists what a teammate did, newest first, each row once as its newest write', async () => {
    const { owner, editor } = await team();
    const start = editor.context.now();
    const tag = await createTag(editor.context, { name: 'Housing', color: RED });
    editor.context.setNow(start + MINUTE);
    await tagBills(editor.context, [billIdOf(1), billIdOf(2)], tag.id);
    editor.context.setNow(start + 2 * MINUTE);
    await setPosition(editor.context, billIdOf(1), 'support');
    editor.context.setNow(start + 3 * MINUTE);
    await untagBills(editor.context, [billIdOf(2)], tag.id);
    // The owner's own work is theirs, not the team's news.
    await setPosition(owner.context, billIdOf(3), 'oppose');
    await editor.sync();
    await owner.sync();

    const { entries, unseen } = await owner.activity();
    expect(unseen).toBe(4);
    expect(entries.map((entry) => [entry.table, entry.deleted, entry.userId])).toEqual([
      ['billTags', true, EDITOR],
      ['positions', false, EDITOR],
      ['billTags', false, EDITOR],
      ['tags', false, EDITOR],
    ]);
    expect(entries[0]).toMatchObject({ billId: billIdOf(2), tagId: tag.id });
    expect(entries[1]).toMatchObject({ billId: billIdOf(1), fields: { position: 'support' } });
    expect(entries[3]?.fields).toMatchObject({ name: 'Housing' });
    expect(entries[0]?.at).toBe(new Date(start + 3 * MINUTE).toISOString());
    // The editor, once they pull the owner's position, sees it alone.
    await editor.sync();
    const theirs = await editor.activity();
    expect(theirs.entries.map((entry) => [entry.table, entry.billId])).toEqual([
      ['positions', billIdOf(3)],
    ]);
  });

  it('counts only what came after the member last looked, and never moves that back', async () => {
    const { owner, editor } = await team();
    const start = editor.context.now();
    await setPosition(editor.context, billIdOf(1), 'support');
    await editor.sync();
    await owner.sync();
    const first = await owner.activity();
    const newest = first.entries[0]?.at ?? '';
    await owner.store.write(TEAM_ACTIVITY_TABLES, (tx) => markTeamActivitySeen(tx, OWNER, newest));
    expect(await owner.activity()).toMatchObject({ unseen: 0, entries: [{ unseen: false }] });

    editor.context.setNow(start + 5 * MINUTE);
    await setPosition(editor.context, billIdOf(2), 'watch');
    await editor.sync();
    await owner.sync();
    const second = await owner.activity();
    expect(second.unseen).toBe(1);
    expect(second.entries.map((entry) => entry.unseen)).toEqual([true, false]);
    // A mark from an older screen does not bring back what was seen after it.
    const kept = await owner.store.write(TEAM_ACTIVITY_TABLES, (tx) =>
      markTeamActivitySeen(tx, OWNER, new Date(start - MINUTE).toISOString()),
    );
    expect(kept).toBe(newest);
    expect((await owner.activity()).unseen).toBe(1);
  });

  it('counts a teammate’s write that arrives after the mark with an older clock as new', async () => {
    const log = new TestWorkspaceLog();
    log.keyEpoch = 1;
    const key: WorkspaceKey = { workspaceId: WORKSPACE, version: 1, key: await newDataKey() };
    const owner = await member(log, OWNER, 'owner-laptop', key);
    const editor = await member(log, EDITOR, 'editor-phone', key);
    const viewer = await member(log, 'user-late', 'late-tablet', key);
    const start = editor.context.now();
    // The late member writes offline first; the editor writes later and syncs at once.
    viewer.context.setNow(start);
    await setPosition(viewer.context, billIdOf(2), 'oppose');
    editor.context.setNow(start + 10 * MINUTE);
    await setPosition(editor.context, billIdOf(1), 'support');
    owner.context.setNow(start + 10 * MINUTE);
    viewer.context.setNow(start + 10 * MINUTE);
    await editor.sync();
    await owner.sync();
    const shown = await owner.activity();
    const newest = shown.entries[0]?.at ?? '';
    await owner.store.write(TEAM_ACTIVITY_TABLES, (tx) => markTeamActivitySeen(tx, OWNER, newest));
    expect((await owner.activity()).unseen).toBe(0);

    // Back online, its clock ten minutes older than the mark: new all the same.
    await viewer.sync();
    await owner.sync();
    const after = await owner.activity();
    expect(after.unseen).toBe(1);
    expect(after.entries.map((entry) => [entry.billId, entry.unseen])).toEqual([
      [billIdOf(1), false],
      [billIdOf(2), true],
    ]);
    // Mark all as seen, from the screen that shows it, sees it.
    await owner.store.write(TEAM_ACTIVITY_TABLES, (tx) => markTeamActivitySeen(tx, OWNER, newest));
    expect((await owner.activity()).unseen).toBe(0);
  });

  it('is empty in the personal space, where no device is recorded for a member', async () => {
    const { store, context } = await storeWithBills(2);
    await setPosition(context, billIdOf(1), 'support');
    expect(
      await store.read(TEAM_ACTIVITY_TABLES, (tx) => readTeamActivity(tx, 'someone-else')),
    ).toEqual({ entries: [], unseen: 0 });
  });
});
