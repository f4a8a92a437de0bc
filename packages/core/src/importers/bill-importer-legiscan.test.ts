import { describe, expect, it } from 'vitest';
import { billSchema } from '../bills/bill.ts';
import { importBills } from './bill-import.ts';
import {
  decodeLegiScanDocument,
  importLegiScan,
  readLegiScanRecords,
} from './bill-importer-legiscan.ts';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
  zipOf,
} from '../test-support/test-files.ts';

const datasetFolder = 'legiscan/dataset/WA/2023-2024_Regular_Session';

describe('LegiScan getBill answers (hand-made)', () => {
  const result = importLegiScan(readSamples('legiscan/getbill'));

  it('reads the good answer field by field', () => {
    expect(result.bills).toHaveLength(1);
    const bill = result.bills[0];
    expect(bill).toMatchObject({
      id: 'us-wa/2023-2024-regular-session/hb-1001',
      source: 'legiscan',
      sourceId: '1900001',
      jurisdiction: 'us-wa',
      session: '2023-2024 Regular Session',
      identifier: 'HB 1001',
      title: 'Irrigation district water metering',
      summary: 'Concerning water metering by irrigation districts & the reporting of meter data.',
      introducedDate: '2023-01-09',
      status: 'passed-one-chamber',
      rawStatus: 'Engrossed',
      statusDate: '2023-02-20',
      subjects: ['Agriculture', 'Water'],
      url: 'https://legiscan.com/WA/bill/HB1001/2023',
    });
    // sponsor_order puts the primary sponsor first even though the file lists her second.
    expect(bill?.sponsors).toEqual([
      { name: 'Ada Quintero', role: 'primary', party: 'D', district: 'HD-014', externalId: '501' },
    ]);
    expect(bill?.cosponsors).toEqual([
      {
        name: 'Benedict Harlow',
        role: 'cosponsor',
        party: 'R',
        district: 'HD-009',
        externalId: '502',
      },
    ]);
    expect(bill?.actions).toHaveLength(4);
    expect(bill?.actions[3]).toEqual({
      date: '2023-02-22',
      text: 'First reading, referred to Agriculture, Water, Natural Resources & Parks.',
      chamber: 'upper',
    });
    expect(bill?.votes).toEqual([
      {
        date: '2023-02-20',
        chamber: 'lower',
        motion: 'Third reading, final passage',
        yes: 60,
        no: 36,
        other: 2,
        passed: true,
      },
    ]);
    expect(bill?.texts).toEqual([
      {
        date: '2023-01-09',
        type: 'Introduced',
        url: 'https://lawfilesext.leg.wa.gov/biennium/2023-24/Pdf/Bills/House%20Bills/1001.pdf',
        mimeType: 'application/pdf',
        text: null,
        docId: 9001,
      },
    ]);
  });

  it('names the bad answers', () => {
    expect(result.errors).toEqual([
      {
        file: 'legiscan/getbill/error-answer.json',
        record: null,
        reason: 'LegiScan answered with an error: Unknown bill id: 999999999',
      },
      {
        file: 'legiscan/getbill/no-bill-number.json',
        record: null,
        reason: 'missing bill identifier',
      },
    ]);
    expect(result.recordsRead).toBe(3);
  });
});

describe('LegiScan session dataset ZIP (hand-made)', () => {
  const zip = zipOf(
    'WA_2023-2024_Regular_Session.zip',
    readSamples(datasetFolder),
    'legiscan/dataset/',
  );
  const result = importBills([zip]);
  const byIdentifier = new Map(result.bills.map((bill) => [bill.identifier, bill]));

  it('joins people, votes and texts into the bills', () => {
    expect(result.format).toBe('legiscan');
    expect(result.bills.map((bill) => bill.identifier)).toEqual(['HB 1002', 'SB 5003']);
    const library = byIdentifier.get('HB 1002');
    expect(library).toMatchObject({
      status: 'enacted',
      rawStatus: 'Passed',
      introducedDate: '2023-01-10',
    });
    // The bill file leaves name and party empty; people/503.json supplies them.
    expect(library?.sponsors).toEqual([
      {
        name: 'Carmen Ostrowski',
        role: 'primary',
        party: 'D',
        district: 'HD-021',
        externalId: '503',
      },
    ]);
    // votes/7002.json adds the roll call the bill file does not list, with its members' votes.
    expect(library?.votes).toEqual([
      {
        date: '2023-03-01',
        chamber: 'lower',
        motion: 'Third reading, final passage',
        yes: 91,
        no: 5,
        other: 2,
        passed: true,
        members: [['legiscan:503', 'yes']],
      },
    ]);
    // people/503.json says who that member is.
    expect(result.members).toEqual([
      {
        id: 'legiscan:503',
        name: 'Carmen Ostrowski',
        party: 'D',
        district: 'HD-021',
        role: 'Rep',
      },
    ]);
    // The actions arrive newest first and are turned round.
    expect(library?.actions.map((action) => action.date)).toEqual([
      '2023-01-10',
      '2023-03-01',
      '2023-04-05',
      '2023-04-18',
    ]);
    // text/9002.json: HTML decoded from base64 and reduced to plain text, style block dropped.
    expect(library?.texts).toHaveLength(1);
    expect(library?.texts[0]?.text).toBe(
      'HOUSE BILL 1002\n\nAN ACT Relating to public library hours & rural access; amending RCW 27.12.210.\n\n' +
        'BE IT ENACTED BY THE LEGISLATURE OF THE STATE OF WASHINGTON:\n\n' +
        'Sec. 1. Public libraries in counties under 50,000 residents shall open at least 40 hours a week.',
    );
    const ferry = byIdentifier.get('SB 5003');
    expect(ferry).toMatchObject({ status: 'in-committee', summary: null });
    expect(ferry?.texts).toEqual([
      {
        date: '2023-01-11',
        type: 'Introduced',
        url: null,
        mimeType: 'text/plain',
        text: 'SENATE BILL 5003\n\nAN ACT Relating to ferry fare relief for commuters.\n\nSec. 1. Ferry fares for daily commuters are reduced by one quarter.',
        docId: 9003,
      },
    ]);
  });

  it('reports the bad bill and the bad document, and ignores the vote of a bill outside the dataset', () => {
    expect(result.errors).toEqual([
      {
        file: 'WA_2023-2024_Regular_Session.zip/WA/2023-2024_Regular_Session/text/9004.json',
        record: 'document 9004 of WA HB1002',
        reason: 'document "doc" is not valid base64',
      },
      {
        file: 'WA_2023-2024_Regular_Session.zip/WA/2023-2024_Regular_Session/bill/HB1004.json',
        record: 'WA HB1004',
        reason: 'missing title',
      },
    ]);
  });

  it('can be read record by record', () => {
    const outcomes = [...readLegiScanRecords(readSamples(datasetFolder))];
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(2);
    expect(
      outcomes.every((outcome) => !outcome.ok || billSchema.safeParse(outcome.bill).success),
    ).toBe(true);
  });
});

describe('LegiScan documents', () => {
  it('keeps PDFs as links and decodes text', () => {
    expect(decodeLegiScanDocument('application/pdf', 'JVBERi0=')).toEqual({ ok: true, text: null });
    expect(decodeLegiScanDocument('text/plain', 'aGVsbG8=')).toEqual({ ok: true, text: 'hello' });
    expect(decodeLegiScanDocument('text/html', null)).toEqual({
      ok: false,
      reason: 'document has no base64 "doc"',
    });
  });

  it('maps Congress in LegiScan numbering to Congress types', () => {
    const answer = {
      bill: {
        bill_id: 1,
        state: 'US',
        bill_number: 'HB1',
        title: 'For the People Act of 2019',
        session: { session_name: '116th Congress' },
        status: 2,
      },
    };
    const result = importLegiScan([{ name: 'us.json', bytes: encodeUtf8(JSON.stringify(answer)) }]);
    expect(result.bills[0]?.id).toBe('us/116/hr-1');
    expect(result.bills[0]?.identifier).toBe('H.R. 1');
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)('LegiScan real files (../shared/fixtures/legiscan)', () => {
  const result = fixturesRoot === null ? null : importBills(readFixtures('legiscan'));
  const byId = new Map(result?.bills.map((bill) => [bill.id, bill]));

  it('imports all six bills without errors', () => {
    expect(result?.format).toBe('legiscan');
    expect(result?.bills).toHaveLength(6);
    expect(result?.errors).toEqual([]);
  });

  it('reads AR HB1044 as in the file', () => {
    const bill = byId.get('us-ar/88th-general-assembly-2012-fiscal/hb-1044');
    expect(bill).toMatchObject({
      identifier: 'HB 1044',
      title:
        'An Act For The Veterinary Medical Examining Board Appropriation For The 2012-2013 Fiscal Year.',
      introducedDate: '2012-02-07',
      status: 'enacted',
      statusDate: '2012-02-21',
      summary: null,
    });
    expect(bill?.sponsors[0]).toEqual({
      name: 'Joint Budget Committee',
      role: 'sponsor',
      party: null,
      externalId: '8610',
    });
    expect(bill?.actions).toHaveLength(18);
    expect(bill?.votes[1]).toEqual({
      date: '2012-02-16',
      chamber: 'upper',
      motion: 'Read the third time and passed.',
      yes: 34,
      no: 0,
      other: 1,
      passed: true,
    });
    expect(bill?.texts.map((text) => [text.type, text.url, text.text])).toEqual([
      ['Draft', 'http://www.arkleg.state.ar.us/assembly/2011/2012F/Bills/HB1044.pdf', null],
      ['Draft', 'http://www.arkleg.state.ar.us/assembly/2011/2012F/Bills/HB1044.pdf', null],
    ]);
  });

  it("keeps each text version's doc_id, by which LegiScan's getBillText serves it", () => {
    const bill = [...byId.values()].find((one) => one.identifier === 'HB 1');
    expect(bill?.texts.slice(0, 2).map((text) => [text.type, text.docId])).toEqual([
      ['Introduced', 153588],
      ['Comm Sub', 224009],
    ]);
  });

  it('reads AK HB1 and HB2 as in the files', () => {
    const hb1 = byId.get('us-ak/27th-legislature/hb-1');
    expect(hb1).toMatchObject({
      title: 'Policy For Securing Health Care Services',
      status: 'passed-one-chamber',
      introducedDate: '2011-01-18',
    });
    expect(hb1?.sponsors).toHaveLength(5);
    expect(hb1?.sponsors[0]).toEqual({
      name: 'Carl Gatto',
      role: 'sponsor',
      party: 'R',
      district: 'HD-013',
      externalId: '6033',
    });
    expect(hb1?.actions).toHaveLength(27);
    expect(hb1?.subjects).toEqual([
      'Attorney General',
      'Insurance',
      'Intergovernmental Relations',
      'Medical Care',
    ]);
    expect(byId.get('us-ak/27th-legislature/hb-2')?.status).toBe('in-committee');
  });
});

warnIfFixturesAbsent();
