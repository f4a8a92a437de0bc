import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBillListQuery, sponsorKey } from '@docket/core/lists';
import { type BillDraft, finalizeBill } from '@docket/core/bills';
import type { StoredBill } from '@docket/core/store';
import { deviceRowKey } from '@docket/core/crypto';
import { browserCrypto } from '../crypto/browser-crypto.ts';
import { createDocketDatabase } from '../local-store/docket-database.ts';
import { openIndexedDbLocalStore, type RowVault } from '../local-store/indexeddb-local-store.ts';
import { changedKeys, dexieBillSearchFeed } from '../local-store/bill-search-feed.ts';
import { createBillSearchService } from './bill-search-service.ts';

// The search service on fake-indexeddb: the first read, then changes written by another
// connection (as the import worker and the page write), seen through Dexie's notifications.

function bill(number: number, title: string, extra: Partial<BillDraft> = {}): StoredBill {
  const result = finalizeBill({
    source: 'congress-json',
    sourceId: null,
    jurisdiction: 'us',
    session: '116',
    identifier: `S.J.Res. ${number}`,
    title,
    summary: null,
    introducedDate: '2019-01-03',
    status: 'introduced',
    rawStatus: null,
    statusDate: '2019-01-03',
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
    ...extra,
  });
  if (!result.ok) throw new Error(result.reason);
  return { ...result.bill, datasetIds: ['d1'] };
}

let counter = 0;
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function databases() {
  const indexedDB = new IDBFactory();
  const name = `search-${++counter}`;
  const open = () => createDocketDatabase({ name, indexedDB, IDBKeyRange });
  const writer = open();
  const reader = open();
  closers.push(() => {
    writer.close();
    reader.close();
  });
  return { writer, reader };
}

const all = { ...defaultBillListQuery, all: true };

describe('the search service', () => {
  it('indexes what is stored, then follows bulk and single changes', async () => {
    const { writer, reader } = databases();
    await writer
      .table('bills')
      .bulkPut([bill(1, 'Equal rights amendment'), bill(2, 'Clean water')]);
    const service = createBillSearchService(dexieBillSearchFeed(reader), { batchSize: 1 });
    closers.push(() => {
      service.close();
    });
    const status = await service.idle();
    expect(status).toMatchObject({ indexing: false, indexed: 2 });

    const first = await service.query({ ...all, q: 'water' }, 10);
    expect(first.total).toBe(1);
    expect(first.rows[0]).toMatchObject({ identifier: 'S.J.Res. 2', tracked: false });

    // An import writes many bills at once; Dexie reports that as the whole table.
    const many = Array.from({ length: 60 }, (_, i) => bill(i + 10, `Water works ${i}`));
    await writer.table('bills').bulkPut(many);
    await writer.table('bills').put(bill(1, 'Equal rights and water'));
    await writer.table('decisions').put({
      billId: 'us/116/sjres-1',
      decision: 'track',
      decidedAt: '2025-01-01T00:00:00Z',
    });
    await writer.table('billTags').put({
      id: 'us/116/sjres-1|t1',
      billId: 'us/116/sjres-1',
      tagId: 't1',
      createdAt: '2025-01-01T00:00:00Z',
    });
    await service.idle();
    const second = await service.query({ ...all, q: 'water' }, 100);
    expect(second.total).toBe(62);
    const tracked = await service.query({ ...defaultBillListQuery, tagId: 't1' }, 10);
    expect(tracked.rows).toEqual([
      expect.objectContaining({ id: 'us/116/sjres-1', tagIds: ['t1'] }),
    ]);

    await writer.table('bills').delete('us/116/sjres-2');
    await service.idle();
    const third = await service.query({ ...all, q: 'clean' }, 10);
    expect(third.total).toBe(0);
    expect(await service.ids(second.resultId)).toHaveLength(61);
  });

  it('lists a sponsor’s bills from the store and names the person for the filter', async () => {
    const { writer, reader } = databases();
    const cruz = { name: 'Ted Cruz', role: 'primary', party: 'R', externalId: 'C001098' } as const;
    await writer
      .table('bills')
      .bulkPut([
        bill(1, 'Border act', { sponsors: [cruz] }),
        bill(2, 'Energy act', { cosponsors: [{ ...cruz, role: 'cosponsor' }] }),
        bill(3, 'Water act'),
      ]);
    const service = createBillSearchService(dexieBillSearchFeed(reader));
    closers.push(() => {
      service.close();
    });
    await service.idle();
    const answer = await service.query({ ...all, sponsor: sponsorKey(cruz) }, 10);
    expect(answer.total).toBe(2);
    expect(answer.sponsorName).toBe('Ted Cruz');
    expect(answer.rows.map((row) => row?.identifier).sort()).toEqual(['S.J.Res. 1', 'S.J.Res. 2']);
    expect((await service.query(all, 10)).sponsorName).toBeNull();
    const nobody = await service.query({ ...all, sponsor: 'id:nobody' }, 10);
    expect(nobody).toMatchObject({ total: 0, sponsorName: null });
  });

  it('reads the keys of small changes and calls anything else the whole table', () => {
    expect(changedKeys({ d: 0 })).toEqual([]);
    expect(
      changedKeys({ from: 'b', to: 'b', d: 2, l: { from: 'a', to: 'a', d: 1 }, r: null }),
    ).toEqual(['b', 'a']);
    expect(changedKeys({ from: -Infinity, to: [[]], d: 1 })).toBe('all');
    expect(changedKeys({ from: 'a', to: 'c', d: 1 })).toBe('all');
  });
});

describe('the marks it reads', () => {
  it('opens sealed positions, whose stance is not kept in clear', async () => {
    const indexedDB = new IDBFactory();
    const name = `search-sealed-${++counter}`;
    const key = await deviceRowKey(
      browserCrypto,
      browserCrypto.getRandomValues(new Uint8Array(32)),
    );
    const vault: RowVault = { rowKey: () => Promise.resolve(key), known: () => key };
    const store = await openIndexedDbLocalStore({ name, indexedDB, IDBKeyRange, vault });
    const at = '2026-11-30T09:00:00.000Z';
    await store.write(['positions'], (tx) =>
      tx.put('positions', { billId: 'b1', position: 'support', reason: 'Why', updatedAt: at }),
    );
    store.close();
    const reader = createDocketDatabase({ name, indexedDB, IDBKeyRange });
    closers.push(() => {
      reader.close();
    });
    const marks = await dexieBillSearchFeed(reader, vault).marks();
    expect(marks.positions.map(({ billId, position }) => ({ billId, position }))).toEqual([
      { billId: 'b1', position: 'support' },
    ]);
  });
});
