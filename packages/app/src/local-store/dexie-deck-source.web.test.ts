import Dexie, { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { billIdOfOrderKey, billOrderKey } from '@docket/core/bills';
import { compileDeckFilter, emptyDeckFilter, readDeckPage } from '@docket/core/deck';
import { storedBill } from '@docket/core/test-support/bill-command-harness';
import { createDocketDatabase } from './docket-database.ts';
import { dexieDeckSource } from './dexie-deck-source.ts';

// The deck's reads on Chromium's own IndexedDB (vitest.web.config.ts): the order keys every
// written bill gets, the compound ranges over them, and the live query that must see a bill
// land in the middle of an order.

Dexie.debug = false;

const run = Date.now();
const on = (date: string) => [{ date, text: 'Reported.', chamber: 'lower' as const }];
const bill = (n: number, session: string, date: string) => ({
  ...storedBill(n, { actions: on(date) }),
  session,
  id: `us/${session}/hr-${n}`,
  datasetIds: n % 5 === 0 ? ['m'] : ['a'],
  status: n % 3 === 0 ? ('enacted' as const) : ('introduced' as const),
});

describe('dexieDeckSource in Chromium', () => {
  it('deals a session joined with a status and a dataset, newest activity first', async () => {
    const name = `docket-deck-order-${run}`;
    const db = createDocketDatabase({ name });
    const numbers = Array.from({ length: 400 }, (_, index) => index + 1);
    const rows = numbers.map((n) =>
      bill(n, n % 2 === 0 ? '118' : '119', `2025-${String((n % 12) + 1).padStart(2, '0')}-01`),
    );
    await db.table('bills').bulkPut(rows);
    const source = dexieDeckSource(db);
    const page = await readDeckPage(
      source,
      compileDeckFilter({
        ...emptyDeckFilter,
        session: 'us:119',
        status: 'enacted',
        datasetId: 'm',
      }),
      4,
    );
    const wanted = rows
      .filter(
        (row) => row.session === '119' && row.status === 'enacted' && row.datasetIds.includes('m'),
      )
      .map((row) => billOrderKey(row, 'activity'))
      .sort()
      .slice(0, 4)
      .map(billIdOfOrderKey);
    expect(page.cards.map((card) => card.id)).toEqual(wanted);
    // Newest first: each card's latest action is no newer than the one before.
    const dates = page.cards.map((card) => card.actions.at(-1)?.date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    db.close();
    await Dexie.delete(name);
  });

  it('inside a live query, the deck is read again when a newer bill lands or one is decided', async () => {
    const name = `docket-deck-live-${run}`;
    const db = createDocketDatabase({ name });
    await db.table('bills').bulkPut([bill(2, '119', '2025-01-01')]);
    const source = dexieDeckSource(db);
    const pages: string[][] = [];
    const filter = compileDeckFilter({ ...emptyDeckFilter, session: 'us:119' });
    const subscription = liveQuery(async () =>
      (await readDeckPage(source, filter, 4)).cards.map((card) => card.id),
    ).subscribe({ next: (value) => pages.push(value) });
    try {
      await vi.waitFor(() => {
        expect(pages).toEqual([['us/119/hr-2']]);
      });
      await db.table('bills').put(bill(1, '119', '2025-06-01'));
      await vi.waitFor(() => {
        expect(pages.at(-1)).toEqual(['us/119/hr-1', 'us/119/hr-2']);
      });
      await db.table('decisions').put({
        billId: 'us/119/hr-1',
        decision: 'track',
        decidedAt: '2025-01-01T00:00:00.000Z',
      });
      await vi.waitFor(() => {
        expect(pages.at(-1)).toEqual(['us/119/hr-2']);
      });
    } finally {
      subscription.unsubscribe();
      db.close();
      await Dexie.delete(name);
    }
  });
});
