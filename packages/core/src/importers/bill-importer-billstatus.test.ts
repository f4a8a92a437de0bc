import { describe, expect, it } from 'vitest';
import { importBills } from './bill-import.ts';
import { importBillStatus, isBillStatusXml } from './bill-importer-billstatus.ts';
import { decodeUtf8, encodeUtf8 } from '../encoding/text-bytes.ts';
import {
  fixturesRoot,
  readFixtures,
  readSamples,
  warnIfFixturesAbsent,
  zipOf,
} from '../test-support/test-files.ts';

describe('BILLSTATUS XML (hand-made)', () => {
  const files = readSamples('billstatus');
  const result = importBillStatus(files);
  const byId = new Map(result.bills.map((bill) => [bill.id, bill]));

  it('reads the original schema field by field', () => {
    const bill = byId.get('us/118/hr-9901');
    expect(bill).toMatchObject({
      source: 'billstatus',
      sourceId: 'hr9901-118',
      identifier: 'H.R. 9901',
      title: 'Safer Rail Crossings Act',
      summary:
        'Safer Rail Crossings Act\n\nThis bill directs the Federal Railroad Administration to fund gates & lights at rural grade crossings.',
      introducedDate: '2024-03-05',
      status: 'passed-one-chamber',
      statusDate: '2024-04-10',
      rawStatus:
        'Received in the Senate and Read twice and referred to the Committee on Commerce, Science, and Transportation.',
      subjects: [
        'Railroads',
        'Transportation and Public Works',
        'Transportation safety and security',
      ],
      url: 'https://www.congress.gov/bill/118th-congress/house-bill/9901',
    });
    expect(bill?.sponsors).toEqual([
      {
        name: 'Eleanor Marsh',
        role: 'primary',
        party: 'D',
        district: 'OR-3',
        externalId: 'M009901',
      },
    ]);
    // The withdrawn cosponsor is left out.
    expect(bill?.cosponsors).toEqual([
      {
        name: 'Silas K. Thornbury',
        role: 'cosponsor',
        party: 'R',
        district: 'KS',
        externalId: 'T009902',
      },
    ]);
    expect(bill?.actions.map((action) => [action.date, action.chamber])).toEqual([
      ['2024-03-05', 'lower'],
      ['2024-03-05', 'lower'],
      ['2024-04-10', 'lower'],
      ['2024-04-10', 'lower'],
      ['2024-04-11', 'upper'],
    ]);
    // The House's own action and the Library of Congress copy of it are one roll call.
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
    expect(bill?.texts.map((text) => [text.date, text.type, text.mimeType])).toEqual([
      ['2024-03-05', 'Introduced in House', 'text/xml'],
      ['2024-04-10', 'Engrossed in House', 'text/xml'],
    ]);
  });

  it('reads schema 3.0.0 field by field', () => {
    const bill = byId.get('us/118/sjres-301');
    expect(bill).toMatchObject({
      identifier: 'S.J.Res. 301',
      title: 'A joint resolution designating Great Lakes Shoreline Survey Week.',
      summary:
        'This joint resolution designates the second week of June as Great Lakes Shoreline Survey Week.',
      introducedDate: '2023-02-01',
      status: 'enacted',
      statusDate: '2023-08-15',
      subjects: ['Environmental Protection', 'Great Lakes'],
    });
    expect(bill?.sponsors[0]).toEqual({
      name: 'Adaeze Okonkwo',
      role: 'primary',
      party: 'D',
      district: 'MI',
      externalId: 'O009904',
    });
    expect(bill?.votes.map((vote) => [vote.chamber, vote.yes, vote.no, vote.passed])).toEqual([
      ['upper', 61, 37, true],
      ['lower', 288, 130, true],
    ]);
    // The trailing empty <item> of textVersions is no version; the PDF link is preferred.
    expect(bill?.texts).toEqual([
      {
        date: '2023-02-01',
        type: 'Introduced in Senate',
        url: 'https://www.govinfo.gov/content/pkg/BILLS-118sjres301is/pdf/BILLS-118sjres301is.pdf',
        mimeType: 'application/pdf',
        text: null,
      },
    ]);
  });

  it('names the bad file', () => {
    expect(result.errors).toEqual([
      {
        file: 'billstatus/BILLSTATUS-bad-no-number.xml',
        record: null,
        reason: 'missing bill identifier',
      },
    ]);
  });

  it('refuses a cut-off file instead of importing what was before the cut', () => {
    const good = files.find((file) => file.name.endsWith('hr9901.xml'));
    if (!good) throw new Error('sample missing');
    const text = decodeUtf8(good.bytes);
    const cut = { name: 'cut.xml', bytes: encodeUtf8(text.slice(0, text.indexOf('<cosponsors>'))) };
    const outcome = importBillStatus([cut]);
    expect(outcome.bills).toEqual([]);
    const lines = decodeUtf8(cut.bytes).split('\n').length;
    expect(outcome.errors[0]?.reason).toBe(
      `XML cut short: the file ends at line ${lines} with <billStatus>, <bill> still open`,
    );
  });

  it('recognises documents by their root element', () => {
    expect(isBillStatusXml('<?xml version="1.0"?>\n<!-- note -->\n<billStatus>')).toBe(true);
    expect(isBillStatusXml('<billStatusX>')).toBe(false);
    expect(isBillStatusXml('<html><billStatus>')).toBe(false);
  });

  it('reads a ZIP of many files', () => {
    const zipped = importBills([zipOf('BILLSTATUS-118.zip', files, 'billstatus/')]);
    expect(zipped.bills.map((bill) => bill.id)).toEqual(['us/118/hr-9901', 'us/118/sjres-301']);
    expect(zipped.errors.map((error) => error.file)).toEqual([
      'BILLSTATUS-118.zip/BILLSTATUS-bad-no-number.xml',
    ]);
  });
});

describe('BILLSTATUS XML as files arrive: encodings, references, DOCTYPEs, damage', () => {
  const [sample] = readSamples('billstatus/BILLSTATUS-118hr9901.xml');
  if (!sample) throw new Error('sample missing');
  const text = decodeUtf8(sample.bytes);
  const titled = (title: string) =>
    text.replace('<title>Safer Rail Crossings Act</title>', `<title>${title}</title>`);
  const readTitle = (bytes: Uint8Array) => {
    const outcome = importBills([{ name: 'BILLSTATUS-118hr9901.xml', bytes }]);
    expect(outcome.errors).toEqual([]);
    return outcome.bills[0]?.title;
  };
  const reasonFor = (bytes: Uint8Array) =>
    importBills([{ name: 'BILLSTATUS-118hr9901.xml', bytes }]).errors.map((error) => error.reason);
  const utf16 = (value: string, littleEndian: boolean) => {
    const bytes = new Uint8Array(2 + value.length * 2);
    bytes.set(littleEndian ? [0xff, 0xfe] : [0xfe, 0xff]);
    for (let at = 0; at < value.length; at++) {
      const code = value.charCodeAt(at);
      bytes[2 + 2 * at + (littleEndian ? 0 : 1)] = code & 0xff;
      bytes[2 + 2 * at + (littleEndian ? 1 : 0)] = code >> 8;
    }
    return bytes;
  };

  it('decodes numeric character references, decimal and hexadecimal, once', () => {
    expect(readTitle(encodeUtf8(titled('Rail &#8212; Road &#x2014; Safety &amp;#8212; Act')))).toBe(
      'Rail \u2014 Road \u2014 Safety &#8212; Act',
    );
  });

  it('honours a declared ISO-8859-1 encoding', () => {
    const latin = titled('Caf\u00e9 Crossings Act').replace(
      'encoding="UTF-8"',
      'encoding="ISO-8859-1"',
    );
    const bytes = Uint8Array.from(latin, (char) => char.charCodeAt(0));
    expect(bytes.includes(0xe9)).toBe(true);
    expect(readTitle(bytes)).toBe('Caf\u00e9 Crossings Act');
  });

  it('decodes UTF-16 with a byte-order mark, either byte order', () => {
    const value = titled('Se\u00f1al Crossings Act');
    expect(readTitle(utf16(value, true))).toBe('Se\u00f1al Crossings Act');
    expect(readTitle(utf16(value, false))).toBe('Se\u00f1al Crossings Act');
  });

  it('says which encodings it cannot read', () => {
    const shiftJis = text.replace('encoding="UTF-8"', 'encoding="Shift_JIS"');
    expect(reasonFor(encodeUtf8(shiftJis))).toEqual([
      'XML in the Shift_JIS encoding is not supported: save it as UTF-8 (UTF-16 and ISO-8859-1 are read too)',
    ]);
  });

  it('refuses a DOCTYPE, saying why', () => {
    const withDoctype = text.replace(
      '<billStatus>',
      '<!DOCTYPE billStatus [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>\n<billStatus>',
    );
    expect(reasonFor(encodeUtf8(withDoctype))).toEqual([
      'XML with a DOCTYPE is not read (entities are refused for safety)',
    ]);
    expect(
      importBillStatus([{ name: 'x.xml', bytes: encodeUtf8(withDoctype) }]).errors[0]?.reason,
    ).toBe('XML with a DOCTYPE is not read (entities are refused for safety)');
  });

  it('reports a file cut inside a tag at the line where it ends', () => {
    const cut = text.slice(0, text.indexOf('</title>') + 4);
    expect(reasonFor(encodeUtf8(cut))).toEqual([
      `XML cut short: the file ends at line ${cut.split('\n').length} in the middle of its markup`,
    ]);
  });

  it('never prints control characters from the file in a message', () => {
    const hostile = text.replace('<title>', '<ti\u0007t\u001b[31mle>');
    const [reason] = reasonFor(encodeUtf8(hostile));
    expect(reason).toMatch(/^Malformed XML at line \d+: /);
    // eslint-disable-next-line no-control-regex -- the check is that none are left
    expect(reason).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(reason).toContain('\\u001b');
  });
});

// Real files from ../shared/fixtures, never copied into the project: skipped only where that folder
// is absent (a checkout without shared/ beside it); CI always has it.
describe.skipIf(fixturesRoot === null)('BILLSTATUS real files', () => {
  const xml116 = fixturesRoot === null ? null : importBills(readFixtures('billstatus-xml-116'));
  const samples = fixturesRoot === null ? null : importBills(readFixtures('billstatus-samples'));

  it('imports the 133 files of billstatus-xml-116 without errors', () => {
    expect(xml116?.format).toBe('billstatus');
    expect(xml116?.recordsRead).toBe(133);
    expect(xml116?.bills).toHaveLength(133);
    expect(xml116?.bills.filter((bill) => bill.type === 'sconres')).toHaveLength(52);
    expect(xml116?.bills.filter((bill) => bill.type === 'sjres')).toHaveLength(81);
    expect(xml116?.errors).toEqual([]);
  });

  it('imports the 36 official samples (old, current and 3.0.0 schemas) without errors', () => {
    expect(samples?.recordsRead).toBe(36);
    // formatChange/current and formatChange/future hold the same four bills, and
    // amendment-votes repeats 114hr5278 of future: 31 distinct bills.
    expect(samples?.bills).toHaveLength(31);
    expect(samples?.errors).toEqual([]);
    const perFolder = (folder: string) =>
      importBills(readFixtures(`billstatus-samples/samples/${folder}`)).bills.length;
    expect(
      [
        'legacy',
        'formatChange/current',
        'formatChange/future',
        'actions-committees',
        'amendment-votes',
        'textVersions',
      ].map(perFolder),
    ).toEqual([12, 4, 6, 9, 1, 4]);
  });

  it('keeps roll calls as totals only: no vote lists members, no member directory', () => {
    for (const result of [xml116, samples]) {
      const votes = result?.bills.flatMap((bill) => bill.votes) ?? [];
      expect(votes.length).toBeGreaterThan(0);
      expect(votes.filter((vote) => 'members' in vote)).toEqual([]);
      expect(result?.members).toEqual([]);
    }
  });

  it('reads S.J.Res. 1 of the 116th Congress as in the file', () => {
    const bill = xml116?.bills.find((candidate) => candidate.id === 'us/116/sjres-1');
    expect(bill).toMatchObject({
      identifier: 'S.J.Res. 1',
      title:
        'A joint resolution proposing an amendment to the Constitution of the United States relative to limiting the number of terms that a Member of Congress may serve.',
      introducedDate: '2019-01-03',
      status: 'in-committee',
      statusDate: '2019-01-03',
    });
    expect(bill?.sponsors).toEqual([
      { name: 'Ted Cruz', role: 'primary', party: 'R', district: 'TX', externalId: 'C001098' },
    ]);
    expect(bill?.cosponsors).toHaveLength(15);
    expect(bill?.actions).toHaveLength(2);
    expect(bill?.texts).toHaveLength(1);
    expect(bill?.summary).toMatch(
      /^Constitutional Amendment\n\nThis joint resolution proposes a constitutional amendment/,
    );
  });

  it("reads S.J.Res. 68's roll calls and veto as in the file", () => {
    const bill = xml116?.bills.find((candidate) => candidate.id === 'us/116/sjres-68');
    expect(bill).toMatchObject({ status: 'vetoed', introducedDate: '2020-01-09' });
    expect(bill?.sponsors[0]).toMatchObject({
      name: 'Tim Kaine',
      party: 'D',
      externalId: 'K000384',
    });
    expect(bill?.actions).toHaveLength(36);
    expect(bill?.texts).toHaveLength(4);
    // Five roll calls in the action texts, each written twice (chamber and Library of Congress)
    // except the motion to commit, and each counted once.
    expect(
      bill?.votes.map((vote) => [
        vote.date,
        vote.chamber,
        vote.yes,
        vote.no,
        vote.other,
        vote.passed,
      ]),
    ).toEqual([
      ['2020-02-12', 'upper', 51, 45, null, true],
      ['2020-02-13', 'upper', 55, 45, null, true],
      ['2020-03-11', 'lower', 198, 212, 1, false],
      ['2020-03-11', 'lower', 227, 186, null, true],
      ['2020-05-07', 'upper', 49, 44, null, false],
    ]);
  });

  it('reads H.R. 2471 (schema 3.0.0) as enacted, with its public law', () => {
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/117/hr-2471');
    expect(bill).toMatchObject({
      title: 'Consolidated Appropriations Act, 2022',
      introducedDate: '2021-04-13',
      status: 'enacted',
      rawStatus: 'Became Public Law No: 117-103.',
    });
    expect(bill?.sponsors[0]).toMatchObject({ name: 'Hakeem S. Jeffries', externalId: 'J000294' });
    expect(bill?.actions).toHaveLength(56);
    expect(bill?.texts).toHaveLength(7);
  });

  it('orders a one-day bill from its newest-first list: introduced first, the latestAction last', () => {
    // H.R. 4907 (116th): five actions on 2019-10-29, listed newest first.
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/116/hr-4907');
    expect(bill?.actions[0]?.text).toBe('Introduced in House');
    expect(bill?.actions.at(-1)?.text).toMatch(
      /^Referred to the Committee on Oversight and Reform/,
    );
    expect(bill?.rawStatus).toBe(bill?.actions.at(-1)?.text);
    expect(bill?.status).toBe('in-committee');
    for (const oneDay of samples?.bills.filter(
      (candidate) => new Set(candidate.actions.map((action) => action.date)).size === 1,
    ) ?? []) {
      expect(oneDay.actions[0]?.text, oneDay.id).toMatch(/^Introduced in (House|Senate)/);
    }
  });

  it('orders a day by actionTime, 12-hour legacy times included', () => {
    // S. 1300 (114th) on 2015-07-15: the Senate's untimed message, then the House at 12:06PM
    // and 04:57PM ("12" sorts after "04" as text; as a time it is earlier).
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/114/s-1300');
    const day = bill?.actions.filter((action) => action.date === '2015-07-15') ?? [];
    expect(day.map((action) => action.text)).toEqual([
      'Message on Senate action sent to the House.',
      'Received in the House.',
      'Held at the desk.',
    ]);
    expect(bill?.actions.at(-1)?.text).toBe('Became Public Law No: 114-70.');
  });

  it('reads a nickname whose quotes hold a comma as one name', () => {
    // 'Rep. Johnson, Henry C. "Hank," Jr. [D-GA-4]' cosponsors H.R. 1 (117th).
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/117/hr-1');
    const johnson = bill?.cosponsors.find((cosponsor) => cosponsor.externalId === 'J000288');
    expect(johnson?.name).toBe('Henry C. "Hank" Johnson Jr.');
  });

  it('keeps the titles of H.R. 1 (117th) besides its display title as alternative titles', () => {
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/117/hr-1');
    expect(bill?.title).toBe('For the People Act of 2021');
    expect(bill?.alternativeTitles).toContain('Voter Empowerment Act of 2021');
    expect(bill?.alternativeTitles).not.toContain('For the People Act of 2021');
  });

  it('ends every bill with its latestAction, as GovInfo names it', () => {
    for (const bill of [...(xml116?.bills ?? []), ...(samples?.bills ?? [])]) {
      expect(bill.actions.at(-1)?.text, bill.id).toBe(bill.rawStatus);
    }
  });

  it('reads the old-schema S.J.Res. 8 of the 114th Congress, which has no text versions', () => {
    const bill = samples?.bills.find((candidate) => candidate.id === 'us/114/sjres-8');
    expect(bill).toMatchObject({ introducedDate: '2015-02-09', status: 'vetoed', texts: [] });
    expect(bill?.sponsors[0]).toMatchObject({ name: 'Lamar Alexander', externalId: 'A000360' });
    // 33 items in the file; one has an empty <text /> and is no action.
    expect(bill?.actions).toHaveLength(32);
  });
});

warnIfFixturesAbsent();
