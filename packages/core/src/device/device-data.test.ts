import { describe, expect, it } from 'vitest';
import { createTag } from '../commands/tag-commands.ts';
import { clearDeviceData, deviceHoldsData, readDeviceDataSummary } from './device-data.ts';
import { formDraftKey, saveFormDraft } from './form-drafts.ts';
import { localTables, type TableName } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { storedBill, testContext } from '../test-support/bill-command-harness.ts';
import { ensureDeviceId } from './device-identity.ts';

describe('the data a device holds', () => {
  it('counts nothing on a fresh device', async () => {
    const summary = await readDeviceDataSummary(createMemoryLocalStore());
    expect(deviceHoldsData(summary)).toBe(false);
  });

  it('counts bills and the user’s rows, then clears every table', async () => {
    const store = createMemoryLocalStore();
    await ensureDeviceId(store, () => 'devicea');
    await store.write(['bills'], (tx) => tx.putMany('bills', [storedBill(1), storedBill(2)]));
    await createTag(testContext(store), { name: 'Housing', color: '#1e88e5' });
    await saveFormDraft(store, formDraftKey('dataset', 'new'), {
      fields: { name: 'Session' },
      owner: 'ada@example.org',
      now: new Date(),
    });
    const summary = await readDeviceDataSummary(store);
    expect(summary).toMatchObject({ bills: 2, tags: 1, datasets: 0, unsynced: 1 });
    expect(deviceHoldsData(summary)).toBe(true);

    await clearDeviceData(store);
    expect(deviceHoldsData(await readDeviceDataSummary(store))).toBe(false);
    const left = await store.read(Object.keys(localTables) as TableName[], async (tx) => {
      let rows = 0;
      for (const table of Object.keys(localTables) as TableName[]) rows += await tx.count(table);
      return rows;
    });
    expect(left).toBe(0);
  });
});
