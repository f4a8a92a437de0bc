import Dexie, { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { compileDeckFilter, emptyDeckFilter, readDeckPage } from '@docket/core/deck';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { createDocketDatabase } from './docket-database.ts';
import { dexieDeckSource } from './dexie-deck-source.ts';

// The deck's dataset seek on Chromium's own IndexedDB (vitest.web.config.ts): the key cursor's
// continuePrimaryKey, which fake-indexeddb only imitates, and the live query that must still see
// the reads around it.

Dexie.debug = false;

const run = Date.now();
const bill = (n: number, datasetIds: string[]) => ({
  ...storedBill(n),
  id: `us/119/hr-${String(n).padStart(4, '0')}`,
  datasetIds,
});

describe('dexieDeckSource in Chromium', () => {
  it('seeks into a dataset from an id and deals a dataset filter joined with a status', async () => {
    const db = createDocketDatabase({ name: `docket-deck-seek-${run}` });
    const numbers = Array.from({ length: 400 }, (_, index) => index + 1);
    const datasetsOf = (n: number) => [
      ...(n % 2 === 0 ? ['a'] : []),
      ...(n % 5 === 0 ? ['m'] : []),
    ];
    await db.table('bills').bulkPut(
      numbers.map((n) => ({
        ...bill(n, datasetsOf(n)),
        status: n % 3 === 0 ? 'enacted' : 'introduced',
      })),
    );
    const source = dexieDeckSource(db);
    const idOf = (n: number) => `us/119/hr-${String(n).padStart(4, '0')}`;
    const inM = numbers.filter((n) => n % 5 === 0).map(idOf);
    expect(await source.billIdPage({ index: 'datasetIds', value: 'm' }, null, 3)).toEqual(
      inM.slice(0, 3),
    );
    expect(await source.billIdPage({ index: 'datasetIds', value: 'm' }, idOf(201), 2)).toEqual([
      idOf(205),
      idOf(210),
    ]);
    expect(await source.billIdPage({ index: 'datasetIds', value: 'a' }, idOf(399), 5)).toEqual([
      idOf(400),
    ]);
    expect(await source.billIdPage({ index: 'datasetIds', value: 'b' }, null, 5)).toEqual([]);
    expect(await source.billIdPage({ index: 'datasetIds', value: '0' }, null, 5)).toEqual([]);

    const page = await readDeckPage(
      source,
      compileDeckFilter({ ...emptyDeckFilter, datasetId: 'm', status: 'enacted', order: 'place' }),
      4,
    );
    expect(page.cards.map((card) => card.id)).toEqual([idOf(15), idOf(30), idOf(45), idOf(60)]);
    db.close();
    await Dexie.delete(`docket-deck-seek-${run}`);
  });

  it('inside a live query, a dataset page is read again when a bill joins the dataset', async () => {
    const name = `docket-deck-live-${run}`;
    const db = createDocketDatabase({ name });
    await db.table('bills').bulkPut([bill(2, ['d1'])]);
    const source = dexieDeckSource(db);
    const pages: string[][] = [];
    const subscription = liveQuery(async () => {
      // From an id: the cursor's seek, which Dexie does not observe by itself.
      const ids = await source.billIdPage({ index: 'datasetIds', value: 'd1' }, 'us/', 10);
      // Read after the cursor: it must still be observed (the live query's context kept).
      const decided = await source.decidedIds(false);
      return ids.filter((key) => !decided.includes(key));
    }).subscribe({ next: (value) => pages.push(value) });
    try {
      await vi.waitFor(() => {
        expect(pages).toEqual([['us/119/hr-0002']]);
      });
      await db.table('bills').put(bill(1, ['d1']));
      await vi.waitFor(() => {
        expect(pages.at(-1)).toEqual(['us/119/hr-0001', 'us/119/hr-0002']);
      });
      await db.table('decisions').put({
        billId: 'us/119/hr-0001',
        decision: 'track',
        decidedAt: '2025-01-01T00:00:00.000Z',
      });
      await vi.waitFor(() => {
        expect(pages.at(-1)).toEqual(['us/119/hr-0002']);
      });
    } finally {
      subscription.unsubscribe();
      db.close();
      await Dexie.delete(name);
    }
  });
});
