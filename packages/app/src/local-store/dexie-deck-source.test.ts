import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { compileDeckFilter, emptyDeckFilter, readDeckPage } from '@docket/core/deck';
import { type BillOrder, billIdOfOrderKey, billOrderKey } from '@docket/core/bills';
import type { StoredBill } from '@docket/core/store';
import { createDocketDatabase } from './docket-database.ts';
import { dexieDeckSource } from './dexie-deck-source.ts';

// The deck's Dexie reads on fake-indexeddb: order keys come from the order indexes (each bill's
// keys derived as it is written), ids from keys and indexes, the multi-entry datasetIds index
// included, and core's deck is dealt from them.

function bill(id: string, changes: Partial<StoredBill> = {}): StoredBill {
  const [jurisdiction = 'us', session = '119', rest = 'hr-1'] = id.split('/');
  const [type = 'hr', number = '1'] = rest.split('-');
  return {
    id,
    source: 'docket-csv',
    sourceId: null,
    jurisdiction,
    session,
    type,
    number,
    identifier: `${type.toUpperCase()} ${number}`,
    title: `Bill ${id}`,
    summary: null,
    introducedDate: null,
    status: 'introduced',
    rawStatus: null,
    statusDate: null,
    sponsors: [],
    cosponsors: [],
    subjects: [],
    actions: [],
    texts: [],
    votes: [],
    url: null,
    changeHash: '0123456789abcdef',
    datasetIds: ['d1'],
    ...changes,
  };
}

describe('dexieDeckSource', () => {
  it('lists ids by key and by index, and deals the deck from them', async () => {
    const db = createDocketDatabase({
      name: 'deck-source-test',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    await db
      .table('bills')
      .bulkPut([
        bill('us/119/hr-3', { datasetIds: ['d1', 'd2'], status: 'enacted' }),
        bill('us/119/hr-1', { datasetIds: ['d2'] }),
        bill('us-ca/2025/ab-2', { datasetIds: ['d1'] }),
      ]);
    await db.table('decisions').put({
      billId: 'us/119/hr-1',
      decision: 'later',
      decidedAt: '2025-01-01T00:00:00.000Z',
    });
    const source = dexieDeckSource(db);
    expect(await source.billIds(null)).toEqual(['us-ca/2025/ab-2', 'us/119/hr-1', 'us/119/hr-3']);
    expect(await source.billIds({ index: 'datasetIds', value: 'd2' })).toEqual([
      'us/119/hr-1',
      'us/119/hr-3',
    ]);
    expect(await source.billIds({ index: 'status', value: 'enacted' })).toEqual(['us/119/hr-3']);
    expect(await source.datasetCount()).toBe(0);

    const page = await readDeckPage(
      source,
      compileDeckFilter({ ...emptyDeckFilter, datasetId: 'd2' }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual(['us/119/hr-3']);
    expect(await source.decidedIds(false)).toEqual(['us/119/hr-1']);
    expect(await source.decidedIds(true)).toEqual([]);
    db.close();
  });

  it("pages the order in both orders from a key on, and lists a session's ids", async () => {
    const db = createDocketDatabase({
      name: 'deck-source-pages',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    const numbers = Array.from({ length: 600 }, (_, index) => index + 1);
    const rows = numbers.map((n) =>
      bill(`us/${n % 4 === 0 ? '118' : '119'}/hr-${n}`, {
        status: n % 2 === 0 ? 'enacted' : 'introduced',
        jurisdiction: n % 3 === 0 ? 'us-ca' : 'us',
        session: n % 4 === 0 ? '118' : '119',
        datasetIds: n % 5 === 0 ? ['d5', 'd1'] : ['d1'],
        actions: [{ date: `2025-0${(n % 9) + 1}-01`, text: 'Reported.', chamber: 'lower' }],
      }),
    );
    await db.table('bills').bulkPut(rows);
    const source = dexieDeckSource(db);
    const sorted = (keep: (row: StoredBill) => boolean, order: BillOrder) =>
      rows
        .filter(keep)
        .map((row) => billOrderKey(row, order))
        .sort();
    for (const order of ['activity', 'number'] as const) {
      const all = sorted(() => true, order);
      const ids = (keys: readonly string[]) => keys.map(billIdOfOrderKey);
      // A page: its ids in order, and the key of its last, where the next starts.
      expect(await source.orderPage(order, null, 3)).toEqual({
        ids: ids(all.slice(0, 3)),
        last: all[2],
      });
      expect(await source.orderPage(order, all[9] ?? null, 2)).toEqual({
        ids: ids(all.slice(10, 12)),
        last: all[11],
      });
      // Walked page by page, the order comes whole, each id once; the last page ends it.
      const walked: string[] = [];
      for (let after: string | null = null, ended = false; !ended;) {
        const page = await source.orderPage(order, after, 128);
        walked.push(...page.ids);
        after = page.last;
        ended = page.last === null;
      }
      expect(walked).toEqual(ids(all));
      expect(await source.orderPage(order, all.at(-1) ?? null, 5)).toEqual({ ids: [], last: null });
    }
    expect(
      (await source.billIds({ index: 'session', jurisdiction: 'us', session: '118' })).sort(),
    ).toEqual(
      rows
        .filter((row) => row.jurisdiction === 'us' && row.session === '118')
        .map((row) => row.id)
        .sort(),
    );

    // The deck joins the lists and the dataset and deals exactly what the filter matches.
    const page = await readDeckPage(
      source,
      compileDeckFilter({
        ...emptyDeckFilter,
        status: 'enacted',
        session: 'us:118',
        datasetId: 'd5',
      }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual(
      sorted(
        (row) =>
          row.status === 'enacted' &&
          row.jurisdiction === 'us' &&
          row.session === '118' &&
          row.datasetIds.includes('d5'),
        'activity',
      )
        .slice(0, 4)
        .map(billIdOfOrderKey),
    );
    db.close();
  });
});
