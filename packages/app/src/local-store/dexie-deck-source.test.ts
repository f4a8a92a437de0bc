import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import {
  compileDeckFilter,
  deckSourceOfTransaction,
  emptyDeckFilter,
  readDeckPage,
} from '@docket/core/deck';
import { createMemoryLocalStore } from '@docket/core/store';
import { billDeckOrderKeys, type StoredBill } from '@docket/core/store';
import { createDocketDatabase, schemaSteps } from './docket-database.ts';
import { dexieDeckSource } from './dexie-deck-source.ts';
import { fillDeckOrder } from './deck-order-backfill.ts';
import { localStoreOn } from './indexeddb-local-store.ts';

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
      compileDeckFilter({ ...emptyDeckFilter, datasetId: 'd2', order: 'place' }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual(['us/119/hr-3']);
    expect(await source.decidedIds(false)).toEqual(['us/119/hr-1']);
    expect(await source.decidedIds(true)).toEqual([]);
    db.close();
  });

  it('pages every list from an id on: by key, by [field+id] ranges and by a dataset seek', async () => {
    const db = createDocketDatabase({
      name: 'deck-source-pages',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    const numbers = Array.from({ length: 600 }, (_, index) => index + 1);
    const id = (n: number) => `us/119/hr-${String(n).padStart(4, '0')}`;
    await db.table('bills').bulkPut(
      numbers.map((n) =>
        bill(id(n), {
          status: n % 2 === 0 ? 'enacted' : 'introduced',
          jurisdiction: n % 3 === 0 ? 'us-ca' : 'us',
          datasetIds: n % 5 === 0 ? ['d5', 'd1'] : ['d1'],
        }),
      ),
    );
    const source = dexieDeckSource(db);
    const listOf = (keep: (n: number) => boolean) => numbers.filter(keep).map(id);
    const enacted = listOf((n) => n % 2 === 0);
    const california = listOf((n) => n % 3 === 0);
    const d5 = listOf((n) => n % 5 === 0);
    expect(await source.billIdPage(null, null, 3)).toEqual(numbers.slice(0, 3).map(id));
    expect(await source.billIdPage(null, id(10), 2)).toEqual([id(10), id(11)]);
    expect(await source.billIdPage({ index: 'status', value: 'enacted' }, id(101), 3)).toEqual(
      enacted.slice(50, 53),
    );
    expect(
      await source.billIdPage({ index: 'jurisdiction', value: 'us-ca' }, `${id(300)}\u0000`, 2),
    ).toEqual([id(303), id(306)]);
    expect(await source.billIdPage({ index: 'status', value: 'vetoed' }, null, 5)).toEqual([]);
    // The dataset's cursor seeks to the id asked for and stops at the dataset's end.
    expect(await source.billIdPage({ index: 'datasetIds', value: 'd1' }, id(590), 20)).toEqual(
      numbers.slice(589).map(id),
    );
    expect(await source.billIdPage({ index: 'datasetIds', value: 'd5' }, id(51), 2)).toEqual(
      d5.slice(10, 12),
    );
    expect(await source.billIdPage({ index: 'datasetIds', value: 'd5' }, id(601), 2)).toEqual([]);

    // The deck joins the three lists and deals exactly what the filter matches.
    const page = await readDeckPage(
      source,
      compileDeckFilter({
        ...emptyDeckFilter,
        order: 'place',
        status: 'enacted',
        jurisdiction: 'us-ca',
        datasetId: 'd5',
      }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual(
      enacted.filter((key) => california.includes(key) && d5.includes(key)).slice(0, 4),
    );
    db.close();
  });
  it("pages a session's bills as one range of the primary key, and deals a session filter", async () => {
    const db = createDocketDatabase({
      name: 'deck-source-sessions',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    const ids = ['us/115/hr-1', 'us/116/hr-1', 'us/116/hr-2', 'us/116/s-1', 'us/117/hr-1'];
    // 'us/11/…' and 'us/1160/…' share the text 'us/11' and 'us/116' but not the session.
    await db.table('bills').bulkPut([...ids, 'us/11/hr-9', 'us/1160/hr-9'].map((id) => bill(id)));
    const source = dexieDeckSource(db);
    const session = { index: 'idPrefix', value: 'us/116/' } as const;
    expect(await source.billIds(session)).toEqual(['us/116/hr-1', 'us/116/hr-2', 'us/116/s-1']);
    expect(await source.billIdPage(session, null, 2)).toEqual(['us/116/hr-1', 'us/116/hr-2']);
    expect(await source.billIdPage(session, 'us/116/hr-2\u0000', 5)).toEqual(['us/116/s-1']);
    expect(await source.billIdPage(session, 'us/117/', 5)).toEqual([]);
    expect(await source.billIdPage(session, 'a', 1)).toEqual(['us/116/hr-1']);
    const page = await readDeckPage(
      source,
      compileDeckFilter({ ...emptyDeckFilter, session: 'us:116', order: 'place' }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual(['us/116/hr-1', 'us/116/hr-2', 'us/116/s-1']);
    db.close();
  });

  it('seeks in a dataset between others, from any id, and reads no further than asked', async () => {
    const db = createDocketDatabase({
      name: 'deck-source-dataset-seek',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    const id = (n: number) => `us/119/hr-${String(n).padStart(4, '0')}`;
    const datasetsOf = (n: number) =>
      [n % 2 === 0 ? 'a' : null, n % 3 === 0 ? 'm' : null, n % 7 === 0 ? 'z' : null].filter(
        (value): value is string => value !== null,
      );
    const numbers = Array.from({ length: 300 }, (_, index) => index + 1);
    await db.table('bills').bulkPut(numbers.map((n) => bill(id(n), { datasetIds: datasetsOf(n) })));
    const source = dexieDeckSource(db);
    const starts = [null, '', id(1), id(2), `${id(150)}\u0000`, id(150), id(299), id(300), 'zzz'];
    for (const dataset of ['a', 'm', 'z', '0', 'b', 'zz']) {
      const all = numbers.filter((n) => datasetsOf(n).includes(dataset)).map(id);
      for (const atLeast of starts) {
        for (const limit of [1, 3, 500]) {
          const from = atLeast === null ? 0 : all.findIndex((key) => key >= atLeast);
          const expected = from < 0 ? [] : all.slice(from, from + limit);
          expect(
            await source.billIdPage({ index: 'datasetIds', value: dataset }, atLeast, limit),
            `${dataset} from ${String(atLeast)}, ${limit}`,
          ).toEqual(expected);
        }
      }
    }
    db.close();
  });

  it('deals the most recent activity first once every bill stored before version 7 is in that order', async () => {
    const indexedDB = new IDBFactory();
    const name = 'deck-source-recent';
    const acted = (day: string) => [{ date: day, text: `Acted on ${day}`, chamber: null }];
    // Stored at version 6, before the recent order: the bills carry no keys in it.
    const before = createDocketDatabase({
      name,
      indexedDB,
      IDBKeyRange,
      steps: schemaSteps.filter((step) => step.version < 7),
    });
    await before
      .table('bills')
      .bulkPut([
        bill('us/119/hr-1', { actions: acted('2025-01-05') }),
        bill('us/119/hr-2', { actions: acted('2025-09-30'), status: 'enacted' }),
        bill('us/119/hr-3', { actions: acted('2025-04-01'), status: 'enacted' }),
      ]);
    before.close();

    const db = createDocketDatabase({ name, indexedDB, IDBKeyRange });
    const deal = async (changes: Partial<typeof emptyDeckFilter> = {}) =>
      (
        await readDeckPage(
          dexieDeckSource(db),
          compileDeckFilter({ ...emptyDeckFilter, ...changes }),
          5,
        )
      ).cards.map((card) => card.id);
    // Not all in the order yet: the deck deals in id order meanwhile.
    expect(await deal()).toEqual(['us/119/hr-1', 'us/119/hr-2', 'us/119/hr-3']);
    // A bill written now gets its keys from the store.
    await localStoreOn(db).write(['bills'], (tx) =>
      tx.put('bills', bill('us/119/hr-4', { actions: acted('2025-06-01') })),
    );
    expect(await fillDeckOrder(db, { batch: 2 })).toBe(3);
    expect(await deal()).toEqual(['us/119/hr-2', 'us/119/hr-4', 'us/119/hr-3', 'us/119/hr-1']);
    expect(await deal({ status: 'enacted', datasetId: 'd1' })).toEqual([
      'us/119/hr-2',
      'us/119/hr-3',
    ]);
    expect(await deal({ order: 'place' })).toEqual([
      'us/119/hr-1',
      'us/119/hr-2',
      'us/119/hr-3',
      'us/119/hr-4',
    ]);
    // Nothing is left to fill.
    expect(await fillDeckOrder(db)).toBe(0);
    db.close();
  });

  it('gives the bills stored at version 7 their keys as their decisions have them, in the background', async () => {
    const indexedDB = new IDBFactory();
    const name = 'deck-source-decided';
    const acted = (day: string) => [{ date: day, text: `Acted on ${day}`, chamber: null }];
    const rows = [
      bill('us/119/hr-1', { actions: acted('2025-01-05') }),
      bill('us/119/hr-2', { actions: acted('2025-09-30') }),
      bill('us/119/hr-3', { actions: acted('2025-04-01') }),
    ];
    // Stored at version 7, when every bill had its keys whatever its decision.
    const before = createDocketDatabase({
      name,
      indexedDB,
      IDBKeyRange,
      steps: schemaSteps.filter((step) => step.version <= 7),
    });
    await before
      .table('bills')
      // Version 7's keys: the plain lists' only, whatever the decision.
      .bulkPut(
        rows.map((row) => ({
          ...row,
          deckKeys: billDeckOrderKeys(row).filter((key) => !/^[A-Z]/.test(key)),
        })),
      );
    const decidedAt = '2025-10-01T00:00:00.000Z';
    await before.table('decisions').bulkPut([
      { billId: 'us/119/hr-2', decision: 'dismiss', decidedAt },
      { billId: 'us/119/hr-3', decision: 'later', decidedAt },
    ]);
    before.close();

    const db = createDocketDatabase({ name, indexedDB, IDBKeyRange });
    const keysOf = async (id: string) =>
      (await db.table<StoredBill, string>('bills').get(id))?.deckKeys;
    const deal = async () =>
      (
        await readDeckPage(dexieDeckSource(db), compileDeckFilter({ ...emptyDeckFilter }), 5)
      ).cards.map((card) => card.id);
    // Until the dismissed bill leaves the order, the deck deals in id order, without it.
    expect(await deal()).toEqual(['us/119/hr-1']);
    expect(await keysOf('us/119/hr-2')).toHaveLength(5);
    expect(await fillDeckOrder(db, { batch: 1 })).toBe(3);
    expect(await keysOf('us/119/hr-1')).toEqual(billDeckOrderKeys(rows[0] ?? bill('x')));
    expect(await keysOf('us/119/hr-2')).toEqual([]);
    expect(await keysOf('us/119/hr-3')).toEqual(billDeckOrderKeys(rows[2] ?? bill('x'), 'later'));
    expect(await deal()).toEqual(['us/119/hr-1']);
    expect(
      (
        await readDeckPage(
          dexieDeckSource(db),
          compileDeckFilter({ ...emptyDeckFilter, includeLater: true }),
          5,
        )
      ).cards.map((card) => card.id),
    ).toEqual(['us/119/hr-3', 'us/119/hr-1']);
    expect(await fillDeckOrder(db)).toBe(0);
    db.close();
  });

  it('joins criteria in the recent order exactly as the plain reading of every bill does, by pages then by seeking', async () => {
    const statuses = ['introduced', 'enacted', 'vetoed'] as const;
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    // 1,200 bills, vetoed ones rare: a join of a dataset and that status reads its 400 bills
    // walking the dataset, then goes on by seeking.
    const rows = Array.from({ length: 1_200 }, (_, index) => {
      const day = `2025-${String(random(12) + 1).padStart(2, '0')}-${String(random(28) + 1).padStart(2, '0')}`;
      const jurisdiction = random(3) === 0 ? 'us-ak' : 'us';
      return bill(`${jurisdiction}/${random(2) === 0 ? '119' : '118'}/hr-${index}`, {
        jurisdiction,
        status: random(60) === 0 ? 'vetoed' : (statuses[random(2)] ?? 'introduced'),
        datasetIds: random(4) === 0 ? ['d1', 'd2'] : random(2) === 0 ? ['d1'] : ['d2'],
        actions: random(10) === 0 ? [] : [{ date: day, text: 'Acted', chamber: null }],
      });
    });
    const db = createDocketDatabase({
      name: 'deck-source-join',
      indexedDB: new IDBFactory(),
      IDBKeyRange,
    });
    const memory = createMemoryLocalStore();
    for (const store of [localStoreOn(db), memory]) {
      await store.write(['bills', 'decisions'], async (tx) => {
        await tx.putMany('bills', rows);
        await tx.putMany(
          'decisions',
          rows
            .filter((_, index) => index % 7 === 0)
            .map((row) => ({
              billId: row.id,
              decision: 'dismiss' as const,
              decidedAt: '2025-01-01T00:00:00.000Z',
            })),
        );
      });
    }
    const filters = [
      {},
      { status: 'enacted' as const },
      { status: 'enacted' as const, jurisdiction: 'us' },
      { datasetId: 'd2', status: 'vetoed' as const },
      { datasetId: 'd1', session: 'us-ak:119', status: 'introduced' as const },
      { datasetId: 'd1', jurisdiction: 'us', status: 'enacted' as const, search: 'hr' },
    ];
    for (const changes of filters) {
      const compiled = compileDeckFilter({ ...emptyDeckFilter, ...changes });
      const expected = await memory.read(['bills', 'decisions', 'datasets'], (tx) =>
        readDeckPage(deckSourceOfTransaction(tx), compiled, 500),
      );
      const dealt = await readDeckPage(dexieDeckSource(db), compiled, 500);
      expect(dealt.cards.map((card) => card.id)).toEqual(expected.cards.map((card) => card.id));
      expect(expected.cards.length).toBeGreaterThan(0);
      // A few at a time, as the screen asks, the first cards are the same.
      const first = await readDeckPage(dexieDeckSource(db), compiled, 3);
      expect(first.cards.map((card) => card.id)).toEqual(
        expected.cards.slice(0, 3).map((card) => card.id),
      );
    }
    db.close();
  });
});
