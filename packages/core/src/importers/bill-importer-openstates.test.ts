import { describe, expect, it } from 'vitest';
import type { BillVote } from '../bills/bill.ts';
import { importBills } from './bill-import.ts';
import { importOpenStates, readOpenStatesRecords } from './bill-importer-openstates.ts';
import { parseListCell } from './openstates-csv-tables.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
  zipOf,
} from '../test-support/test-files.ts';

describe('Open States scraper output (hand-made)', () => {
  const result = importOpenStates(readSamples('openstates/scrape'));
  const bill = result.bills.find((candidate) => candidate.identifier === 'HB 12');

  it('reads a bill and joins the vote event from its logs folder', () => {
    expect(result.bills.map((candidate) => candidate.id)).toEqual([
      'us-nc/2023/hb-12',
      'us-nc/2023/sb-7',
    ]);
    expect(bill).toMatchObject({
      source: 'openstates',
      jurisdiction: 'us-nc',
      session: '2023',
      title: 'School Bus Safety Cameras',
      summary: 'Allows school districts to install stop-arm cameras on school buses.',
      introducedDate: '2023-02-01',
      status: 'enacted',
      statusDate: '2023-06-20',
      rawStatus: 'Signed by Gov. 6/20/2023',
      subjects: ['Education', 'Transportation'],
      url: 'https://www.ncleg.gov/BillLookUp/2023/H12',
    });
    expect(bill?.sponsors).toEqual([
      { name: 'Grace Okafor', role: 'primary', party: null, externalId: null },
    ]);
    expect(bill?.cosponsors).toEqual([
      { name: 'Henrik Solberg', role: 'cosponsor', party: null, externalId: null },
    ]);
    expect(bill?.actions.map((action) => [action.date, action.chamber])).toEqual([
      ['2023-02-01', 'lower'],
      ['2023-02-02', 'lower'],
      ['2023-03-01', 'lower'],
      ['2023-05-30', 'upper'],
      ['2023-06-12', 'executive'],
      ['2023-06-20', 'executive'],
    ]);
    // The two voters the event lists, named only by name (their voter_id is a pseudo-id).
    expect(bill?.votes).toEqual([
      {
        date: '2023-03-01',
        chamber: 'lower',
        motion: 'Third Reading',
        yes: 101,
        no: 12,
        other: 7,
        passed: true,
        members: [
          ['name:us-nc:lower:Okafor', 'yes'],
          ['name:us-nc:lower:Solberg', 'yes'],
        ],
      },
    ]);
    // The HTML link is preferred over the PDF of the same version.
    expect(bill?.texts).toEqual([
      {
        date: '2023-02-01',
        type: 'Filed',
        url: 'https://www.ncleg.gov/Sessions/2023/Bills/House/HTML/H12v0.html',
        mimeType: 'text/html',
        text: null,
      },
    ]);
  });

  it('maps a failed second reading to failed', () => {
    expect(result.bills.find((candidate) => candidate.identifier === 'SB 7')?.status).toBe(
      'failed',
    );
  });

  it('names the bill whose identifier has no number', () => {
    expect(result.errors).toEqual([
      {
        file: 'openstates/scrape/sessions/2023/bills/HB13/metadata.json',
        record: 'House Bill Thirteen',
        reason: 'unrecognised bill identifier "House Bill Thirteen"',
      },
    ]);
  });
});

describe('Open States status from actions', () => {
  it('keeps the stage reached when a cloture vote fails, however the scraper classifies it', () => {
    const bill = {
      identifier: 'HR 9901',
      title: 'A bill that passed the House and then failed cloture in the Senate.',
      legislative_session: '117',
      jurisdiction: { id: 'ocd-jurisdiction/country:us/government' },
      actions: [
        {
          date: '2021-06-08T04:00:00+00:00',
          description:
            'Cloture on the motion to proceed to the measure not invoked in Senate by Yea-Nay Vote. 49 - 48.',
          classification: ['failure'],
        },
        {
          date: '2021-05-20T04:00:00+00:00',
          description: 'Passed/agreed to in House: On passage Passed by recorded vote: 218 - 210.',
          classification: ['passage'],
          organization_id: '~{"classification": "lower"}',
        },
      ],
    };
    const [read] = importOpenStates([
      { name: 'metadata.json', bytes: encodeUtf8(JSON.stringify(bill)) },
    ]).bills;
    expect(read).toMatchObject({ status: 'passed-one-chamber', statusDate: '2021-05-20' });
  });
});

describe('Open States introduced date (hand-made, as Wyoming files bills)', () => {
  it('is the introduction, not the filing weeks before', () => {
    const [bill] = importOpenStates(readSamples('openstates/scrape-filing')).bills;
    expect(bill).toMatchObject({ id: 'us-wy/2026/sf-12', introducedDate: '2026-02-10' });
  });
});

describe('Open States API v3 (hand-made)', () => {
  const result = importOpenStates(readSamples('openstates/api-v3'));
  const byIdentifier = new Map(result.bills.map((bill) => [bill.identifier, bill]));

  it('reads a results page with its included actions, sponsorships, votes and versions', () => {
    const bill = byIdentifier.get('HB 68');
    expect(bill).toMatchObject({
      id: 'us-oh/135/hb-68',
      sourceId: 'ocd-bill/0b6c2a6e-1111-4c1a-9d7e-3f3f3f3f3f01',
      title: 'Regards community solar pilot program',
      summary:
        'To create a community solar pilot program in the territory of each electric distribution utility.',
      introducedDate: '2023-03-08',
      status: 'passed-one-chamber',
      statusDate: '2023-05-31',
      url: 'https://openstates.org/oh/bills/135/HB68/',
    });
    expect(bill?.sponsors).toEqual([
      {
        name: 'Jamal Whitcombe',
        role: 'primary',
        party: 'Republican',
        externalId: 'ocd-person/bbbb0000-0000-0000-0000-000000000001',
      },
    ]);
    expect(bill?.cosponsors[0]?.party).toBe('Democratic');
    expect(bill?.actions).toHaveLength(3);
    expect(bill?.votes).toEqual([
      {
        date: '2023-05-31',
        chamber: 'lower',
        motion: 'Passed',
        yes: 64,
        no: 31,
        other: 2,
        passed: true,
      },
    ]);
    expect(bill?.texts[0]?.mimeType).toBe('application/pdf');
  });

  it('reads a bill fetched without includes', () => {
    expect(byIdentifier.get('SB 1')).toMatchObject({
      status: 'introduced',
      introducedDate: '2023-01-10',
      rawStatus: 'Introduced',
      actions: [],
      sponsors: [],
    });
  });

  it('reads a single bill object and its veto', () => {
    expect(byIdentifier.get('SB 99')).toMatchObject({ status: 'vetoed', statusDate: '2023-06-30' });
  });

  it('names the result with an empty title', () => {
    expect(result.errors).toEqual([
      { file: 'openstates/api-v3/bills-page.json', record: 'HB 3', reason: 'missing title' },
    ]);
  });
});

describe('Open States bulk CSV (hand-made)', () => {
  const files = readSamples('openstates/csv');
  const result = importBills([zipOf('vt_2023-2024_csv.zip', files, 'openstates/csv/')]);
  const bill = result.bills.find((candidate) => candidate.identifier === 'H 42');

  it('rebuilds bills from the tables and joins them by bill id', () => {
    expect(result.format).toBe('openstates');
    expect(result.bills.map((candidate) => candidate.id)).toEqual([
      'us-vt/2023-2024/h-42',
      'us-vt/2023-2024/s-9',
    ]);
    expect(bill).toMatchObject({
      sourceId: 'ocd-bill/5a1e0000-0000-4000-8000-000000000001',
      jurisdiction: 'us-vt',
      title: 'An act relating to maple syrup grading, labeling and "pure" claims',
      summary:
        'This bill proposes to set grading standards for maple syrup.\nIt also restricts the word "pure" on labels.',
      subjects: ['Agriculture', 'Food safety'],
      introducedDate: '2023-01-19',
      status: 'enacted',
      statusDate: '2023-05-11',
      url: 'https://legislature.vermont.gov/bill/status/2024/H.42',
    });
    // organizations.csv turns organization ids into chambers.
    expect(bill?.actions.map((action) => action.chamber)).toEqual([
      'lower',
      'lower',
      'upper',
      'executive',
    ]);
    expect(bill?.sponsors).toEqual([
      {
        name: 'Wren Abernathy',
        role: 'primary',
        party: null,
        externalId: 'ocd-person/dddd0000-0000-0000-0000-000000000001',
      },
    ]);
    // vote_people.csv lists a member's vote, by name only.
    expect(bill?.votes).toEqual([
      {
        date: '2023-03-16',
        chamber: 'lower',
        motion: 'Shall the bill pass?',
        yes: 131,
        no: 11,
        other: 8,
        passed: true,
        members: [['name:us-vt:lower:Abernathy', 'yes']],
      },
    ]);
    expect(result.members).toEqual([
      {
        id: 'name:us-vt:lower:Abernathy',
        name: 'Abernathy',
        party: null,
        district: null,
        role: null,
      },
    ]);
    expect(bill?.texts[0]?.url).toBe(
      'https://legislature.vermont.gov/Documents/2024/Docs/BILLS/H-0042/H-0042%20As%20Introduced.pdf',
    );
    const senate = result.bills.find((candidate) => candidate.identifier === 'S 9');
    expect(senate).toMatchObject({
      status: 'in-committee',
      sponsors: [{ name: 'Committee on Government Operations', role: 'primary' }],
    });
  });

  it('names the bad rows by file and line', () => {
    expect(result.errors).toEqual([
      {
        file: 'vt_2023-2024_csv.zip/VT/2023-2024/VT_2023-2024_bills.csv',
        record: 'line 5',
        reason: 'has 3 cells where the header has 8',
      },
      {
        file: 'vt_2023-2024_csv.zip/VT/2023-2024/VT_2023-2024_bills.csv',
        record: 'line 4 (H 43)',
        reason: 'missing title',
      },
    ]);
  });

  it('reads Python and Postgres list cells', () => {
    expect(parseListCell("['passage', 'reading-3']")).toEqual(['passage', 'reading-3']);
    expect(parseListCell('["it\'s", "a, b"]')).toEqual(["it's", 'a, b']);
    expect(parseListCell('{passage,"reading 3"}')).toEqual(['passage', 'reading 3']);
    expect(parseListCell('[]')).toEqual([]);
    expect(parseListCell('passage')).toEqual(['passage']);
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)(
  'Open States real files (../shared/fixtures/openstates-scrape)',
  () => {
    const result = fixturesRoot === null ? null : importBills(readFixtures('openstates-scrape'));
    const byId = new Map(result?.bills.map((bill) => [bill.id, bill]));

    it('imports all 153 bills and joins all 15 vote events, without errors', () => {
      expect(result?.format).toBe('openstates');
      expect(result?.bills).toHaveLength(153);
      expect(result?.bills.filter((bill) => bill.type === 'hconres')).toHaveLength(114);
      expect(result?.bills.filter((bill) => bill.type === 'sconres')).toHaveLength(39);
      expect(result?.bills.reduce((sum, bill) => sum + bill.votes.length, 0)).toBe(15);
      expect(result?.errors).toEqual([]);
    });

    it('reads S.Con.Res. 1 as in the file', () => {
      const bill = byId.get('us/119/sconres-1');
      expect(bill).toMatchObject({
        identifier: 'S.Con.Res. 1',
        title:
          'A concurrent resolution extending the life of the Joint Congressional Committee on Inaugural Ceremonies.',
        introducedDate: '2025-01-03',
        status: 'passed-both',
        url: 'https://congress.gov/bill/119th-congress/senate-resolution/1',
      });
      expect(bill?.sponsors).toEqual([
        { name: 'John Thune', role: 'primary', party: null, externalId: 'T000250' },
      ]);
      expect(bill?.actions).toHaveLength(9);
      expect(bill?.texts.map((text) => text.type)).toEqual([
        'Engrossed in Senate',
        'Agreed to Senate',
        'Enrolled Bill',
      ]);
    });

    it('reads the two roll calls of H.Con.Res. 14 and the failed vote of H.Con.Res. 84', () => {
      const budget = byId.get('us/119/hconres-14');
      expect(budget?.sponsors[0]).toMatchObject({
        name: 'Jodey C. Arrington',
        externalId: 'A000375',
      });
      // Their members are read in 'reads each vote event's members' below.
      const totals = (votes: readonly BillVote[] | undefined) =>
        votes?.map(({ members: _members, ...rest }) => rest);
      expect(totals(budget?.votes)).toEqual([
        {
          date: '2025-02-26',
          chamber: 'lower',
          motion: 'On Agreeing to the Resolution, as Amended',
          yes: 217,
          no: 215,
          other: 1,
          passed: true,
        },
        {
          date: '2025-04-10',
          chamber: 'lower',
          motion: 'On Motion to Concur in the Senate Amendment',
          yes: 216,
          no: 214,
          other: 3,
          passed: true,
        },
      ]);
      expect(totals(byId.get('us/119/hconres-84')?.votes)).toEqual([
        {
          date: '2026-06-04',
          chamber: 'lower',
          motion: 'On Agreeing to the Resolution',
          yes: 92,
          no: 324,
          other: 14,
          passed: false,
        },
      ]);
    });

    it("orders the US scraper's newest-first actions oldest first, even all on one day", () => {
      // H.Con.Res. 69: "Submitted in House" and the referral, both on 2026-01-08, listed newest
      // first as GovInfo lists them.
      const bill = byId.get('us/119/hconres-69');
      expect(bill?.actions.map((action) => action.text)).toEqual([
        'Submitted in House',
        'Referred to the House Committee on Oversight and Government Reform.',
      ]);
      expect(bill?.rawStatus).toBe(
        'Referred to the House Committee on Oversight and Government Reform.',
      );
      // H.Con.Res. 14 on 2025-04-10: by the time each timed action carries; the date-only
      // "Resolving differences" (midnight Eastern in UTC) keeps its place in the source's list.
      const budget = byId.get('us/119/hconres-14');
      expect(budget?.actions.at(-1)?.text).toBe(
        'Star Print ordered on the reported concurrent resolution.',
      );
      expect(
        budget?.actions
          .filter((action) => action.date === '2025-04-10')
          .map((action) => action.text.slice(0, 40)),
      ).toEqual([
        'Pursuant to clause 1(c) of rule XIX, the',
        'Resolving differences -- House actions: ',
        'On motion that the House agree to the Se',
        'Motion to reconsider laid on the table A',
      ]);
    });

    it('keeps other_titles as alternative titles', () => {
      expect(byId.get('us/119/hconres-35')).toMatchObject({
        title: 'Exposing Congressional Drug Abuse Act',
        alternativeTitles: [
          'Requiring Members of the House of Representatives and the Senate to participate in random drug testing.',
        ],
      });
    });

    it('reads a date-only action (midnight Eastern in UTC) as untimed: H.Con.Res. 89 ends in the Senate', () => {
      const bill = byId.get('us/119/hconres-89');
      expect(bill?.actions.slice(-2).map((action) => action.text)).toEqual([
        'Motion to reconsider laid on the table Agreed to without objection.',
        'Received in the Senate and referred to the Committee on Foreign Relations.',
      ]);
      expect(bill?.actions.slice(0, 2).map((action) => action.text)).toEqual([
        'Submitted in House',
        'Referred to the House Committee on Foreign Affairs.',
      ]);
    });

    it('streams one outcome per bill', () => {
      const outcomes = [
        ...readOpenStatesRecords(readFixtures('openstates-scrape/sessions/119/bills/SCONRES1')),
      ];
      expect(outcomes).toHaveLength(1);
    });
  },
);

warnIfFixturesAbsent();
