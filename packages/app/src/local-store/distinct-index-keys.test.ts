import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { distinctIndexKeys } from './distinct-index-keys.ts';

interface Row {
  id: string;
  place?: string | number;
}

async function tableOf(rows: Row[]) {
  const db = new Dexie(`distinct-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  db.version(1).stores({ rows: 'id, place' });
  const table = db.table<Row, string>('rows');
  await table.bulkPut(rows);
  return table;
}

describe('distinctIndexKeys', () => {
  it('gives each value of the index once, in order, however many rows share it', async () => {
    const places = ['us-tx', 'us', 'us-ak'] as const;
    const rows = Array.from({ length: 900 }, (_, i): Row => ({
      id: `b${i}`,
      place: places[i % 3] ?? 'us',
    }));
    const table = await tableOf(rows);

    expect(await distinctIndexKeys(table, 'place')).toEqual(['us', 'us-ak', 'us-tx']);
  });

  it('skips rows without the field and values that are not text', async () => {
    const table = await tableOf([
      { id: 'a', place: 'us-ny' },
      { id: 'b' },
      { id: 'c', place: 7 },
      { id: 'd', place: 'us-ca' },
      { id: 'e', place: 'us-ny' },
    ]);

    expect(await distinctIndexKeys(table, 'place')).toEqual(['us-ca', 'us-ny']);
  });

  it('gives nothing for an empty table', async () => {
    expect(await distinctIndexKeys(await tableOf([]), 'place')).toEqual([]);
  });
});
