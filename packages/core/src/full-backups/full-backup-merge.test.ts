import { describe, expect, it } from 'vitest';
import { createTag, deleteTag, renameTag, tagBills } from '../commands/tag-commands.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { billIdOf, rowsOf, storeWithBills, T0 } from '../test-support/bill-command-harness.ts';
import {
  newDataKey,
  syncedRowsOf,
  testDevice,
  USER,
  webCrypto,
} from '../test-support/sync-devices.ts';
import { TestSyncLog } from '../test-support/sync-log-server.ts';
import { prepareResetUpload, revertToNewEpoch } from '../sync/sync-reset.ts';
import { openFullBackup, type OpenedFullBackup } from './full-backup-reader.ts';
import {
  mergeFullBackup,
  planFullBackupMerge,
  planFullBackupReplaceLoss,
} from './full-backup-merge.ts';
import { saveUserDataCopy, userDataCopyTables } from './user-data-copy.ts';
import type { LocalStore } from '../store/local-store.ts';

const RED = '#cc0000';
const MINUTE = 60_000;

async function openStored(store: LocalStore, id: string): Promise<OpenedFullBackup> {
  const stored = (await rowsOf(store, 'fullBackups')).find((backup) => backup.id === id);
  if (stored === undefined) throw new Error(`no full backup ${id}`);
  return openFullBackup(stored.bytes, { crypto: webCrypto });
}

async function copyOf(store: LocalStore, id: string, createdAt: string) {
  await store.write([...userDataCopyTables, 'fullBackups'], (tx) =>
    saveUserDataCopy(tx, { id, name: id, createdAt, reason: 'manual' }),
  );
  return openStored(store, id);
}

/**
 * Issue 37's reset: A keeps writing while B, without the password, resets. B's data is the new
 * epoch; A reverts, then brings its own changes back. `mergeAt` says whether A merges before or
 * after it pulled the new epoch (the result must not depend on it).
 */
async function resetThenBringBack(mergeAt: 'before-pull' | 'after-pull') {
  const log = new TestSyncLog();
  const oldKey = await newDataKey();
  const a = await testDevice('device-a', log, oldKey);
  const b = await testDevice('device-b', log, oldKey);
  const housing = await createTag(a.context, { name: 'Housing', color: RED });
  await setPosition(a.context, billIdOf(2), 'watch');
  await a.sync();
  await b.sync();

  // A writes on (synced, then not yet): a tag, a position with its Why, a rename.
  a.context.setNow(T0 + 1 * MINUTE);
  const onlyA = await createTag(a.context, { name: 'Made on A', color: RED });
  await tagBills(a.context, [billIdOf(1)], onlyA.id);
  await a.sync();
  a.context.setNow(T0 + 2 * MINUTE);
  await setPosition(a.context, billIdOf(1), 'support');
  await setPositionReason(a.context, billIdOf(1), 'A wrote this');
  await renameTag(a.context, housing.id, 'Older name from A');
  // B never pulled A's last changes; it renames the tag later than A did, then resets.
  b.context.setNow(T0 + 3 * MINUTE);
  await renameTag(b.context, housing.id, 'Newer name from B');
  await setPosition(b.context, billIdOf(2), 'oppose');

  const newKey = await newDataKey();
  log.keyEpoch = 1;
  const epochStartSeqno = log.changes.length;
  await prepareResetUpload(b.store, {
    userId: USER,
    deviceId: b.id,
    epoch: 1,
    epochStartSeqno,
    nowMs: T0 + 4 * MINUTE,
  });
  await b.sync({ dataKey: newKey, epochStartSeqno });

  a.context.setNow(T0 + 5 * MINUTE);
  await revertToNewEpoch(a.store, {
    userId: USER,
    epoch: 1,
    epochStartSeqno,
    nowMs: T0 + 5 * MINUTE,
    backupId: 'revert-copy',
  });
  const copy = await openStored(a.store, 'revert-copy');
  if (mergeAt === 'after-pull') await a.sync({ dataKey: newKey, epochStartSeqno });
  const planned = await planFullBackupMerge(a.store, copy);
  const merged = await mergeFullBackup(a.store, copy, {
    deviceId: a.id,
    nowMs: T0 + 6 * MINUTE,
  });
  expect(merged).toEqual(planned);
  // Two rounds: the second carries the History entries the first's pulls made.
  for (let round = 0; round < 2; round++) {
    await a.sync({ dataKey: newKey, epochStartSeqno });
    await b.sync({ dataKey: newKey, epochStartSeqno });
  }
  return { a, b, copy, merged };
}

describe('bringing back a device’s changes after a reset', () => {
  it.each(['before-pull', 'after-pull'] as const)(
    'puts back what only the reverted device had, the newer value of each field winning (merged %s)',
    async (mergeAt) => {
      const { a, b } = await resetThenBringBack(mergeAt);
      const tags = (await rowsOf(a.store, 'tags')).map((tag) => tag.name).sort();
      // A's tag is back; the tag B renamed after A keeps B's name.
      expect(tags).toEqual(['Made on A', 'Newer name from B']);
      const positions = await rowsOf(a.store, 'positions');
      expect(positions.find((row) => row.billId === billIdOf(1))).toMatchObject({
        position: 'support',
        reason: 'A wrote this',
      });
      // B set bill 2 after A: B's stays.
      expect(positions.find((row) => row.billId === billIdOf(2))?.position).toBe('oppose');
      expect((await rowsOf(a.store, 'billTags')).map((row) => row.billId)).toEqual([billIdOf(1)]);
      // Both devices hold the same work afterwards.
      expect(await syncedRowsOf(b.store)).toEqual(await syncedRowsOf(a.store));
    },
  );

  it('changes nothing the second time', async () => {
    const { a, copy } = await resetThenBringBack('after-pull');
    const before = await syncedRowsOf(a.store);
    const again = await mergeFullBackup(a.store, copy, { deviceId: a.id, nowMs: T0 + 9 * MINUTE });
    expect(again.empty).toBe(true);
    expect(await rowsOf(a.store, 'outbox')).toEqual([]);
    expect(await syncedRowsOf(a.store)).toEqual(before);
  });
});

describe('merging a full backup', () => {
  it('adds what the device lacks and never deletes a row newer than the backup', async () => {
    const { context, store } = await storeWithBills(3);
    const kept = await createTag(context, { name: 'Kept', color: RED });
    const deletedLater = await createTag(context, { name: 'Deleted later', color: RED });
    const lost = await createTag(context, { name: 'Lost', color: RED });
    await tagBills(context, [billIdOf(1)], lost.id);
    const copy = await copyOf(store, 'copy', new Date(T0).toISOString());

    context.setNow(T0 + MINUTE);
    // After the backup: a tag made, one deleted, one renamed, and one lost to a wipe of its row.
    const madeAfter = await createTag(context, { name: 'Made after', color: RED });
    await deleteTag(context, deletedLater.id);
    await renameTag(context, kept.id, 'Renamed after');
    await store.write(['tags', 'billTags', 'syncState'], async (tx) => {
      await tx.deleteMany('tags', [lost.id]);
      await tx.deleteMany('billTags', [`${billIdOf(1)}|${lost.id}`]);
      await tx.deleteMany('syncState', [`tags|${lost.id}`, `billTags|${billIdOf(1)}|${lost.id}`]);
    });

    const plan = await planFullBackupMerge(store, copy);
    expect(plan.kinds.tags).toEqual({ added: 1, changed: 0 });
    expect(plan.kinds.billTags).toEqual({ added: 1, changed: 0 });
    await mergeFullBackup(store, copy, { deviceId: context.deviceId, nowMs: T0 + 2 * MINUTE });
    const names = (await rowsOf(store, 'tags')).map((tag) => tag.name).sort();
    // Nothing made or changed after the backup is undone; a delete made after it stands.
    expect(names).toEqual(['Lost', 'Made after', 'Renamed after']);
    expect((await rowsOf(store, 'tags')).some((tag) => tag.id === madeAfter.id)).toBe(true);
    // The lost tag and its bill go to the other devices.
    const outbox = await rowsOf(store, 'outbox');
    expect(outbox.filter((entry) => entry.rowId === lost.id)).toHaveLength(2);
  });

  it('says what Replace would delete that another device made after the backup', async () => {
    const log = new TestSyncLog();
    const key = await newDataKey();
    const a = await testDevice('device-a', log, key);
    const b = await testDevice('device-b', log, key);
    await createTag(a.context, { name: 'In the backup', color: RED });
    await a.sync();
    const copy = await copyOf(a.store, 'copy', new Date(T0).toISOString());
    b.context.setNow(T0 + MINUTE);
    await createTag(b.context, { name: 'From B, later', color: RED });
    await b.sync();
    await a.sync();
    a.context.setNow(T0 + 2 * MINUTE);
    await createTag(a.context, { name: 'From A, later', color: RED });
    expect(await planFullBackupReplaceLoss(a.store, copy, { deviceId: a.id })).toEqual({
      removed: 2,
      madeElsewhereSince: 1,
    });
  });
});
