import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { readDeckPage } from '@docket/core/bill-deck';
import { compileDeckFilter, emptyDeckFilter } from '@docket/core/bill-deck-filter';
import type { StoredBill } from '@docket/core/local-records';
import { createDocketDatabase } from '../local-store/docket-database.ts';
import { dexieDeckSource } from './dexie-deck-source.ts';

// The deck's Dexie reads on fake-indexeddb: ids come from keys and indexes in id order, the
// multi-entry datasetIds index included, and core's deck is dealt from them.

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
  it('lists ids by key and by index, in id order, and deals the deck from them', async () => {
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
    db.close();
  });
});
