import { describe, expect, it } from 'vitest';
import { createAnnotation } from '../commands/annotation-commands.ts';
import {
  buildBackupContents,
  countBackup,
  parseBackupContents,
  type BackupContents,
} from './backup-contents.ts';
import { applyRestore, planRestore } from './backup-restore.ts';
import { setPosition, setPositionReason } from '../commands/position-commands.ts';
import { createTag, deleteTag, renameTag, tagBills } from '../commands/tag-commands.ts';
import type { TestContext } from '../test-support/bill-command-harness.ts';
import {
  billIdOf,
  everything,
  outboxOf,
  rowsOf,
  storeWithBills,
  T0,
  testContext,
} from '../test-support/bill-command-harness.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { trackBill } from '../commands/triage-commands.ts';
import type { LocalStore } from '../store/local-store.ts';

async function workedStore(): Promise<{ store: LocalStore; context: TestContext }> {
  const { store, context } = await storeWithBills(3);
  const water = await createTag(context, { name: 'Water', color: '#1a7f37' });
  await tagBills(context, [billIdOf(1), billIdOf(2)], water.id);
  await setPosition(context, billIdOf(1), 'support');
  await trackBill(context, billIdOf(2));
  await createAnnotation(context, {
    billId: billIdOf(1),
    target: 'title',
    start: 0,
    end: 6,
    color: '#ffcc00',
    note: '<img src=x onerror=alert(1)> keep an eye',
  });
  await store.write(['datasets'], (tx) =>
    tx.put('datasets', {
      id: 'dataset-1',
      name: 'Congress',
      origin: { kind: 'files', fileIds: ['f1'] },
      jurisdiction: 'us',
      session: '119',
      format: 'congress-json',
      billCount: 3,
      lastImportAt: new Date(T0).toISOString(),
      lastJobId: 'job-1',
      state: 'ready',
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
    }),
  );
  return { store, context };
}

const options = (nowMs: number, id = 'safety-1') => ({
  deviceId: 'device-a',
  nowMs,
  safetyCopyId: id,
  backupName: 'Weekly',
});

describe('backup contents', () => {
  it('hold the user’s work, the bills it refers to and the clocks, and survive JSON', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    expect(countBackup(contents)).toEqual({
      bills: 2,
      datasets: 1,
      tags: 1,
      billTags: 2,
      positions: 1,
      decisions: 1,
      annotations: 1,
    });
    expect(contents.datasets[0]).not.toHaveProperty('state');
    expect(contents.datasets[0]).not.toHaveProperty('billCount');
    expect(Object.keys(contents.clocks).length).toBeGreaterThan(0);
    const again = parseBackupContents(JSON.parse(JSON.stringify(contents)));
    expect(again).toEqual(contents);
  });

  it('refuse what is not a backup, a newer format, bad rows and dangling tags', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    expect(() => parseBackupContents({ hello: 1 })).toThrow(/not a Docket backup/);
    expect(() => parseBackupContents(null)).toThrow(/not a Docket backup/);
    expect(() => parseBackupContents({ ...contents, version: 9 })).toThrow(/newer version/);
    expect(() =>
      parseBackupContents({ ...contents, tags: [{ ...contents.tags[0], color: 'red' }] }),
    ).toThrow(/damaged/);
    expect(() => parseBackupContents({ ...contents, tags: [] })).toThrow(/missing tag/);
    expect(() =>
      parseBackupContents({ ...contents, tags: [...contents.tags, ...contents.tags] }),
    ).toThrow(/twice/);
    expect(() => parseBackupContents({ ...contents, extra: true })).toThrow(/damaged/);
  });
});

describe('restore', () => {
  it('with Merge brings back a deleted tag with its bills, through the outbox', async () => {
    const { store, context } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    const [water] = contents.tags;
    context.setNow(T0 + 60_000);
    await deleteTag(context, water?.id ?? '');
    expect(await rowsOf(store, 'billTags')).toEqual([]);

    const plan = await planRestore(store, contents, 'merge');
    expect(plan.kinds.tags).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(plan.kinds.billTags).toEqual({ added: 2, changed: 0, removed: 0 });
    expect(plan.kinds.positions).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(plan.empty).toBe(false);

    const outboxBefore = (await outboxOf(store)).length;
    const result = await applyRestore(store, contents, 'merge', options(T0 + 120_000));
    expect(result.summary).toEqual(plan);
    expect((await rowsOf(store, 'tags')).map((tag) => tag.name)).toEqual(['Water']);
    expect((await rowsOf(store, 'billTags')).map((row) => row.billId).sort()).toEqual([
      billIdOf(1),
      billIdOf(2),
    ]);
    const entries = (await outboxOf(store)).slice(outboxBefore);
    expect(entries.map((entry) => entry.table).sort()).toEqual(['billTags', 'billTags', 'tags']);
    const [copy] = await rowsOf(store, 'fullBackups');
    expect(copy?.name).toMatch(/^Before restoring “Weekly”/);
    // Nothing left to do: the same restore again changes nothing.
    expect((await planRestore(store, contents, 'merge')).empty).toBe(true);
  });

  it('with Merge keeps the newer value of a field by clock, either way', async () => {
    const { store, context } = await workedStore();
    const tag = (await rowsOf(store, 'tags'))[0];
    const tagId = tag?.id ?? '';
    // Renamed before the backup: the backup's name is newer than nothing, older than a later edit.
    context.setNow(T0 + 1000);
    await renameTag(context, tagId, 'Water (backup)');
    const contents = await buildBackupContents(store, new Date(T0).toISOString());

    // A newer local rename wins over the backup.
    context.setNow(T0 + 2000);
    await renameTag(context, tagId, 'Water (newer here)');
    const keep = await planRestore(store, contents, 'merge');
    expect(keep.kinds.tags.changed).toBe(0);
    await applyRestore(store, contents, 'merge', options(T0 + 3000));
    expect((await rowsOf(store, 'tags'))[0]?.name).toBe('Water (newer here)');

    // Replace takes the backup's value whatever the clocks.
    const replace = await planRestore(store, contents, 'replace');
    expect(replace.kinds.tags.changed).toBe(1);
    await applyRestore(store, contents, 'replace', options(T0 + 4000, 'safety-2'));
    expect((await rowsOf(store, 'tags'))[0]?.name).toBe('Water (backup)');

    // And a backup whose field clock is newer than the device's wins a Merge.
    const newer: BackupContents = {
      ...contents,
      tags: contents.tags.map((row) => ({ ...row, name: 'From the future' })),
      clocks: {
        ...contents.clocks,
        [`tags|${tagId}`]: { name: '999999999999999-0000-device-z' },
      },
    };
    const merge = await planRestore(store, newer, 'merge');
    expect(merge.kinds.tags.changed).toBe(1);
    await applyRestore(store, newer, 'merge', options(T0 + 5000, 'safety-3'));
    expect((await rowsOf(store, 'tags'))[0]?.name).toBe('From the future');
  });

  it('keeps a position’s reason, merges it by its clock, and reads a backup from before reasons', async () => {
    const { store, context } = await workedStore();
    context.setNow(T0 + 1000);
    await setPositionReason(context, billIdOf(1), 'Clean water first');
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    expect(contents.positions).toMatchObject([
      { position: 'support', reason: 'Clean water first' },
    ]);

    context.setNow(T0 + 2000);
    await setPositionReason(context, billIdOf(1), 'Newer here');
    await setPosition(context, billIdOf(1), 'watch');
    await applyRestore(store, contents, 'merge', options(T0 + 3000));
    expect(await rowsOf(store, 'positions')).toMatchObject([
      { position: 'watch', reason: 'Newer here' },
    ]);
    await applyRestore(store, contents, 'replace', options(T0 + 4000, 'safety-2'));
    expect(await rowsOf(store, 'positions')).toMatchObject([
      { position: 'support', reason: 'Clean water first' },
    ]);

    // A backup made before reasons: its positions have none, and it restores.
    const older = parseBackupContents(
      JSON.parse(
        JSON.stringify({
          ...contents,
          positions: contents.positions.map(({ billId, position, updatedAt }) => ({
            billId,
            position,
            updatedAt,
          })),
        }),
      ),
    );
    const empty = createMemoryLocalStore();
    await applyRestore(empty, older, 'replace', options(T0 + 5000, 'safety-3'));
    expect(await rowsOf(empty, 'positions')).toEqual([
      { billId: billIdOf(1), position: 'support', updatedAt: expect.any(String) as string },
    ]);
  });

  it('with Replace removes what the backup lacks, and keeps datasets', async () => {
    const { store, context } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    context.setNow(T0 + 1000);
    const extra = await createTag(context, { name: 'Later added', color: '#000000' });
    await tagBills(context, [billIdOf(3)], extra.id);
    await setPosition(context, billIdOf(3), 'oppose');

    const plan = await planRestore(store, contents, 'replace');
    expect(plan.kinds.tags).toEqual({ added: 0, changed: 0, removed: 1 });
    expect(plan.kinds.billTags).toEqual({ added: 0, changed: 0, removed: 1 });
    expect(plan.kinds.positions).toEqual({ added: 0, changed: 0, removed: 1 });
    expect(plan.kinds.datasets.removed).toBe(0);
    const merge = await planRestore(store, contents, 'merge');
    expect(merge.empty).toBe(true);

    await applyRestore(store, contents, 'replace', options(T0 + 2000));
    expect((await rowsOf(store, 'tags')).map((tag) => tag.name)).toEqual(['Water']);
    expect((await rowsOf(store, 'positions')).map((row) => row.billId)).toEqual([billIdOf(1)]);
    expect(await rowsOf(store, 'datasets')).toHaveLength(1);
  });

  it('into an empty device writes the bills, datasets marked for import, and every row', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    const empty = createMemoryLocalStore();
    const plan = await planRestore(empty, contents, 'replace');
    expect(plan.billsAdded).toBe(2);
    expect(plan.kinds.annotations.added).toBe(1);
    await applyRestore(empty, contents, 'replace', options(T0));
    const bills = await rowsOf(empty, 'bills');
    expect(bills.map((bill) => bill.id)).toEqual([billIdOf(1), billIdOf(2)]);
    expect(bills[0]?.datasetIds).toEqual(['dataset-1']);
    const [dataset] = await rowsOf(empty, 'datasets');
    expect(dataset).toMatchObject({
      id: 'dataset-1',
      state: 'new',
      needsImport: true,
      billCount: 0,
    });
    expect((await rowsOf(empty, 'annotations'))[0]?.note).toBe(
      '<img src=x onerror=alert(1)> keep an eye',
    );
    const again = await buildBackupContents(empty, contents.createdAt);
    expect(countBackup(again)).toEqual(countBackup(contents));
  });

  it('a bill whose dataset is not on the device keeps no dataset id', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    const empty = createMemoryLocalStore();
    await applyRestore(empty, { ...contents, datasets: [] }, 'merge', options(T0));
    expect((await rowsOf(empty, 'bills'))[0]?.datasetIds).toEqual([]);
  });

  it('with Merge tags with the device’s own tag of the same name', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    const other = createMemoryLocalStore();
    const { context } = { context: testContext(other, 'device-b') };
    await other.write(['bills'], async (tx) => tx.putMany('bills', contents.bills));
    const mine = await createTag(context, { name: 'WATER', color: '#123456' });
    const plan = await planRestore(other, contents, 'merge');
    expect(plan.kinds.tags.added).toBe(0);
    await applyRestore(other, contents, 'merge', { ...options(T0), deviceId: 'device-b' });
    expect(await rowsOf(other, 'tags')).toHaveLength(1);
    expect((await rowsOf(other, 'billTags')).every((row) => row.tagId === mine.id)).toBe(true);
  });

  it('writes nothing when the transaction fails halfway', async () => {
    const { store } = await workedStore();
    const contents = await buildBackupContents(store, new Date(T0).toISOString());
    const broken: BackupContents = {
      ...contents,
      tags: contents.tags.map((tag) => ({ ...tag, id: 'x|y' })),
      billTags: [],
    };
    const before = await everything(store);
    // The safety copy is written first; the bad device id fails the outbox after it.
    await expect(
      applyRestore(store, broken, 'merge', { ...options(T0), deviceId: 'not a device id!' }),
    ).rejects.toThrow();
    expect(await everything(store)).toEqual(before);
  });
});
