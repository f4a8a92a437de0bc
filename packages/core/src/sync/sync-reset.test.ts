import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createTag, renameTag } from '../commands/tag-commands.ts';
import { setPosition } from '../commands/position-commands.ts';
import { billIdOf, rowsOf } from '../test-support/bill-command-harness.ts';
import { newDataKey, syncedRowsOf, testDevice, USER } from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { syncCursorSetting } from './sync-cursor.ts';
import { checkRevert, needsRevert, prepareResetUpload, revertToNewEpoch } from './sync-reset.ts';
import { decodeUtf8 } from '../encoding/text-bytes.ts';

const RED = '#cc0000';

describe('a cloud password reset', () => {
  it("makes the resetting device's data everyone's, each other device saving its own first", async () => {
    const log = new TestSyncLog();
    const oldKey = await newDataKey();
    const a = await testDevice('device-a', log, oldKey);
    const b = await testDevice('device-b', log, oldKey);
    const tag = await createTag(a.context, { name: 'Housing', color: RED });
    await a.sync();
    await b.sync();
    // B changes something and syncs; then changes more that it cannot sync before the reset.
    await setPosition(b.context, billIdOf(1), 'oppose');
    await b.sync();
    await renameTag(b.context, tag.id, 'Unsynced name');
    await a.sync();

    // A lost the password: a new key under epoch 1, and its data goes up as the truth.
    const newKey = await newDataKey();
    log.keyEpoch = 1;
    const epochStartSeqno = log.changes.length;
    expect(await needsRevert(a.store, USER, 1)).toBe(true);
    await prepareResetUpload(a.store, {
      userId: USER,
      deviceId: a.id,
      epoch: 1,
      epochStartSeqno,
      nowMs: a.context.now(),
    });
    expect(await needsRevert(a.store, USER, 1)).toBe(false);
    await a.sync({ dataKey: newKey, epochStartSeqno });
    expect(await rowsOf(a.store, 'outbox')).toEqual([]);

    // B, with the new password: it reverts, after saving a full backup of its own state.
    expect(await needsRevert(b.store, USER, 1)).toBe(true);
    const before = await syncedRowsOf(b.store);
    const backup = await revertToNewEpoch(b.store, {
      userId: USER,
      epoch: 1,
      epochStartSeqno,
      nowMs: b.context.now(),
      backupId: 'backup-1',
    });
    expect(backup.name).toMatch(/^Before the cloud password reset/);
    await b.sync({ dataKey: newKey, epochStartSeqno });
    expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
    expect((await rowsOf(b.store, 'tags')).map((row) => row.name)).toEqual(['Housing']);

    // The backup holds what B had, unsynced rename included.
    const [stored] = await rowsOf(b.store, 'fullBackups');
    const contents = JSON.parse(decodeUtf8(gunzipSync(stored?.bytes ?? new Uint8Array()))) as {
      format: string;
      tables: { tags: unknown[]; positions: unknown[]; outbox: unknown[] };
    };
    expect(contents.format).toBe('docket-full-backup');
    expect(contents.tables.tags).toEqual(before.tags);
    expect(contents.tables.positions).toEqual(before.positions);
    expect(contents.tables.outbox).toHaveLength(1);

    // Both go on syncing under the new key.
    await renameTag(b.context, tag.id, 'Homes');
    await b.sync({ dataKey: newKey, epochStartSeqno });
    await a.sync({ dataKey: newKey, epochStartSeqno });
    expect((await rowsOf(a.store, 'tags')).map((row) => row.name)).toEqual(['Homes']);
  });

  it('never reverts the device that made the epoch, even with its cursor left behind', async () => {
    const log = new TestSyncLog();
    const a = await testDevice('device-a', log, await newDataKey());
    await createTag(a.context, { name: 'Mine', color: RED });
    await a.sync();
    await prepareResetUpload(a.store, {
      userId: USER,
      deviceId: a.id,
      epoch: 2,
      epochStartSeqno: log.changes.length,
      nowMs: a.context.now(),
    });
    // A cursor written back under the old epoch (a run of the old keys ending late) must not
    // make the resetting device empty itself: its data is the new epoch's truth.
    await a.store.write(['settings'], (tx) =>
      tx.put('settings', { key: syncCursorSetting(USER), value: { epoch: 1, seqno: 1 } }),
    );
    expect(await checkRevert(a.store, USER, 2)).toEqual({
      revert: false,
      cursorEpoch: 1,
      madeEpoch: 2,
    });
    // A later reset made elsewhere (epoch 3) is reverted to as any other device would.
    expect(await needsRevert(a.store, USER, 3)).toBe(true);
  });

  it('does not revert a device that never synced: its work is pushed like any change', async () => {
    const log = new TestSyncLog();
    const fresh = await testDevice('device-c', log, await newDataKey());
    await createTag(fresh.context, { name: 'Made offline', color: RED });
    expect(await needsRevert(fresh.store, USER, 3)).toBe(false);
  });
});
