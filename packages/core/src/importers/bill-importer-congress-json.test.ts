import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { readDatasetRecords } from '../import-jobs/dataset-import-records.ts';
import type { ImportFile } from './bill-import-record.ts';
import { importBills } from './bill-import.ts';
import { BillSearchIndex } from '../lists/bill-search-index.ts';
import { importCongressJson, readCongressJsonRecords } from './bill-importer-congress-json.ts';
import {
  congressDistrict,
  nameFromCongressFullName,
  nameFromLastFirst,
  rollCallFromCongressText,
} from './congress-action-text.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
  zipOf,
} from '../test-support/test-files.ts';

describe('congress data.json (hand-made)', () => {
  const result = importCongressJson(readSamples('congress-json'));
  const byId = new Map(result.bills.map((bill) => [bill.id, bill]));

  it('reads a bill field by field', () => {
    const bill = byId.get('us/118/hr-9901');
    expect(bill).toMatchObject({
      source: 'congress-json',
      sourceId: 'hr9901-118',
      identifier: 'H.R. 9901',
      title: 'Safer Rail Crossings Act',
      introducedDate: '2024-03-05',
      status: 'passed-one-chamber',
      statusDate: '2024-04-10',
      rawStatus: 'PASS_OVER:HOUSE',
      url: 'https://www.congress.gov/bill/118th-congress/house-bill/9901',
    });
    expect(bill?.sponsors).toEqual([
      {
        name: 'Eleanor Marsh',
        role: 'primary',
        party: null,
        district: 'OR-3',
        externalId: 'M009901',
      },
    ]);
    expect(bill?.cosponsors.map((cosponsor) => cosponsor.name)).toEqual(['Silas K. Thornbury']);
    expect(bill?.actions.map((action) => action.chamber)).toEqual([
      'lower',
      'lower',
      'lower',
      'upper',
    ]);
    expect(bill?.votes).toEqual([
      {
        date: '2024-04-10',
        chamber: 'lower',
        motion: 'On motion to suspend the rules and pass the bill, as amended',
        yes: 402,
        no: 18,
        other: 1,
        passed: true,
      },
    ]);
  });

  it('reads an agreed simple resolution as passed in its one chamber', () => {
    expect(byId.get('us/118/sres-777')).toMatchObject({
      identifier: 'S.Res. 777',
      title: 'A resolution recognizing the volunteer firefighters of rural America.',
      status: 'passed-one-chamber',
      summary: null,
      votes: [],
    });
  });

  it('names the bill without a title', () => {
    expect(result.errors).toEqual([
      {
        file: 'congress-json/118/bills/hjres/hjres9902/data.json',
        record: 'hjres9902-118',
        reason: 'missing title',
      },
    ]);
  });

  it('names the seat a member holds as Congress writes it in [D-GA-4]', () => {
    expect(congressDistrict('GA', '4')).toBe('GA-4');
    expect(congressDistrict('GA', '04')).toBe('GA-4');
    expect(congressDistrict('TX', null)).toBe('TX');
    expect(congressDistrict('WY', '0')).toBe('WY-At Large');
    expect(congressDistrict('DE', 'At Large')).toBe('DE-At Large');
    expect(congressDistrict(null, '4')).toBeNull();
    // Anything else from a file is not passed on as a seat.
    expect(congressDistrict('Georgia', '4')).toBeNull();
    expect(congressDistrict('GA', '4; DROP')).toBe('GA');
  });

  it('reads Congress names and roll calls the way BILLSTATUS is read', () => {
    expect(nameFromLastFirst('Casey, Robert P., Jr.')).toBe('Robert P. Casey Jr.');
    expect(nameFromCongressFullName('Sen. Braun, Mike  [R-IN]')).toBe('Mike Braun');
    expect(nameFromCongressFullName('Rep. Roybal-Allard, Lucille [D-CA-40]')).toBe(
      'Lucille Roybal-Allard',
    );
    expect(
      rollCallFromCongressText(
        'On agreeing to the conference report Agreed to by the Yeas and Nays: 300 - 128 (Roll No. 87).',
        '2019-02-14',
      )?.vote,
    ).toEqual({
      date: '2019-02-14',
      chamber: 'lower',
      motion: 'On agreeing to the conference report',
      yes: 300,
      no: 128,
      other: null,
      passed: true,
    });
    expect(
      rollCallFromCongressText('Passed Senate without amendment by Voice Vote.', null),
    ).toBeNull();
  });
});

describe('congress data.json titles (hand-made, as older Congresses write them)', () => {
  it('shows the official title when there is no short title, the popular one found by search', () => {
    const [bill] = importCongressJson(readSamples('congress-json-older')).bills;
    expect(bill?.title).toBe(
      'To amend the Federal Crop Insurance Act to cover orchards lost to late frost, and for other purposes.',
    );
    expect(bill?.alternativeTitles).toEqual(['Late Frost Bill']);
    const index = new BillSearchIndex();
    if (bill) index.add(0, bill);
    expect(index.search('late frost bill')).toEqual([0]);
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)(
  'congress data.json real files (../shared/fixtures/congress-json)',
  () => {
    const result = fixturesRoot === null ? null : importBills(readFixtures('congress-json'));
    const byId = new Map(result?.bills.map((bill) => [bill.id, bill]));

    it('imports all 562 files without errors, per folder', () => {
      expect(result?.format).toBe('congress-json');
      expect(result?.bills).toHaveLength(562);
      expect(result?.errors).toEqual([]);
      const perType = Object.fromEntries(
        ['hconres', 'hjres', 'sconres', 'sjres', 'hr', 's'].map((type) => [
          type,
          result?.bills.filter((bill) => bill.type === type).length,
        ]),
      );
      expect(perType).toEqual({ hconres: 128, hjres: 106, sconres: 52, sjres: 81, hr: 95, s: 100 });
    });

    it('keeps roll calls as totals only: no vote lists members, no member directory', () => {
      const votes = result?.bills.flatMap((bill) => bill.votes) ?? [];
      expect(votes.length).toBeGreaterThan(100);
      expect(votes.filter((vote) => 'members' in vote)).toEqual([]);
      expect(result?.members).toEqual([]);
    });

    it('reads H.R. 1 of the 116th Congress as in the file', () => {
      const bill = byId.get('us/116/hr-1');
      expect(bill).toMatchObject({
        identifier: 'H.R. 1',
        title: 'For the People Act of 2019',
        introducedDate: '2019-01-03',
        status: 'passed-one-chamber',
        statusDate: '2019-03-08',
      });
      expect(bill?.sponsors).toEqual([
        {
          name: 'John P. Sarbanes',
          role: 'primary',
          party: null,
          district: 'MD-3',
          externalId: 'S001168',
        },
      ]);
      expect(bill?.actions).toHaveLength(122);
      expect(bill?.cosponsors).toHaveLength(236);
      expect(bill?.votes.find((vote) => vote.yes === 234)).toEqual({
        date: '2019-03-08',
        chamber: 'lower',
        motion: 'On passage',
        yes: 234,
        no: 193,
        other: null,
        passed: true,
      });
    });

    it('reads H.J.Res. 31 as enacted with the five roll calls in its action texts', () => {
      const bill = byId.get('us/116/hjres-31');
      expect(bill).toMatchObject({
        title: 'Consolidated Appropriations Act, 2019',
        introducedDate: '2019-01-22',
        status: 'enacted',
        statusDate: '2019-02-15',
      });
      expect(bill?.sponsors[0]).toMatchObject({
        name: 'Lucille Roybal-Allard',
        externalId: 'R000486',
      });
      expect(bill?.actions).toHaveLength(43);
      expect(bill?.votes.map((vote) => [vote.chamber, vote.yes, vote.no, vote.passed])).toEqual([
        ['lower', 200, 214, false],
        ['lower', 231, 180, true],
        ['upper', 84, 15, true],
        ['upper', 83, 16, true],
        ['lower', 300, 128, true],
      ]);
    });

    it('reads a nickname whose quotes hold a comma as one name', () => {
      // H.R. 1 (116th) lists "Johnson, Henry C. \"Hank,\" Jr." among its cosponsors.
      const names = byId.get('us/116/hr-1')?.cosponsors.map((cosponsor) => cosponsor.name);
      expect(names).toContain('Henry C. "Hank" Johnson Jr.');
      expect(names).toContain('Robert C. "Bobby" Scott');
      expect(names?.filter((name) => /" |"$/.test(name.replace(/"[^"]*"/g, '')))).toEqual([]);
      expect(nameFromLastFirst('Johnson, Henry C. “Hank,” Jr.')).toBe(
        'Henry C. “Hank” Johnson Jr.',
      );
    });

    it('keeps every other title of H.R. 1 as an alternative title that search finds', () => {
      const bill = byId.get('us/116/hr-1');
      expect(bill?.title).toBe('For the People Act of 2019');
      expect(bill?.alternativeTitles).toContain(
        "To expand Americans' access to the ballot box, reduce the influence of big money in politics, and strengthen ethics rules for public servants, and for other purposes.",
      );
      expect(bill?.alternativeTitles).not.toContain(bill?.title);
      const index = new BillSearchIndex();
      if (bill) index.add(7, bill);
      expect(index.search('ballot box influence of big money')).toEqual([7]);
    });

    // The scraper's GovInfo task writes each text version beside the bill (hand-made here in its
    // layout and fields; the fixtures hold the bills alone).
    const bill68 = 'congress-json/116/bills/sjres/sjres68';
    const versionFile = (code: string, issued: string): ImportFile => ({
      name: `${bill68}/text-versions/${code}/data.json`,
      bytes: encodeUtf8(
        JSON.stringify({
          bill_version_id: `sjres68-116-${code}`,
          issued_on: issued,
          urls: {
            html: `https://www.govinfo.gov/content/pkg/BILLS-116sjres68${code}/html/BILLS-116sjres68${code}.htm`,
            pdf: `https://www.govinfo.gov/content/pkg/BILLS-116sjres68${code}/pdf/BILLS-116sjres68${code}.pdf`,
            xml: `https://www.govinfo.gov/content/pkg/BILLS-116sjres68${code}/xml/BILLS-116sjres68${code}.xml`,
          },
          version_code: code,
        }),
      ),
    });
    const expectedTexts = [
      {
        date: '2020-01-09',
        type: 'Introduced in Senate',
        url: 'https://www.govinfo.gov/content/pkg/BILLS-116sjres68is/html/BILLS-116sjres68is.htm',
        mimeType: 'text/html',
        text: null,
      },
      {
        date: '2020-03-12',
        type: 'Enrolled Bill',
        url: 'https://www.govinfo.gov/content/pkg/BILLS-116sjres68enr/html/BILLS-116sjres68enr.htm',
        mimeType: 'text/html',
        text: null,
      },
    ];

    it("records a bill's text versions from the scraper's text-versions files beside it", () => {
      const files = [
        versionFile('enr', '2020-03-12'),
        ...readFixtures(bill68),
        versionFile('is', '2020-01-09'),
      ];
      const result = importBills(files);
      expect(result.errors).toEqual([]);
      expect(result.bills).toHaveLength(1);
      expect(result.bills[0]?.texts).toEqual(expectedTexts);
      // A bill without such files has none, as before.
      expect(importBills(readFixtures(bill68)).bills[0]?.texts).toEqual([]);
    });

    it('gives an import job the versions too, with the bill read one file at a time', () => {
      const files = [
        ...readFixtures(bill68),
        versionFile('enr', '2020-03-12'),
        versionFile('is', '2020-01-09'),
      ];
      const dataset = readDatasetRecords([zipOf('sjres68.zip', files)]);
      const items = [...dataset.items()];
      const bills = items.flatMap((item) =>
        item.kind === 'record' && item.outcome.ok ? [item.outcome.bill] : [],
      );
      expect(items.filter((item) => item.kind !== 'record')).toEqual([]);
      expect(bills.map((bill) => bill.texts)).toEqual([expectedTexts]);
      expect(dataset.total).toBe(1);
    });

    it('reads a ZIP of the folder the same way, one record at a time', () => {
      const files = readFixtures('congress-json/116/bills/sjres');
      const zipped = importBills([zipOf('sjres.zip', files)]);
      expect(zipped.bills).toHaveLength(81);
      expect([...readCongressJsonRecords(files)]).toHaveLength(81);
    });
  },
);

warnIfFixturesAbsent();
