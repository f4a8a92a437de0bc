import { describe, expect, it } from 'vitest';
import type { BillListQuery } from './bill-list-query.ts';
import {
  billMarksOf,
  BillCatalog,
  billListSearch,
  defaultBillListQuery,
  hasBillListFilters,
  isoWeekMonday,
  parseBillListQuery,
} from './bill-list-query.ts';
import { BillSearchIndex } from './bill-search-index.ts';
import { sessionOfKey } from '../bills/bill-naming.ts';
import { sponsorKey } from './bill-sponsor-filter.ts';
import { storedBill } from '../test-support/bill-command-harness.ts';

describe('the list query in the URL', () => {
  it('reads every filter and writes it back the same', () => {
    const search =
      'q=clean+water&status=enacted&tag=t1&position=oppose&dataset=d1&jurisdiction=us&session=us%3A116&sort=identifier&all=1&decision=later&week=2019-01-07&sponsor=id%3AK000384';
    const query = parseBillListQuery(search);
    expect(query).toEqual({
      q: 'clean water',
      status: 'enacted',
      tagId: 't1',
      position: 'oppose',
      datasetId: 'd1',
      jurisdiction: 'us',
      session: 'us:116',
      sort: 'identifier',
      all: true,
      decision: 'later',
      week: '2019-01-07',
      sponsor: 'id:K000384',
    });
    expect(parseBillListQuery(billListSearch(query))).toEqual(query);
    expect(hasBillListFilters(query)).toBe(true);
  });

  it('leaves out what it does not know, and defaults out of the URL', () => {
    const query = parseBillListQuery('?status=bogus&sort=random&position=maybe&week=2019-02-30');
    expect(query).toEqual(defaultBillListQuery);
    expect(billListSearch(query)).toBe('');
    expect(hasBillListFilters(query)).toBe(false);
  });

  it('takes any day of a week for its Monday', () => {
    expect(isoWeekMonday('2019-01-07')).toBe('2019-01-07');
    expect(isoWeekMonday('2019-01-13')).toBe('2019-01-07');
    expect(isoWeekMonday('2019-01-01')).toBe('2018-12-31');
    expect(parseBillListQuery('week=2019-01-10').week).toBe('2019-01-07');
  });
});

function catalogOf() {
  const catalog = new BillCatalog(new BillSearchIndex());
  const a = storedBill(2, {
    title: 'Clean water act',
    status: 'enacted',
    introducedDate: '2025-01-05',
    actions: [
      { date: '2025-01-05', text: 'Introduced in House', chamber: 'lower' },
      { date: '2025-03-04', text: 'Became public law', chamber: 'executive' },
    ],
  });
  const b = storedBill(10, {
    title: 'Housing for all',
    introducedDate: '2025-02-01',
    actions: [{ date: '2025-02-01', text: 'Introduced in House', chamber: 'lower' }],
  });
  const c = {
    ...storedBill(3, { title: 'Water rights', introducedDate: null }),
    datasetIds: ['d2'],
  };
  for (const bill of [a, b, c]) catalog.put(bill, bill.changeHash);
  catalog.setMarks(
    billMarksOf(
      [
        { billId: a.id, decision: 'track', decidedAt: at },
        { billId: b.id, decision: 'track', decidedAt: at },
        { billId: c.id, decision: 'later', decidedAt: at },
      ],
      [{ id: 't1', billId: b.id, tagId: 'housing', createdAt: at }],
      [{ billId: a.id, position: 'support', updatedAt: at }],
    ),
  );
  return { catalog, a, b, c };
}

const at = '2025-06-01T00:00:00.000Z';

function ids(catalog: BillCatalog, query: Partial<BillListQuery>): string[] {
  return [...catalog.query({ ...defaultBillListQuery, ...query })].map(
    (doc) => catalog.billId(doc) ?? '?',
  );
}

describe('BillCatalog', () => {
  it('lists tracked bills, or all of them, newest action first', () => {
    const { catalog, a, b, c } = catalogOf();
    expect(ids(catalog, {})).toEqual([a.id, b.id]);
    expect(ids(catalog, { all: true })).toEqual([a.id, b.id, c.id]);
  });

  it('lists the bills of one triage list, whether or not all bills are shown', () => {
    const { catalog, a, b, c } = catalogOf();
    const d = storedBill(20, { title: 'Not looked at', introducedDate: null });
    catalog.put(d, d.changeHash);
    expect(ids(catalog, { decision: 'track' })).toEqual([a.id, b.id]);
    expect(ids(catalog, { decision: 'later' })).toEqual([c.id]);
    expect(ids(catalog, { decision: 'later', all: true })).toEqual([c.id]);
    expect(ids(catalog, { decision: 'dismiss' })).toEqual([]);
    expect(ids(catalog, { decision: 'undecided' })).toEqual([d.id]);
    expect(ids(catalog, { decision: 'undecided', q: 'water' })).toEqual([]);
    expect(catalog.decisionCounts()).toEqual({ track: 2, later: 1, dismiss: 0, undecided: 1 });
  });

  it('gives a row the latest action date and the status date apart, never one for the other', () => {
    const { catalog, a, c } = catalogOf();
    const rows = [...catalog.query({ ...defaultBillListQuery, all: true })].map((doc) =>
      catalog.row(doc),
    );
    expect(rows.find((row) => row?.id === a.id)).toMatchObject({
      statusDate: '2025-01-03',
      latestActionDate: '2025-03-04',
    });
    // No action: no latest action date, whatever the status date.
    expect(rows.find((row) => row?.id === c.id)).toMatchObject({
      statusDate: '2025-01-03',
      latestActionDate: null,
    });
  });

  it('sorts a bill with no dated action among the others by its status date', () => {
    const { catalog, a, b, c } = catalogOf();
    const quiet = { ...storedBill(30, { title: 'No actions' }), statusDate: '2025-02-15' };
    const undated = { ...storedBill(31, { title: 'No dates' }), statusDate: null };
    for (const bill of [quiet, undated]) catalog.put(bill, bill.changeHash);
    expect(ids(catalog, { all: true })).toEqual([a.id, quiet.id, b.id, c.id, undated.id]);
  });

  it('sorts by introduction or by identifier in numeric order', () => {
    const { catalog, a, b, c } = catalogOf();
    expect(ids(catalog, { all: true, sort: 'introduced' })).toEqual([b.id, a.id, c.id]);
    expect(ids(catalog, { all: true, sort: 'identifier' })).toEqual([a.id, c.id, b.id]);
    expect(ids(catalog, { all: true, sort: 'identifier', q: 'water' })).toEqual([a.id, c.id]);
  });

  it('sorts by number the way Congress lists its measures: bills before resolutions, 2 before 10', () => {
    const catalog = new BillCatalog(new BillSearchIndex());
    const identifiers = ['H.Con.Res. 10', 'H.Con.Res. 2', 'H.R. 100', 'S. 1', 'H.R. 9', 'H.Res. 1'];
    for (const [place, identifier] of identifiers.entries()) {
      const bill = storedBill(place, { identifier });
      catalog.put(bill, bill.changeHash);
    }
    const older = storedBill(99, { identifier: 'H.R. 1', session: '99' });
    catalog.put(older, older.changeHash);
    const rows = catalog.query({ ...defaultBillListQuery, all: true, sort: 'identifier' });
    expect([...rows].map((doc) => catalog.row(doc)?.identifier)).toEqual([
      'H.R. 1',
      'H.R. 9',
      'H.R. 100',
      'S. 1',
      'H.Con.Res. 2',
      'H.Con.Res. 10',
      'H.Res. 1',
    ]);
    expect(catalog.row(rows[0] ?? -1)?.session).toBe('99');
  });

  it('filters by status, tag, position, dataset, jurisdiction and week', () => {
    const { catalog, a, b, c } = catalogOf();
    expect(ids(catalog, { all: true, status: 'enacted' })).toEqual([a.id]);
    expect(ids(catalog, { all: true, tagId: 'housing' })).toEqual([b.id]);
    expect(ids(catalog, { all: true, position: 'support' })).toEqual([a.id]);
    expect(ids(catalog, { all: true, position: 'none' })).toEqual([b.id, c.id]);
    expect(ids(catalog, { all: true, datasetId: 'd2' })).toEqual([c.id]);
    expect(ids(catalog, { all: true, jurisdiction: 'us-ca' })).toEqual([]);
    expect(ids(catalog, { all: true, week: '2025-03-03' })).toEqual([a.id]);
    expect(ids(catalog, { all: true, week: '2025-03-10' })).toEqual([]);
  });

  it('searches, and replaces a changed bill without a rebuild', () => {
    const { catalog, a, c } = catalogOf();
    expect(ids(catalog, { all: true, q: 'public' })).toEqual([a.id]);
    const changed = storedBill(3, { title: 'Water and public lands', introducedDate: null });
    expect(catalog.put(c, c.changeHash)).toBe('unchanged');
    expect(catalog.put(changed, changed.changeHash)).toBe('updated');
    expect(ids(catalog, { all: true, q: 'public' })).toEqual([a.id, changed.id]);
    expect(catalog.remove(a.id)).toBe(true);
    expect(ids(catalog, { all: true, q: 'public' })).toEqual([changed.id]);
    expect(catalog.size).toBe(2);
  });

  it('shows rows with the user’s marks', () => {
    const { catalog, b } = catalogOf();
    const [doc] = catalog.query({ ...defaultBillListQuery, tagId: 'housing' });
    expect(catalog.row(doc ?? -1)).toMatchObject({
      id: b.id,
      identifier: 'H.R. 10',
      tagIds: ['housing'],
      position: null,
      tracked: true,
      latestActionDate: '2025-02-01',
    });
    expect(catalog.jurisdictions()).toEqual(['us']);
  });

  it('filters by a session of a jurisdiction, and lists the sessions held, newest first', () => {
    const { catalog, a, b, c } = catalogOf();
    const older = { ...storedBill(4, { title: 'Older water' }), session: '118' };
    const alaska = {
      ...storedBill(5, { title: 'Alaska water' }),
      jurisdiction: 'us-ak',
      session: '119',
    };
    for (const bill of [older, alaska]) catalog.put(bill, bill.changeHash);
    expect(ids(catalog, { all: true, session: 'us:119' }).sort()).toEqual(
      [a.id, b.id, c.id].sort(),
    );
    expect(ids(catalog, { all: true, session: 'us:118' })).toEqual([older.id]);
    // The same session name in another jurisdiction is another session.
    expect(ids(catalog, { all: true, session: 'us-ak:119' })).toEqual([alaska.id]);
    expect(ids(catalog, { all: true, session: 'us:1' })).toEqual([]);
    expect(catalog.sessions()).toEqual(['us:119', 'us:118', 'us-ak:119']);
    expect(sessionOfKey('us-ak:2025-2026 Regular Session')).toEqual({
      jurisdiction: 'us-ak',
      session: '2025-2026 Regular Session',
    });
  });

  it('lists the bills a person sponsors or cosponsors, by the source’s id or else the name', () => {
    const catalog = new BillCatalog(new BillSearchIndex());
    const kaine = {
      name: 'Tim Kaine',
      role: 'primary',
      party: 'D',
      externalId: 'K000384',
    } as const;
    const paul = {
      name: 'Rand Paul',
      role: 'cosponsor',
      party: 'R',
      externalId: 'P000603',
    } as const;
    const local = (name: string) =>
      ({ name, role: 'sponsor', party: null, externalId: null }) as const;
    const sponsored = storedBill(1, { sponsors: [kaine], cosponsors: [paul] });
    const cosponsored = storedBill(2, {
      sponsors: [{ ...paul, role: 'primary' }],
      cosponsors: [{ ...kaine, role: 'cosponsor', name: 'Kaine, Tim' }],
    });
    const other = storedBill(3, { sponsors: [paul] });
    // No id: known by the name, whatever its case, accents or spacing.
    const byName = storedBill(4, { sponsors: [local('José  Núñez')] });
    const sameName = storedBill(5, { cosponsors: [local('jose nunez')] });
    for (const bill of [sponsored, cosponsored, other, byName, sameName]) {
      catalog.put(bill, bill.changeHash);
    }
    catalog.setMarks(
      billMarksOf(
        [
          { billId: sponsored.id, decision: 'track', decidedAt: at },
          { billId: cosponsored.id, decision: 'dismiss', decidedAt: at },
        ],
        [],
        [],
      ),
    );
    const bySponsor = (sponsor: string, query: Partial<BillListQuery> = { all: true }) =>
      ids(catalog, { sort: 'identifier', ...query, sponsor }).sort();

    const kaineKey = sponsorKey(kaine);
    expect(kaineKey).toBe('id:K000384');
    expect(bySponsor(kaineKey)).toEqual([sponsored.id, cosponsored.id].sort());
    expect(bySponsor(sponsorKey(paul))).toEqual([sponsored.id, cosponsored.id, other.id].sort());
    const nunez = sponsorKey(local('José  Núñez'));
    expect(nunez).toBe('name:jose nunez');
    expect(bySponsor(nunez)).toEqual([byName.id, sameName.id].sort());
    // The chip names the person as a bill spells them.
    expect(catalog.sponsorName(kaineKey)).toBe('Tim Kaine');
    expect(catalog.sponsorName(nunez)).toBe('José Núñez');
    expect(catalog.sponsorName('id:nobody')).toBeNull();
    expect(bySponsor('id:nobody')).toEqual([]);

    // With the tracked / all switch and the triage lists.
    expect(bySponsor(kaineKey, {})).toEqual([sponsored.id]);
    expect(bySponsor(kaineKey, { decision: 'dismiss' })).toEqual([cosponsored.id]);
    expect(bySponsor(kaineKey, { decision: 'undecided' })).toEqual([]);
    expect(bySponsor(sponsorKey(paul), { decision: 'undecided', all: true })).toEqual([other.id]);
    // With a search.
    expect(bySponsor(kaineKey, { all: true, q: 'number 2' })).toEqual([cosponsored.id]);

    // A bill re-imported without the person leaves the list; "Clear filters" drops the filter.
    const withoutKaine = storedBill(1, { sponsors: [paul] });
    catalog.put(withoutKaine, withoutKaine.changeHash);
    expect(bySponsor(kaineKey)).toEqual([cosponsored.id]);
    expect(hasBillListFilters({ ...defaultBillListQuery, sponsor: kaineKey })).toBe(true);
  });
});
