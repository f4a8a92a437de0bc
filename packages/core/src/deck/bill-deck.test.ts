import { describe, expect, it } from 'vitest';
import type { DeckSource } from './bill-deck.ts';
import {
  deckCardFacts,
  deckCount,
  decidedIds,
  decisionAnnouncement,
  deckSourceOfTransaction,
  matchingBillIds,
  readDeckPage,
  undoAnnouncement,
  undoHistoryHasSteps,
} from './bill-deck.ts';
import type { DeckFilter } from './bill-deck-filter.ts';
import { compileDeckFilter, emptyDeckFilter } from './bill-deck-filter.ts';
import {
  type BillOrder,
  billIdOfOrderKey as billIdOfKey,
  billOrderKey,
} from '../bills/bill-sort-keys.ts';
import type { Decision, StoredBill } from '../store/local-records.ts';
import type { LocalStore } from '../store/local-store.ts';
import { createMemoryLocalStore } from '../store/memory-local-store.ts';
import {
  dismissBill,
  laterBill,
  trackBill,
  undoLastDecision,
} from '../commands/triage-commands.ts';
import {
  billIdOf,
  storedBill,
  storeWithBills,
  testContext,
} from '../test-support/bill-command-harness.ts';

const filter = (changes: Partial<DeckFilter> = {}) =>
  compileDeckFilter({ ...emptyDeckFilter, ...changes });

/** A source over plain arrays that records which bills it was made to read. */
function arraySource(
  bills: readonly StoredBill[],
  decisions: readonly Decision[] = [],
  datasets = 1,
): DeckSource & { read: string[]; pages: number[]; keysListed: number } {
  const byId = new Map(bills.map((bill) => [bill.id, bill]));
  const read: string[] = [];
  const listed = (criterion: Parameters<DeckSource['billIds']>[0]) =>
    [...byId.values()].filter((bill) => {
      if (criterion === null) return true;
      if (criterion.index === 'datasetIds') return bill.datasetIds.includes(criterion.value);
      if (criterion.index === 'session') {
        return bill.jurisdiction === criterion.jurisdiction && bill.session === criterion.session;
      }
      return bill[criterion.index] === criterion.value;
    });
  const pages: number[] = [];
  const source = {
    read,
    pages,
    /** Keys handed out by pages: what a store would have read of its indexes. */
    keysListed: 0,
    orderPage: (order: BillOrder, after: string | null, limit: number) => {
      pages.push(limit);
      const list = listed(null)
        .map((bill) => billOrderKey(bill, order))
        .sort();
      const start = after === null ? 0 : list.findIndex((key) => key > after);
      const page = start < 0 ? [] : list.slice(start, start + limit);
      source.keysListed += page.length;
      return Promise.resolve({
        ids: page.map(billIdOfKey),
        last: page.length < limit ? null : (page[page.length - 1] ?? null),
      });
    },
    billIds: (criterion: Parameters<DeckSource['billIds']>[0]) =>
      Promise.resolve(listed(criterion).map((bill) => bill.id)),
    bills: (wanted: readonly string[]) => {
      read.push(...wanted);
      return Promise.resolve(wanted.map((id) => byId.get(id)));
    },
    decidedIds: (includeLater: boolean) =>
      Promise.resolve([...decidedIds(decisions, includeLater)]),
    decisions: () => Promise.resolve([...decisions]),
    datasetCount: () => Promise.resolve(datasets),
  };
  return source;
}

const decision = (billId: string, kind: Decision['decision']): Decision => ({
  billId,
  decision: kind,
  decidedAt: '2025-01-15T12:00:00.000Z',
});

const bills = (count: number, extra: (n: number) => Partial<StoredBill> = () => ({})) =>
  Array.from({ length: count }, (_, index) => ({ ...storedBill(index + 1), ...extra(index + 1) }));

const ids = (page: { cards: StoredBill[] }) => page.cards.map((bill) => bill.id);

describe('readDeckPage', () => {
  it('deals untriaged bills in number order and reads only the cards it returns', async () => {
    const source = arraySource(bills(1000), [
      decision(billIdOf(1), 'track'),
      decision(billIdOf(3), 'dismiss'),
    ]);
    // The same day's activity everywhere: the most recent first is H.R. 1, 2, 3 … by number.
    const page = await readDeckPage(source, filter(), 3);
    expect(ids(page)).toEqual([billIdOf(2), billIdOf(4), billIdOf(5)]);
    expect(page.empty).toBeNull();
    // Decided bills are dropped by key, never read.
    expect(source.read).toEqual(ids(page));
    expect(ids(await readDeckPage(source, filter({ order: 'number' }), 3))).toEqual(ids(page));
  });

  it('deals the most recently active bills first, same-day bills by number, undated last', async () => {
    const on = (date: string | null) =>
      date === null ? [] : [{ date, text: 'Reported.', chamber: 'lower' as const }];
    const all = bills(12, (n) => ({
      statusDate: n === 12 ? null : '2025-01-03',
      actions: on(n === 12 ? null : n % 3 === 0 ? '2025-06-01' : n === 11 ? '2025-08-15' : null),
    }));
    const source = arraySource(all, [decision(billIdOf(6), 'track')]);
    expect(ids(await readDeckPage(source, filter(), 4))).toEqual([11, 3, 9, 1].map(billIdOf));
    const last = await readDeckPage(source, filter(), 20);
    expect(ids(last).at(-1)).toBe(billIdOf(12));
    expect(ids(await readDeckPage(source, filter({ order: 'number' }), 4))).toEqual(
      [1, 2, 3, 4].map(billIdOf),
    );
  });

  it('deals the bills of one session of a jurisdiction only', async () => {
    const all = [
      ...bills(5, (n) => ({ session: '118', id: `us/118/hr-${n}` })),
      ...bills(5),
      ...bills(3, () => ({ jurisdiction: 'us-ak', session: '118', identifier: 'HB 1' })).map(
        (bill, at) => ({ ...bill, id: `us-ak/118/hb-${at + 1}` }),
      ),
    ];
    const source = arraySource(all);
    const session = filter({ session: 'us:118' });
    const page = await readDeckPage(source, session, 10);
    expect(page.cards.map((bill) => `${bill.jurisdiction} ${bill.session}`)).toEqual(
      Array.from({ length: 5 }, () => 'us 118'),
    );
    expect(source.read).toEqual(ids(page));
    expect(await matchingBillIds(source, session)).toHaveLength(5);
    // A jurisdiction the session is not of leaves nothing.
    expect(
      (await readDeckPage(source, filter({ session: 'us:118', jurisdiction: 'us-ak' }), 10)).cards,
    ).toEqual([]);
  });

  it('gets past a long run of decided bills in one page of keys', async () => {
    const all = bills(3000);
    const sorted = all
      .map((bill) => billOrderKey(bill, 'activity'))
      .sort()
      .map(billIdOfKey);
    const decided = sorted.slice(0, 2000).map((id) => decision(id, 'dismiss'));
    const source = arraySource(all, decided);
    const page = await readDeckPage(source, filter(), 2);
    expect(ids(page)).toEqual(sorted.slice(2000, 2002));
    // The first 2 undecided keys are among the first 2 + 2,000.
    expect(source.pages).toEqual([2002]);
    expect(source.read).toEqual(sorted.slice(2000, 2002));
  });

  it('walks a long list a page at a time, growing the pages', async () => {
    const all = bills(3000, (n) => ({ title: n === 2999 ? 'Needle act' : `Hay ${n}` }));
    const source = arraySource(all);
    const page = await readDeckPage(source, filter({ search: 'needle' }), 2);
    expect(ids(page)).toEqual([billIdOf(2999)]);
    expect(source.pages).toEqual([64, 128, 256, 512, 1024, 2048]);
  });

  it('checks indexed criteria on ids as it walks the order, reading only the cards', async () => {
    // By number, bills sort by jurisdiction name first: the enacted bills of New York come after
    // every enacted bill of California and of Congress.
    const all = ['us', 'us-ca', 'us-ny'].flatMap((jurisdiction) =>
      Array.from({ length: 2000 }, (_, index) => ({
        ...storedBill(index + 1),
        id: `${jurisdiction}/119/hr-${String(index + 1).padStart(5, '0')}`,
        jurisdiction,
        status: index % 4 === 3 ? ('enacted' as const) : ('introduced' as const),
      })),
    );
    const source = arraySource(all);
    const page = await readDeckPage(
      source,
      filter({ status: 'enacted', jurisdiction: 'us-ny', order: 'number' }),
      3,
    );
    expect(ids(page)).toEqual(['us-ny/119/hr-00004', 'us-ny/119/hr-00008', 'us-ny/119/hr-00012']);
    // Only the cards are read: the criteria are checked on ids.
    expect(source.read).toEqual(ids(page));
    // The count agrees with the filter on every bill.
    const matching = await matchingBillIds(
      source,
      filter({ status: 'enacted', jurisdiction: 'us-ny' }),
    );
    expect(matching.sort()).toEqual(
      all
        .filter((bill) => bill.status === 'enacted' && bill.jurisdiction === 'us-ny')
        .map((bill) => bill.id)
        .sort(),
    );
  });

  it('deals each bill every criterion holds once, in order', async () => {
    const all = bills(500, (n) => ({
      status: n % 2 === 0 ? 'enacted' : 'introduced',
      jurisdiction: n % 3 === 0 ? 'us-ca' : 'us',
      datasetIds: n % 5 === 0 ? ['d5'] : ['d1'],
    }));
    const source = arraySource(all, [decision(billIdOf(30), 'track')]);
    const wanted = all
      .filter(
        (bill) =>
          bill.status === 'enacted' &&
          bill.jurisdiction === 'us-ca' &&
          bill.datasetIds.includes('d5') &&
          bill.id !== billIdOf(30),
      )
      .map((bill) => billOrderKey(bill, 'activity'))
      .sort()
      .map(billIdOfKey);
    const narrow = filter({ status: 'enacted', jurisdiction: 'us-ca', datasetId: 'd5' });
    expect(ids(await readDeckPage(source, narrow, 100))).toEqual(wanted);
    expect(ids(await readDeckPage(source, narrow, 3))).toEqual(wanted.slice(0, 3));
  });

  it('leaves later bills out unless asked to include them', async () => {
    const source = arraySource(bills(2), [decision(billIdOf(1), 'later')]);
    expect(ids(await readDeckPage(source, filter(), 5))).toEqual([billIdOf(2)]);
    expect(ids(await readDeckPage(source, filter({ includeLater: true }), 5))).toEqual([
      billIdOf(1),
      billIdOf(2),
    ]);
  });

  it('narrows by indexes, then by what only the bill says', async () => {
    const all = bills(30, (n) => ({
      status: n % 2 === 0 ? 'enacted' : 'introduced',
      datasetIds: n % 3 === 0 ? ['d3'] : ['d1'],
      subjects: n === 12 ? ['Water'] : [],
    }));
    const source = arraySource(all);
    const page = await readDeckPage(source, filter({ status: 'enacted', datasetId: 'd3' }), 10);
    expect(ids(page).sort()).toEqual([6, 12, 18, 24, 30].map(billIdOf).sort());
    // One index gives the ids; only its bills are read to check the other criteria.
    expect(
      source.read.every((id) => all.find((bill) => bill.id === id)?.datasetIds.includes('d3')),
    ).toBe(true);
    const water = await readDeckPage(source, filter({ status: 'enacted', subject: 'water' }), 10);
    expect(ids(water)).toEqual([billIdOf(12)]);
  });

  it('scans past bills the filter turns away until it has enough cards', async () => {
    const all = bills(450, (n) => ({ title: n % 200 === 0 ? 'Needle act' : `Hay ${n}` }));
    const page = await readDeckPage(arraySource(all), filter({ search: 'needle' }), 5);
    expect(ids(page).sort()).toEqual([billIdOf(200), billIdOf(400)].sort());
  });

  it('says why the deck is empty', async () => {
    expect((await readDeckPage(arraySource([], [], 0), filter(), 3)).empty).toEqual({
      kind: 'no-datasets',
    });
    expect((await readDeckPage(arraySource([], [], 1), filter(), 3)).empty).toEqual({
      kind: 'no-bills',
    });
    const two = bills(2);
    expect((await readDeckPage(arraySource(two), filter({ status: 'enacted' }), 3)).empty).toEqual({
      kind: 'nothing-matches',
    });
    const triaged = arraySource(two, [
      decision(billIdOf(1), 'track'),
      decision(billIdOf(2), 'later'),
    ]);
    expect((await readDeckPage(triaged, filter(), 3)).empty).toEqual({
      kind: 'all-triaged',
      later: 1,
    });
    // Decided bills the filter does not match do not make it "all triaged".
    expect(
      (await readDeckPage(triaged, filter({ search: 'nowhere to be found' }), 3)).empty,
    ).toEqual({ kind: 'nothing-matches' });
  });
});

describe('the count', () => {
  it('is the matching bills less the decided ones', async () => {
    const all = bills(20, (n) => ({ title: n <= 5 ? `Rail ${n}` : `Road ${n}` }));
    const source = arraySource(all);
    const rail = await matchingBillIds(source, filter({ search: 'rail' }));
    expect(rail).toHaveLength(5);
    const decisions = [decision(billIdOf(1), 'track'), decision(billIdOf(2), 'later')];
    expect(deckCount(rail, decisions, false)).toBe(3);
    expect(deckCount(rail, decisions, true)).toBe(4);
    // Without a filter on the bills' contents, the ids come from the store's keys alone.
    const before = source.read.length;
    expect(await matchingBillIds(source, filter())).toHaveLength(20);
    expect(source.read).toHaveLength(before);
  });
});

describe('on a local store, with the triage commands', () => {
  async function page(store: LocalStore, changes: Partial<DeckFilter> = {}) {
    return store.read(['bills', 'decisions', 'datasets'], (tx) =>
      readDeckPage(deckSourceOfTransaction(tx), filter(changes), 2),
    );
  }

  it('takes out decided bills and gives them back on undo', async () => {
    const { store, context } = await storeWithBills(3);
    await store.write(['datasets'], (tx) =>
      tx.put('datasets', {
        id: 'dataset-1',
        name: 'One',
        origin: { kind: 'files', fileIds: [] },
        jurisdiction: null,
        session: null,
        format: null,
        billCount: 3,
        lastImportAt: null,
        lastJobId: null,
        state: 'ready',
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      }),
    );
    expect(ids(await page(store))).toEqual([billIdOf(1), billIdOf(2)]);
    await trackBill(context, billIdOf(1));
    await dismissBill(context, billIdOf(2));
    expect(ids(await page(store))).toEqual([billIdOf(3)]);
    await laterBill(context, billIdOf(3));
    expect(await page(store)).toEqual({ cards: [], empty: { kind: 'all-triaged', later: 1 } });
    expect(ids(await page(store, { includeLater: true, jurisdiction: 'us' }))).toEqual([
      billIdOf(3),
    ]);
    await undoLastDecision(context);
    await undoLastDecision(context);
    expect(ids(await page(store))).toEqual([billIdOf(2), billIdOf(3)]);
    expect(ids(await page(store, { session: 'us:119', order: 'number' }))).toEqual([
      billIdOf(2),
      billIdOf(3),
    ]);
    expect((await page(store, { session: 'us:118' })).empty).toEqual({
      kind: 'nothing-matches',
    });
  });

  it('reports no datasets on an empty store', async () => {
    const store = createMemoryLocalStore();
    testContext(store);
    expect((await page(store)).empty).toEqual({ kind: 'no-datasets' });
  });
});

describe('what the card and the live region say', () => {
  it('picks the primary sponsor and the latest dated action', () => {
    const facts = deckCardFacts(
      storedBill(5, {
        sponsors: [
          { name: 'A Cosponsor', role: 'sponsor', party: null, externalId: null },
          { name: 'Eleanor Marsh', role: 'primary', party: 'D', externalId: null },
        ],
        actions: [
          { date: '2024-01-01', text: 'Introduced', chamber: 'lower' },
          { date: '2024-02-01', text: 'Passed House', chamber: 'lower' },
          { date: null, text: 'Undated note', chamber: null },
        ],
        subjects: ['Water'],
      }),
    );
    expect(facts).toMatchObject({
      identifier: 'H.R. 5',
      primarySponsor: 'Eleanor Marsh (D)',
      latestAction: { date: '2024-02-01', text: 'Passed House' },
      subjects: ['Water'],
      status: 'introduced',
      statusDate: '2025-01-03',
    });
    expect(deckCardFacts(storedBill(6)).primarySponsor).toBeNull();
    expect(deckCardFacts(storedBill(6)).latestAction).toBeNull();
  });

  it('announces decisions and undos', () => {
    expect(decisionAnnouncement('track', 'S.J.Res. 1')).toBe('Tracked S.J.Res. 1');
    expect(decisionAnnouncement('dismiss', 'HB 5')).toBe('Dismissed HB 5');
    expect(decisionAnnouncement('later', 'HB 5')).toBe('Saved for later: HB 5');
    const name = (id: string) => id.toUpperCase();
    expect(undoAnnouncement({ kind: 'nothing-to-undo' }, name)).toBe('Nothing to undo.');
    expect(undoAnnouncement({ kind: 'undone', billId: 'x', decision: null }, name)).toBe(
      'Undone: X is back in the deck',
    );
    expect(undoAnnouncement({ kind: 'changed-since', billId: 'x' }, name)).toContain('X was');
    expect(undoHistoryHasSteps([{}])).toBe(true);
    expect(undoHistoryHasSteps([])).toBe(false);
    expect(undoHistoryHasSteps(undefined)).toBe(false);
  });
});
