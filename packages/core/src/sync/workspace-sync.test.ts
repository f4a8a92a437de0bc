import { describe, expect, it } from 'vitest';
import { createAnnotation } from '../commands/annotation-commands.ts';
import { createTag, tagBills } from '../commands/tag-commands.ts';
import type { WorkspaceKey } from '../crypto/workspace-keys.ts';
import {
  billIdOf,
  rowsOf,
  storeWithBills,
  testContext,
} from '../test-support/bill-command-harness.ts';
import { newDataKey, syncedRowsOf, webCrypto } from '../test-support/sync-devices.ts';
import { TestWorkspaceLog } from '../test-support/sync-log-server.ts';
import { skipUnreadableChange } from './sync-cursor.ts';
import { readFieldAuthor } from './change-authors.ts';
import { readApiKey, saveApiKey } from '../sources/api-keys.ts';
import { runSync } from './sync-engine.ts';
import { workspaceSync } from './sync-envelopes.ts';
import { SyncEngineError } from './sync-errors.ts';

// One sync engine for a team workspace (issue 39): members' devices push and pull the
// workspace's log, sealed under its key ring, each change bound to the member who pushed it.

const WORKSPACE = 'ws-health';
const OWNER = 'user-owner';
const EDITOR = 'user-editor';
const RED = '#cc0000';

async function keyOf(version: number, workspaceId = WORKSPACE): Promise<WorkspaceKey> {
  return { workspaceId, version, key: await newDataKey() };
}

/** A member's device: its own store of the same bills, synced with the workspace's log. */
async function memberDevice(
  log: TestWorkspaceLog,
  userId: string,
  deviceId: string,
  workspaceId = WORKSPACE,
  readOnly = false,
  /** The device its clocks name: another than `deviceId` only for a forged change. */
  clockDevice = deviceId,
  /** An app from before API keys stayed on each member's device: it sends them to the team. */
  sendsApiKeys = false,
) {
  const { store } = await storeWithBills(3);
  const context = testContext(store, clockDevice);
  let keyring: WorkspaceKey[] = [];
  return {
    store,
    context,
    hold(keys: WorkspaceKey[]) {
      keyring = keys;
    },
    sync: async () => {
      const { session, envelopes } = workspaceSync(webCrypto, {
        workspaceId,
        userId,
        deviceId,
        keyring,
        readOnly,
      });
      return await runSync({
        store,
        transport: log.transportFor(userId),
        crypto: webCrypto,
        session,
        envelopes: sendsApiKeys ? { ...envelopes, deviceTables: new Set() } : envelopes,
        now: () => context.now(),
      });
    },
  };
}

async function team() {
  const log = new TestWorkspaceLog();
  log.keyEpoch = 1;
  const v1 = await keyOf(1);
  const owner = await memberDevice(log, OWNER, 'owner-laptop');
  const editor = await memberDevice(log, EDITOR, 'editor-phone');
  owner.hold([v1]);
  editor.hold([v1]);
  return { log, v1, owner, editor };
}

async function syncError(work: Promise<unknown>): Promise<SyncEngineError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SyncEngineError);
  return error as SyncEngineError;
}

describe('a workspace synced by the engine', () => {
  it('carries an editor’s tag and note to the owner, sealed under the workspace key', async () => {
    const { log, owner, editor } = await team();
    const tag = await createTag(editor.context, { name: 'Housing', color: RED });
    await tagBills(editor.context, [billIdOf(1)], tag.id);
    await createAnnotation(editor.context, {
      billId: billIdOf(1),
      target: 'title',
      start: 0,
      end: 4,
      color: RED,
      note: 'Ask the sponsor about the shelter budget',
    });
    expect((await editor.sync()).pushed).toBe(3);
    // What the server holds names the key version and the author, never the words.
    expect(log.changes.map((change) => change.epoch)).toEqual([1]);
    expect([...log.authors.values()]).toEqual([EDITOR]);
    expect(JSON.stringify(log.changes)).not.toContain('Housing');
    expect(JSON.stringify(log.changes)).not.toContain('shelter');

    expect((await owner.sync()).pulled).toBe(3);
    expect(await syncedRowsOf(owner.store)).toEqual(await syncedRowsOf(editor.store));
    expect((await rowsOf(owner.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
  });

  it('keeps each member’s API key on their own device, sending none and taking none', async () => {
    const { log, v1, owner, editor } = await team();
    const KEY = 'a'.repeat(32);
    await saveApiKey(editor.context, 'legiscan', KEY);
    await createTag(editor.context, { name: 'Housing', color: RED });
    expect((await editor.sync()).pushed).toBe(1);
    // The key left the outbox unsent; the tag went.
    expect(await editor.store.read(['outbox'], (tx) => tx.count('outbox'))).toBe(0);
    expect(await readApiKey(editor.store, 'legiscan')).toBe(KEY);
    await owner.sync();
    expect((await rowsOf(owner.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
    expect(await readApiKey(owner.store, 'legiscan')).toBeNull();
    // A teammate's app that sends its key anyway: the change is passed over, the tag taken.
    const old = await memberDevice(log, EDITOR, 'old-tablet', WORKSPACE, false, 'old-tablet', true);
    old.hold([v1]);
    await saveApiKey(old.context, 'openstates', 'b'.repeat(32));
    await createTag(old.context, { name: 'Schools', color: RED });
    expect((await old.sync()).pushed).toBe(2);
    await owner.sync();
    expect(await readApiKey(owner.store, 'openstates')).toBeNull();
    expect((await rowsOf(owner.store, 'tags')).map((row) => row.name).sort()).toEqual([
      'Housing',
      'Schools',
    ]);
  });

  it('keeps opening changes under the old key after a rotation, and seals new ones under the new', async () => {
    const { log, v1, owner, editor } = await team();
    await createTag(editor.context, { name: 'Before', color: RED });
    await editor.sync();
    // The owner removes someone: version 2, given to the owner and the editor who stays.
    const v2 = await keyOf(2);
    log.keyEpoch = 2;
    owner.hold([v1, v2]);
    editor.hold([v1, v2]);
    await createTag(editor.context, { name: 'After', color: RED });
    await editor.sync();
    expect(log.changes.map((change) => change.epoch)).toEqual([1, 2]);
    // The owner's device, new to the log, opens both.
    await owner.sync();
    expect((await rowsOf(owner.store, 'tags')).map((row) => row.name).sort()).toEqual([
      'After',
      'Before',
    ]);
  });

  it('opens nothing under a key version the member does not hold', async () => {
    const { log, v1, owner, editor } = await team();
    // The editor was removed: the owner writes under version 2, which the editor never got.
    const v2 = await keyOf(2);
    log.keyEpoch = 2;
    owner.hold([v1, v2]);
    await createTag(owner.context, { name: 'After the removal', color: RED });
    await owner.sync();
    const newer = await syncError(editor.sync());
    expect(newer.code).toBe('epoch-mismatch');
    expect(await rowsOf(editor.store, 'tags')).toEqual([]);

    // A member who joined after a rotation holds only the newer version: an older change says
    // which key is missing, and may be skipped past.
    const late = await memberDevice(log, 'user-late', 'late-laptop');
    late.hold([v2]);
    log.keyEpoch = 1;
    owner.hold([v1]);
    await createTag(owner.context, { name: 'Old', color: RED });
    await owner.sync();
    log.keyEpoch = 2;
    owner.hold([v1, v2]);
    const missing = await syncError(late.sync());
    expect(missing.code).toBe('missing-key');
    expect(missing.seqno).toBe(2);
    await skipUnreadableChange(late.store, 'user-late', 2);
    await late.sync();
    expect((await rowsOf(late.store, 'tags')).map((row) => row.name)).toEqual([
      'After the removal',
    ]);
  });

  it('refuses a change the server says another member pushed, or one of another workspace', async () => {
    const { log, v1, owner, editor } = await team();
    await createTag(editor.context, { name: 'Housing', color: RED });
    await editor.sync();
    log.moveAuthor(1, OWNER);
    const moved = await syncError(owner.sync());
    expect(moved.code).toBe('tampered');
    expect(moved.seqno).toBe(1);
    expect(await rowsOf(owner.store, 'tags')).toEqual([]);

    // The change served as another workspace's, to a member holding the same key there: the
    // seal names the workspace it was made in, so it is refused too.
    log.moveAuthor(1, EDITOR);
    const other = await memberDevice(log, OWNER, 'owner-desktop', 'ws-other');
    other.hold([{ ...v1, workspaceId: 'ws-other' }]);
    const elsewhere = await syncError(other.sync());
    expect(elsewhere.code).toBe('tampered');
    expect(await rowsOf(other.store, 'tags')).toEqual([]);
    // Served as it was, it opens.
    await owner.sync();
    expect((await rowsOf(owner.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);
  });

  it('lets a viewer pull what editors write, and pushes nothing of the viewer’s', async () => {
    const { log, v1, editor } = await team();
    const viewer = await memberDevice(log, 'user-viewer', 'viewer-tablet', WORKSPACE, true);
    viewer.hold([v1]);
    await createTag(editor.context, { name: 'Housing', color: RED });
    await editor.sync();
    // Something of the viewer's own in its outbox (say, a change marked seen): kept on the
    // device, never sent, and it does not stop the pull.
    await createTag(viewer.context, { name: 'Mine alone', color: RED });
    const run = await viewer.sync();
    expect(run.pushed).toBe(0);
    expect(run.pulled).toBe(1);
    expect(log.changes).toHaveLength(1);
    expect((await rowsOf(viewer.store, 'tags')).map((row) => row.name).sort()).toEqual([
      'Housing',
      'Mine alone',
    ]);
  });

  it('records who wrote each field: the member who pushed it, at the time of its clock', async () => {
    const { owner, editor } = await team();
    editor.context.setNow(Date.parse('2026-03-02T10:00:00.000Z'));
    const tag = await createTag(editor.context, { name: 'Housing', color: RED });
    // Before its first pull the device is recorded as no one's: told which device it is, its own
    // row is its account's all the same; another device is not taken for it.
    const beforePull = (own: { deviceId: string; userId: string }) =>
      editor.store.read(['syncState', 'settings'], (tx) =>
        readFieldAuthor(tx, 'tags', tag.id, 'name', own),
      );
    expect(
      await editor.store.read(['syncState', 'settings'], (tx) =>
        readFieldAuthor(tx, 'tags', tag.id, 'name'),
      ),
    ).toBeNull();
    expect((await beforePull({ deviceId: 'editor-phone', userId: EDITOR }))?.userId).toBe(EDITOR);
    expect(await beforePull({ deviceId: 'owner-laptop', userId: OWNER })).toBeNull();
    await editor.sync();
    const authorOf = (store: typeof owner.store, id: string) =>
      store.read(['syncState', 'settings'], (tx) => readFieldAuthor(tx, 'tags', id, 'name'));
    // Alone in the log so far, the editor's device names its own row.
    expect((await authorOf(editor.store, tag.id))?.userId).toBe(EDITOR);
    owner.context.setNow(Date.parse('2026-03-02T10:02:00.000Z'));
    const mine = await createTag(owner.context, { name: 'Budget', color: RED });
    await owner.sync();
    expect(await authorOf(owner.store, tag.id)).toEqual({
      userId: EDITOR,
      deviceId: 'editor-phone',
      at: '2026-03-02T10:00:00.000Z',
    });
    // This device's own rows are its account's.
    expect((await authorOf(owner.store, mine.id))?.userId).toBe(OWNER);
    await editor.sync();
    expect((await authorOf(editor.store, mine.id))?.userId).toBe(OWNER);
    expect((await authorOf(editor.store, tag.id))?.userId).toBe(EDITOR);
  });

  it('refuses a change whose clocks name another device, and names no one for a device two members claim', async () => {
    const { log, v1, owner, editor } = await team();
    await createTag(owner.context, { name: 'Owner’s', color: RED });
    await owner.sync();
    // The editor pushes from another device of theirs clocks stamped as the owner's laptop.
    const forger = await memberDevice(
      log,
      EDITOR,
      'editor-tablet',
      WORKSPACE,
      false,
      'owner-laptop',
    );
    forger.hold([v1]);
    await createTag(forger.context, { name: 'Forged', color: RED });
    await forger.sync();
    const forged = await syncError(editor.sync());
    expect(forged.code).toBe('tampered');
    expect(forged.message).toMatch(/another device's clocks/);
    expect((await rowsOf(editor.store, 'tags')).map((row) => row.name)).toEqual([]);

    // Pushing under the owner's laptop's id itself: the device is then claimed by two members,
    // and what it wrote is shown with no name rather than the wrong one.
    const log2 = new TestWorkspaceLog();
    log2.keyEpoch = 1;
    const owner2 = await memberDevice(log2, OWNER, 'owner-laptop');
    const posing = await memberDevice(log2, EDITOR, 'owner-laptop');
    const reader = await memberDevice(log2, 'user-viewer', 'viewer-tablet', WORKSPACE, true);
    for (const device of [owner2, posing, reader]) device.hold([v1]);
    const real = await createTag(owner2.context, { name: 'Real', color: RED });
    await owner2.sync();
    await reader.sync();
    const authorOf = (id: string) =>
      reader.store.read(['syncState', 'settings'], (tx) => readFieldAuthor(tx, 'tags', id));
    expect((await authorOf(real.id))?.userId).toBe(OWNER);
    // A minute later, and ids of its own, so its change is not taken for the owner's.
    posing.context.setNow(posing.context.now() + 60_000);
    const posed = await createTag(
      { ...posing.context, newId: () => 'posed-tag' },
      { name: 'Posed', color: RED },
    );
    await posing.sync();
    await reader.sync();
    expect((await authorOf(posed.id))?.userId).toBeNull();
    expect((await authorOf(real.id))?.userId).toBeNull();
  });

  it('says so when the device holds no key for the workspace yet', async () => {
    const log = new TestWorkspaceLog();
    const waiting = await memberDevice(log, EDITOR, 'editor-phone');
    await expect(waiting.sync()).rejects.toMatchObject({ code: 'missing-key' });
  });
});
