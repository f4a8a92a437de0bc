import { describe, expect, it } from 'vitest';
import type { DeckSource } from './bill-deck.ts';
import {
  deckCardFacts,
  deckCount,
  decidedIds,
  deckSourceOfTransaction,
  matchingBillIds,
  readDeckPage,
  undoHistoryHasSteps,
} from './bill-deck.ts';
import {
  ANNOUNCED_TITLE_MAX,
  deckAnnouncement,
  decisionAnnouncement,
  shortTitle,
  undoAnnouncement,
} from './deck-announcements.ts';
import type { DeckFilter } from './bill-deck-filter.ts';
import { compileDeckFilter, emptyDeckFilter } from './bill-deck-filter.ts';
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
  const ids = [...byId.keys()].sort();
  const read: string[] = [];
  const listed = (criterion: Parameters<DeckSource['billIds']>[0]) =>
    criterion === null
      ? ids
      : ids.filter((id) => {
          const bill = byId.get(id);
          if (bill === undefined) return false;
          if (criterion.index === 'datasetIds') return bill.datasetIds.includes(criterion.value);
          if (criterion.index === 'idPrefix') return id.startsWith(criterion.value);
          return bill[criterion.index] === criterion.value;
        });
  const pages: number[] = [];
  const source = {
    read,
    pages,
    /** Ids handed out by pages: what a store would have read of its indexes. */
    keysListed: 0,
    billIdPage: (
      criterion: Parameters<DeckSource['billIds']>[0],
      atLeast: string | null,
      limit: number,
    ) => {
      pages.push(limit);
      const list = listed(criterion);
      const start = atLeast === null ? 0 : list.findIndex((id) => id >= atLeast);
      const page = start < 0 ? [] : list.slice(start, start + limit);
      source.keysListed += page.length;
      return Promise.resolve(page);
    },
    billIds: (criterion: Parameters<DeckSource['billIds']>[0]) =>
      Promise.resolve(listed(criterion)),
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
  it('deals untriaged bills in id order and reads only the cards it returns', async () => {
    const source = arraySource(bills(1000), [
      decision(billIdOf(1), 'track'),
      decision(billIdOf(10), 'dismiss'),
    ]);
    const page = await readDeckPage(source, filter(), 3);
    expect(ids(page)).toEqual([billIdOf(100), billIdOf(1000), billIdOf(101)]);
    expect(page.empty).toBeNull();
    // Decided bills are dropped by id, never read.
    expect(source.read).toEqual(ids(page));
  });

  it('gets past a long run of decided bills in one page of ids', async () => {
    const all = bills(3000);
    const sorted = all.map((bill) => bill.id).sort();
    const decided = sorted.slice(0, 2000).map((id) => decision(id, 'dismiss'));
    const source = arraySource(all, decided);
    const page = await readDeckPage(source, filter(), 2);
    expect(ids(page)).toEqual(sorted.slice(2000, 2002));
    // The first 2 undecided ids are among the first 2 + 2,000.
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

  it('joins indexed criteria by seeking, reading neither the ids nor the bills between', async () => {
    // Ids sort by jurisdiction first, as real ones do: the enacted bills of 'us-ny' come after
    // every enacted bill of 'us' and 'us-ca'.
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
      filter({ status: 'enacted', jurisdiction: 'us-ny' }),
      3,
    );
    expect(ids(page)).toEqual(['us-ny/119/hr-00004', 'us-ny/119/hr-00008', 'us-ny/119/hr-00012']);
    expect(source.read).toEqual(ids(page));
    // A few small pages, not the 1,000 enacted ids before 'us-ny'.
    expect(source.keysListed).toBeLessThan(400);
    // The count joins the same way and agrees with the filter on every bill.
    const matching = await matchingBillIds(
      source,
      filter({ status: 'enacted', jurisdiction: 'us-ny' }),
    );
    expect(matching).toEqual(
      all
        .filter((bill) => bill.status === 'enacted' && bill.jurisdiction === 'us-ny')
        .map((bill) => bill.id),
    );
  });

  it("deals one session's bills from the id range they share, reading no other session's", async () => {
    const all = ['115', '116', '117'].flatMap((session) =>
      Array.from({ length: 300 }, (_, index) => {
        const bill = storedBill(index + 1, { session });
        return { ...bill, id: bill.id.replace('/119/', `/${session}/`) };
      }),
    );
    expect(all[300]?.id).toBe('us/116/hr-1');
    const source = arraySource(all, [decision('us/116/hr-1', 'track')]);
    const page = await readDeckPage(source, filter({ session: 'us:116' }), 3);
    expect(ids(page)).toEqual(['us/116/hr-10', 'us/116/hr-100', 'us/116/hr-101']);
    expect(source.read).toEqual(ids(page));
    const matching = await matchingBillIds(source, filter({ session: 'us:116' }));
    expect(matching).toHaveLength(300);
    expect(matching.every((id) => id.startsWith('us/116/'))).toBe(true);
    const introduced = await matchingBillIds(
      source,
      filter({ session: 'us:116', status: 'introduced' }),
    );
    expect(deckCount(introduced, [decision('us/116/hr-1', 'track')], false)).toBe(299);
  });

  it('joins lists whose ids interleave, dealing each shared id once, in id order', async () => {
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
      .map((bill) => bill.id)
      .sort();
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
    // The seat where the source gives it, as bill details say it.
    const seated = storedBill(7, {
      sponsors: [
        { name: 'Ted Cruz', role: 'primary', party: 'R', district: 'TX', externalId: 'C001098' },
      ],
    });
    expect(deckCardFacts(seated).primarySponsor).toBe('Ted Cruz (R, TX)');
    expect(deckCardFacts(storedBill(6)).latestAction).toBeNull();
  });

  it('announces what is next and how many are left, in one sentence each', () => {
    const next = { identifier: 'HB 3', title: 'Rail Crossing Safety Act' };
    expect(deckAnnouncement('Tracked HB 2', next, 5)).toBe(
      'Tracked HB 2. Next: HB 3, Rail Crossing Safety Act. 5 bills left.',
    );
    expect(deckAnnouncement('Saved for later: HB 2', next, 1)).toBe(
      'Saved for later: HB 2. Next: HB 3, Rail Crossing Safety Act. 1 bill left.',
    );
    expect(deckAnnouncement('Tracked HB 2', null, 0)).toBe('Tracked HB 2. No bills left.');
    // The bill brought back is on top: it is not named twice.
    expect(deckAnnouncement('Brought back HB 2', undefined, 6)).toBe(
      'Brought back HB 2. 6 bills left.',
    );
    expect(deckAnnouncement('Dismissed HB 2', next, 50_000)).toBe(
      'Dismissed HB 2. Next: HB 3, Rail Crossing Safety Act. 50,000 bills left.',
    );
    // A long title is cut where a word ends; one long word is cut where it must be.
    const long = `${'Relating to the appropriation of funds '.repeat(4)}end`;
    const cut = shortTitle(long);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(ANNOUNCED_TITLE_MAX + 1);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(long.charAt(cut.length - 1)).toBe(' ');
    expect(shortTitle('x'.repeat(300))).toBe(`${'x'.repeat(ANNOUNCED_TITLE_MAX)}…`);
    expect(shortTitle('  Water   Meter Act ')).toBe('Water Meter Act');
  });

  it('announces decisions and undos', () => {
    expect(decisionAnnouncement('track', 'S.J.Res. 1')).toBe('Tracked S.J.Res. 1');
    expect(decisionAnnouncement('dismiss', 'HB 5')).toBe('Dismissed HB 5');
    expect(decisionAnnouncement('later', 'HB 5')).toBe('Saved for later: HB 5');
    const name = (id: string) => id.toUpperCase();
    expect(undoAnnouncement({ kind: 'nothing-to-undo' }, name)).toBe('Nothing to undo.');
    expect(undoAnnouncement({ kind: 'undone', billId: 'x', decision: null }, name)).toBe(
      'Brought back X',
    );
    expect(
      undoAnnouncement(
        {
          kind: 'undone',
          billId: 'x',
          decision: { billId: 'x', decision: 'later', decidedAt: '2025-01-01T00:00:00.000Z' },
        },
        name,
      ),
    ).toBe('Undone: X is saved for later again');
    expect(undoAnnouncement({ kind: 'changed-since', billId: 'x' }, name)).toContain('X was');
    expect(undoHistoryHasSteps([{}])).toBe(true);
    expect(undoHistoryHasSteps([])).toBe(false);
    expect(undoHistoryHasSteps(undefined)).toBe(false);
  });
});
