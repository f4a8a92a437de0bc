import { describe, expect, it } from 'vitest';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { readSamples, zipOf } from '../test-support/test-files.ts';
import { parseLegiscanMasterListRaw } from './legiscan-bill-api.ts';
import {
  legiscanChangedBills,
  legiscanKept,
  legiscanKeptAfterBills,
  legiscanKeptOfDataset,
  legiscanRefreshWay,
  legiscanSourceHash,
  readLegiscanKept,
  saveLegiscanKept,
  splitLegiscanSourceHash,
  takeLegiscanDataset,
} from './legiscan-refresh.ts';

const datasetZip = () =>
  zipOf('legiscan-WA-2100.zip', readSamples('legiscan/dataset/WA/2023-2024_Regular_Session'));

const masterList = () => {
  const file = readSamples('legiscan-api/getmasterlistraw.json')[0];
  if (file === undefined) throw new Error('no sample');
  return parseLegiscanMasterListRaw(file.bytes);
};

describe('what a LegiScan refresh keeps and compares', () => {
  it("keeps each bill file's change_hash, and the votes and people the dataset holds or names", () => {
    const kept = legiscanKeptOfDataset(datasetZip(), { hash: 'ds1', date: '2024-03-01' });
    // HB1004 and SB5003 have no change_hash in the sample: nothing to compare, read again.
    expect(kept.bills).toEqual({ '1900002': '1f1e1d1c1b1a19181716151413121110' });
    expect(kept.rollCalls).toEqual([7002, 7099]);
    expect(kept.people).toEqual([503, 504]);
    expect(kept).toMatchObject({ datasetHash: 'ds1', datasetDate: '2024-03-01', perBillAt: null });
    expect(kept.token).toMatch(/^[0-9a-f]{16}$/);
  });

  it('finds the bills whose change_hash moved and the new ones, and none when all are the same', () => {
    const kept = legiscanKeptOfDataset(datasetZip(), { hash: 'ds1', date: null });
    expect(legiscanChangedBills(kept, masterList()).map((bill) => bill.number)).toEqual([
      'HB1001',
      'HB1002',
      'SB5003',
    ]);
    const same = { bills: Object.fromEntries(masterList().map((b) => [b.bill_id, b.change_hash])) };
    expect(legiscanChangedBills(same, masterList())).toEqual([]);
    const oneMoved = { bills: { ...same.bills, '1900002': '1f1e1d1c1b1a19181716151413121110' } };
    expect(legiscanChangedBills(oneMoved, masterList()).map((bill) => bill.bill_id)).toEqual([
      1900002,
    ]);
  });

  it('reads per bill when that costs fewer queries than the dataset, and takes only a newer dataset', () => {
    expect(legiscanRefreshWay(1)).toBe('per-bill');
    expect(legiscanRefreshWay(2)).toBe('ask-list');
    expect(legiscanRefreshWay(800)).toBe('ask-list');
    const afterDataset = { datasetHash: 'ds1', perBillAt: null };
    expect(takeLegiscanDataset({ dataset_hash: 'ds1' }, afterDataset)).toBe(false);
    expect(takeLegiscanDataset({ dataset_hash: 'ds2' }, afterDataset)).toBe(true);
    const afterBills = { datasetHash: 'ds1', perBillAt: '2024-03-05T10:00:00.000Z' };
    expect(
      takeLegiscanDataset({ dataset_hash: 'ds2', dataset_date: '2024-03-05' }, afterBills),
    ).toBe(false);
    expect(
      takeLegiscanDataset({ dataset_hash: 'ds2', dataset_date: '2024-03-06' }, afterBills),
    ).toBe(true);
    expect(takeLegiscanDataset({ dataset_hash: 'ds2' }, afterBills)).toBe(false);
  });

  it('after bills read one by one, keeps their new hashes, votes and people', () => {
    const kept = legiscanKeptOfDataset(datasetZip(), { hash: 'ds1', date: null });
    const next = legiscanKeptAfterBills(
      kept,
      [{ billId: 1900001, changeHash: 'new1' }],
      [7001],
      [501, 502],
      '2024-03-05T10:00:00.000Z',
    );
    expect(next.bills).toEqual({ ...kept.bills, '1900001': 'new1' });
    expect(next.rollCalls).toEqual([7001, 7002, 7099]);
    expect(next.people).toEqual([501, 502, 503, 504]);
    expect(next.perBillAt).toBe('2024-03-05T10:00:00.000Z');
    expect(next.token).not.toBe(kept.token);
  });

  it('trusts the kept state only when the dataset names it, the one before kept until then', async () => {
    const store = createMemoryLocalStore();
    const first = legiscanKept({
      datasetHash: 'ds1',
      datasetDate: null,
      perBillAt: null,
      bills: { '1': 'a' },
      rollCalls: [],
      people: [],
    });
    expect(splitLegiscanSourceHash(legiscanSourceHash(first))).toEqual({
      datasetHash: 'ds1',
      token: first.token,
    });
    expect(splitLegiscanSourceHash('ds1')).toEqual({ datasetHash: 'ds1', token: null });
    await saveLegiscanKept(store, 'd1', null, first);
    const read = (sourceHash: string | null) =>
      store.read(['settings'], (tx) => readLegiscanKept(tx, 'd1', sourceHash));
    expect(await read(legiscanSourceHash(first))).toEqual(first);
    expect(await read('ds1')).toBeNull();
    expect(await read(null)).toBeNull();
    // A download kept a second state; its import has not finished: the first is still named.
    const second = legiscanKeptAfterBills(first, [{ billId: 1, changeHash: 'b' }], [], [], 'x');
    await saveLegiscanKept(store, 'd1', first.token, second);
    expect(await read(legiscanSourceHash(first))).toEqual(first);
    expect(await read(legiscanSourceHash(second))).toEqual(second);
    // Another dataset's state is its own.
    expect(
      await store.read(['settings'], (tx) => readLegiscanKept(tx, 'd2', legiscanSourceHash(first))),
    ).toBeNull();
  });
});
