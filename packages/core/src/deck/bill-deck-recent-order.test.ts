import { describe, expect, it } from 'vitest';
import { deckSourceOfTransaction, readDeckPage } from './bill-deck.ts';
import type { DeckFilter } from './bill-deck-filter.ts';
import { compileDeckFilter, emptyDeckFilter } from './bill-deck-filter.ts';
import type { Decision, StoredBill } from '../store/local-records.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import { billIdOf, storedBill } from '../test-support/bill-command-harness.ts';

// The deck in its default order, the most recent activity first (deck-order-keys.ts), on the
// memory store: which bills it deals, and which of the recent order's lists and bills it reads.

const filter = (changes: Partial<DeckFilter> = {}) =>
  compileDeckFilter({ ...emptyDeckFilter, ...changes });

const decision = (billId: string, kind: Decision['decision']): Decision => ({
  billId,
  decision: kind,
  decidedAt: '2025-01-15T12:00:00.000Z',
});

const ids = (page: { cards: StoredBill[] }) => page.cards.map((bill) => bill.id);

describe('the most recent activity first', () => {
  const action = (date: string | null) => ({
    date,
    text: `Action of ${date ?? 'no day'}`,
    chamber: null,
  });
  /** Bill n with its latest action on `day` (null: no dated action, no status date). */
  const dated = (n: number, day: string | null, extra: Partial<StoredBill> = {}): StoredBill => ({
    ...storedBill(n),
    actions: day === null ? [] : [action('2024-01-01'), action(day)],
    statusDate: day === null ? null : '2024-01-01',
    introducedDate: day === null ? null : '2024-01-01',
    ...extra,
  });

  async function deal(
    rows: readonly StoredBill[],
    changes: Partial<DeckFilter> = {},
    limit = 10,
    decisions: readonly Decision[] = [],
  ) {
    const store = createMemoryLocalStore();
    await store.write(['bills', 'decisions'], async (tx) => {
      await tx.putMany('bills', rows);
      await tx.putMany('decisions', decisions);
    });
    return store.read(['bills', 'decisions', 'datasets'], (tx) =>
      readDeckPage(deckSourceOfTransaction(tx), filter(changes), limit),
    );
  }

  it("deals the latest activity first, a day's bills in id order, undated bills last", async () => {
    const rows = [
      dated(1, '2025-03-01'),
      dated(2, null),
      dated(3, '2025-11-20'),
      dated(4, '2025-03-01'),
      dated(5, '2024-12-31'),
    ];
    expect(ids(await deal(rows))).toEqual([3, 1, 4, 5, 2].map(billIdOf));
    // "By jurisdiction and session" is the id order.
    expect(ids(await deal(rows, { order: 'place' }))).toEqual([1, 2, 3, 4, 5].map(billIdOf));
  });

  it('goes by the newest action even where the status is older, and skips decided bills', async () => {
    const rows = [
      dated(1, '2025-01-10', { statusDate: '2025-06-01' }),
      dated(2, '2025-05-01'),
      dated(3, '2025-04-01'),
    ];
    const page = await deal(rows, {}, 2, [decision(billIdOf(2), 'dismiss')]);
    expect(ids(page)).toEqual([billIdOf(3), billIdOf(1)]);
  });

  it('joins a dataset, a status and a jurisdiction in the recent order', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => {
      const n = index + 1;
      const day = `2025-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`;
      return dated(n, day, {
        status: n % 3 === 0 ? 'enacted' : 'introduced',
        datasetIds: n % 2 === 0 ? ['even'] : ['odd'],
      });
    });
    const changes: Partial<DeckFilter> = {
      datasetId: 'even',
      status: 'enacted',
      jurisdiction: 'us',
    };
    const expected = rows
      .filter((bill) => bill.datasetIds.includes('even') && bill.status === 'enacted')
      .sort((a, b) => {
        const dayOf = (bill: StoredBill) => bill.actions.at(-1)?.date ?? '';
        return dayOf(b).localeCompare(dayOf(a)) || a.id.localeCompare(b.id);
      })
      .map((bill) => bill.id);
    expect(ids(await deal(rows, changes, 100))).toEqual(expected);
    expect(ids(await deal(rows, { ...changes, search: 'thing number 1' }, 100))).toEqual(
      expected.filter((id) => rows.find((bill) => bill.id === id)?.title.includes('number 1')),
    );
  });

  it('pages through a long list from where the last page ended', async () => {
    const rows = Array.from({ length: 300 }, (_, index) =>
      dated(index + 1, `2025-01-${String((index % 28) + 1).padStart(2, '0')}`, {
        title: index === 7 ? 'Needle act' : `Hay ${index}`,
      }),
    );
    // The needle's day (Jan 8) is among the oldest: every page before it is walked.
    expect(ids(await deal(rows, { search: 'needle' }, 2))).toEqual([billIdOf(8)]);
  });

  it('joins by reading a list, then by seeking from the last bill read, missing none between', async () => {
    // 1,000 bills of one dataset, one a day back from the newest; the enacted ones come 101st
    // to 106th in the recent order, in the page where the join stops reading (100 bills: its
    // pages hold 64, then 256 ids) and goes on by seeking.
    const dayOf = (n: number) =>
      new Date(Date.UTC(2025, 11, 31) - n * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: 1_000 }, (_, index) =>
      dated(index + 1, dayOf(index), {
        status: index >= 100 && index < 106 ? 'enacted' : 'introduced',
        datasetIds: ['d1'],
      }),
    );
    const page = await deal(rows, { datasetId: 'd1', status: 'enacted' }, 4);
    expect(ids(page)).toEqual([101, 102, 103, 104].map(billIdOf));
  });

  it('deals past a long run put off for later without walking it, and reads bills in small batches first', async () => {
    // 2,000 bills, one a day back from the newest; the newest 1,500 put off for later. The
    // dataset and status of the filter agree on every fourth bill.
    const dayOf = (n: number) =>
      new Date(Date.UTC(2025, 11, 31) - n * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: 2_000 }, (_, index) =>
      dated(index + 1, dayOf(index), {
        status: index % 4 === 0 ? 'enacted' : 'introduced',
        datasetIds: ['d1'],
        title: index % 2 === 0 ? 'Water act' : 'Roads act',
      }),
    );
    const decisions = rows.slice(0, 1_500).map((bill) => decision(bill.id, 'later'));
    const store = createMemoryLocalStore();
    await store.write(['bills', 'decisions'], async (tx) => {
      await tx.putMany('bills', rows);
      await tx.putMany('decisions', decisions);
    });
    const readBatches = async (changes: Partial<DeckFilter>) => {
      const batches: number[] = [];
      const page = await store.read(['bills', 'decisions', 'datasets'], (tx) => {
        const source = deckSourceOfTransaction(tx);
        return readDeckPage(
          {
            ...source,
            bills: (wanted) => {
              batches.push(wanted.length);
              return source.bills(wanted);
            },
          },
          filter(changes),
          4,
        );
      });
      return { page, batches };
    };
    const joined = await readBatches({ datasetId: 'd1', status: 'enacted' });
    expect(ids(joined.page)).toEqual([1501, 1505, 1509, 1513].map(billIdOf));
    // No bill put off is read; the first undecided ones are read 16 at a time, then more.
    const joinedReads = joined.batches.reduce((sum, size) => sum + size, 0);
    expect(joined.batches[0]).toBe(16);
    expect(joinedReads).toBeLessThanOrEqual(16 + 1);
    const words = await readBatches({ search: 'water' });
    expect(ids(words.page)).toEqual([1501, 1503, 1505, 1507].map(billIdOf));
    expect(words.batches.filter((size) => size > 4)).toEqual([16]);
  });

  it('never walks past decided bills: they are out of the lists, and those put off for later come back in their place', async () => {
    // 2,000 bills, one a day back from the newest; the newest 1,500 tracked, dismissed or put
    // off for later.
    const dayOf = (n: number) =>
      new Date(Date.UTC(2025, 11, 31) - n * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: 2_000 }, (_, index) =>
      dated(index + 1, dayOf(index), { datasetIds: ['d1'] }),
    );
    const decisions = rows
      .slice(0, 1_500)
      .map((bill, index) =>
        decision(bill.id, index % 3 === 0 ? 'track' : index % 3 === 1 ? 'dismiss' : 'later'),
      );
    const store = createMemoryLocalStore();
    await store.write(['bills', 'decisions'], async (tx) => {
      await tx.putMany('bills', rows);
      await tx.putMany('decisions', decisions);
    });
    const listed = async (changes: Partial<DeckFilter>) => {
      const pages: string[][] = [];
      const page = await store.read(['bills', 'decisions', 'datasets'], (tx) => {
        const source = deckSourceOfTransaction(tx);
        const recent = source.recent;
        if (recent === undefined) throw new Error('no recent order');
        return readDeckPage(
          {
            ...source,
            recent: {
              ...recent,
              page: async (list, after, limit) => {
                const found = await recent.page(list, after, limit);
                pages.push(found.ids);
                return found;
              },
            },
          },
          filter(changes),
          4,
        );
      });
      return { page, pages };
    };
    for (const changes of [{}, { datasetId: 'd1' }]) {
      const { page, pages } = await listed(changes);
      expect(ids(page)).toEqual([1501, 1502, 1503, 1504].map(billIdOf));
      // One small page, and not one decided id in it.
      expect(pages.map((ids) => ids.length)).toEqual([64]);
      expect(pages.flat().filter((id) => decisions.some((row) => row.billId === id))).toEqual([]);
    }
    // "Include later": the bills put off for later, in their place.
    const withLater = await listed({ includeLater: true });
    expect(ids(withLater.page)).toEqual([3, 6, 9, 12].map(billIdOf));
    expect(withLater.pages.map((ids) => ids.length)).toEqual([64]);
    // Undone, a bill is dealt again in its place.
    await store.write(['decisions'], (tx) => tx.delete('decisions', billIdOf(1)));
    expect(ids((await listed({})).page)).toEqual([1, 1501, 1502, 1503].map(billIdOf));
  });

  it('deals in id order while the store is still filling the recent order', async () => {
    const rows = [dated(1, '2025-01-01'), dated(2, '2025-12-01')];
    const store = createMemoryLocalStore();
    await store.write(['bills'], (tx) => tx.putMany('bills', rows));
    const page = await store.read(['bills', 'decisions', 'datasets'], (tx) => {
      const source = deckSourceOfTransaction(tx);
      const recent = source.recent;
      if (recent === undefined) throw new Error('no recent order');
      return readDeckPage(
        { ...source, recent: { ...recent, ready: () => Promise.resolve(false) } },
        filter(),
        2,
      );
    });
    expect(ids(page)).toEqual([billIdOf(1), billIdOf(2)]);
  });

  it('says why the deck is empty, as in id order', async () => {
    expect((await deal([dated(1, '2025-01-01')], { status: 'enacted' })).empty).toEqual({
      kind: 'no-datasets',
    });
  });
});
