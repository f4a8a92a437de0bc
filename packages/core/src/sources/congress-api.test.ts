import { describe, expect, it } from 'vitest';
import { encodeUtf8 } from '../encoding/text-bytes.ts';
import { importBillStatus } from '../importers/bill-importer-billstatus.ts';
import {
  congressBillListUrl,
  congressBillStatusXml,
  congressBillUrl,
  congressBillsToRead,
  CONGRESS_API_MAX_BILLS,
  congressPartCount,
  congressRateLimited,
  congressRefusal,
  parseCongressBill,
  parseCongressBillList,
  parseCongressPart,
} from './congress-api.ts';

const bytes = (value: unknown) => encodeUtf8(JSON.stringify(value));

// Answers in the shapes of the congress.gov API's documentation (BillEndpoint.md), by hand.
const detail = {
  bill: {
    actions: { count: 3, url: 'https://api.congress.gov/v3/bill/117/hr/3076/actions?format=json' },
    congress: 117,
    cosponsors: {
      count: 1,
      countIncludingWithdrawnCosponsors: 2,
      url: 'https://api.congress.gov/v3/bill/117/hr/3076/cosponsors?format=json',
    },
    introducedDate: '2021-05-11',
    latestAction: { actionDate: '2022-04-06', text: 'Became Public Law No: 117-108.' },
    laws: [{ number: '117-108', type: 'Public Law' }],
    number: '3076',
    originChamber: 'House',
    policyArea: { name: 'Government Operations and Politics' },
    sponsors: [
      {
        bioguideId: 'M000087',
        district: 12,
        firstName: 'Carolyn',
        fullName: 'Rep. Maloney, Carolyn B. [D-NY-12]',
        isByRequest: 'N',
        lastName: 'Maloney',
        party: 'D',
        state: 'NY',
        url: 'https://api.congress.gov/v3/member/M000087?format=json',
      },
    ],
    subjects: {
      count: 2,
      url: 'https://api.congress.gov/v3/bill/117/hr/3076/subjects?format=json',
    },
    summaries: {
      count: 1,
      url: 'https://api.congress.gov/v3/bill/117/hr/3076/summaries?format=json',
    },
    textVersions: {
      count: 1,
      url: 'https://api.congress.gov/v3/bill/117/hr/3076/text?format=json',
    },
    title: 'Postal Service Reform Act of 2022',
    type: 'HR',
    updateDate: '2022-09-29T03:27:05Z',
  },
};

const actions = {
  actions: [
    {
      actionCode: '36000',
      actionDate: '2022-04-06',
      sourceSystem: { code: 9, name: 'Library of Congress' },
      text: 'Became Public Law No: 117-108.',
      type: 'BecameLaw',
    },
    {
      actionDate: '2022-03-08',
      committees: [],
      recordedVotes: [
        {
          chamber: 'Senate',
          congress: 117,
          date: '2022-03-08T23:01:06Z',
          rollNumber: 71,
          sessionNumber: 2,
          url: 'https://www.senate.gov/legislative/LIS/roll_call_votes/vote1172/vote_117_2_00071.xml',
        },
      ],
      sourceSystem: { code: 0, name: 'Senate' },
      text: 'Passed Senate without amendment by Yea-Nay Vote. 79 - 19. Record Vote Number: 71.',
      type: 'Floor',
    },
    {
      actionCode: 'Intro-H',
      actionDate: '2021-05-11',
      sourceSystem: { code: 2, name: 'House floor actions' },
      text: 'Introduced in House',
      type: 'IntroReferral',
    },
  ],
  pagination: { count: 3 },
};

const cosponsors = {
  cosponsors: [
    {
      bioguideId: 'C001078',
      district: 11,
      firstName: 'Gerald',
      fullName: 'Rep. Connolly, Gerald E. [D-VA-11]',
      isOriginalCosponsor: true,
      lastName: 'Connolly',
      party: 'D',
      sponsorshipDate: '2021-05-11',
      state: 'VA',
    },
    {
      bioguideId: 'X000001',
      fullName: 'Rep. Withdrawn, Some [R-TX-1] & <co>',
      party: 'R',
      sponsorshipDate: '2021-05-11',
      sponsorshipWithdrawnDate: '2021-06-01',
      state: 'TX',
    },
  ],
  pagination: { count: 1 },
};

const text = {
  textVersions: [
    {
      date: '2022-04-06T04:00:00Z',
      formats: [
        {
          type: 'Formatted Text',
          url: 'https://www.congress.gov/117/bills/hr3076/BILLS-117hr3076enr.htm',
        },
        { type: 'PDF', url: 'https://www.congress.gov/117/bills/hr3076/BILLS-117hr3076enr.pdf' },
      ],
      type: 'Enrolled Bill',
    },
  ],
};

const subjects = {
  subjects: {
    legislativeSubjects: [{ name: 'Postal service' }, { name: 'Health' }],
    policyArea: { name: 'Government Operations and Politics' },
  },
};

const summaries = {
  summaries: [
    {
      actionDate: '2022-04-06',
      actionDesc: 'Public Law',
      text: '<p><strong>Postal Service Reform Act</strong> makes changes.</p>',
      updateDate: '2022-04-20T15:23:32Z',
      versionCode: '49',
    },
  ],
};

describe('the congress.gov API', () => {
  it("asks for a Congress's bills of a type by page, updated since a time in whole seconds", () => {
    expect(congressBillListUrl(118, 'hr', 0, null)).toBe(
      'https://api.congress.gov/v3/bill/118/hr?format=json&offset=0&limit=250&sort=updateDate+asc',
    );
    expect(congressBillListUrl(118, 'hr', 250, '2026-11-26T12:34:56.789Z')).toBe(
      'https://api.congress.gov/v3/bill/118/hr?format=json&offset=250&limit=250&sort=updateDate+asc&fromDateTime=2026-11-26T12:34:56Z',
    );
    expect(congressBillUrl(117, 'hr', '3076')).toBe(
      'https://api.congress.gov/v3/bill/117/hr/3076?format=json',
    );
    expect(congressBillUrl(117, 'hr', '3076', 'textVersions', 250)).toBe(
      'https://api.congress.gov/v3/bill/117/hr/3076/text?format=json&offset=250&limit=250',
    );
  });

  it('reads the list, the detail and its parts', () => {
    const list = parseCongressBillList(
      bytes({
        bills: [{ congress: 117, number: '3076', type: 'HR', updateDate: '2022-09-29', url: '…' }],
        pagination: { count: 1 },
      }),
    );
    expect(list).toEqual({
      bills: [{ number: '3076', type: 'hr', updateDate: '2022-09-29' }],
      count: 1,
    });
    const bill = parseCongressBill(bytes(detail));
    expect(congressPartCount(bill, 'cosponsors')).toBe(1);
    expect(congressPartCount(bill, 'actions')).toBe(3);
    expect(parseCongressPart(bytes(actions), 'actions')).toMatchObject({ count: 3 });
    expect(parseCongressPart(bytes(subjects), 'subjects').items).toHaveLength(1);
    expect(() => parseCongressBillList(bytes({ error: 'x' }))).toThrow(
      'congress.gov answered the list of bills with something Docket cannot read.',
    );
  });

  it('builds a bill as the BILLSTATUS importer reads one', () => {
    const bill = parseCongressBill(bytes(detail));
    const xml = congressBillStatusXml(bill, {
      actions: parseCongressPart(bytes(actions), 'actions').items,
      cosponsors: parseCongressPart(bytes(cosponsors), 'cosponsors').items,
      textVersions: parseCongressPart(bytes(text), 'textVersions').items,
      subjects: parseCongressPart(bytes(subjects), 'subjects').items,
      summaries: parseCongressPart(bytes(summaries), 'summaries').items,
    });
    const result = importBillStatus([{ name: 'BILLSTATUS-117hr3076.xml', bytes: encodeUtf8(xml) }]);
    expect(result.errors).toEqual([]);
    const [read] = result.bills;
    expect(read).toMatchObject({
      source: 'billstatus',
      sourceId: 'hr3076-117',
      jurisdiction: 'us',
      session: '117',
      identifier: 'H.R. 3076',
      title: 'Postal Service Reform Act of 2022',
      introducedDate: '2021-05-11',
      status: 'enacted',
      summary: 'Postal Service Reform Act makes changes.',
    });
    expect(read?.sponsors.map((sponsor) => [sponsor.name, sponsor.externalId])).toEqual([
      ['Carolyn B. Maloney', 'M000087'],
    ]);
    // The withdrawn cosponsor is none; its markup characters came through as text.
    expect(read?.cosponsors.map((sponsor) => sponsor.externalId)).toEqual(['C001078']);
    expect(read?.actions.map((action) => action.text)).toEqual([
      'Introduced in House',
      'Passed Senate without amendment by Yea-Nay Vote. 79 - 19. Record Vote Number: 71.',
      'Became Public Law No: 117-108.',
    ]);
    expect(read?.texts.map((version) => [version.type, version.url])).toEqual([
      ['Enrolled Bill', 'https://www.congress.gov/117/bills/hr3076/BILLS-117hr3076enr.pdf'],
    ]);
    expect(read?.subjects).toEqual(
      expect.arrayContaining(['Postal service', 'Health', 'Government Operations and Politics']),
    );
    expect(read?.votes).toHaveLength(1);
  });

  it("says a refused key and a rate limit in api.data.gov's words", () => {
    expect(
      congressRefusal(
        403,
        bytes({ error: { code: 'API_KEY_INVALID', message: 'An invalid api_key was supplied.' } }),
      ).message,
    ).toBe('congress.gov refused the API key: An invalid api_key was supplied.');
    expect(congressRateLimited(3600).message).toBe(
      'congress.gov is limiting requests from this key (429 Too Many Requests); refresh again in 60 minutes.',
    );
  });

  it('reads a list longer than one import in whole days, oldest first, and goes on from the next', () => {
    const bill = (number: number, updateDate: string) => ({
      number: String(number),
      type: 'hr',
      updateDate,
    });
    const few = [bill(1, '2025-03-02'), bill(2, '2025-03-01')];
    expect(congressBillsToRead(few)).toEqual({ bills: few, resumeFrom: null });

    const half = CONGRESS_API_MAX_BILLS / 2;
    const listed = [
      ...Array.from({ length: half }, (_, index) => bill(index, '2025-03-03T10:00:00Z')),
      ...Array.from({ length: half - 1 }, (_, index) => bill(1000 + index, '2025-03-01')),
      ...Array.from({ length: 2 }, (_, index) => bill(2000 + index, '2025-03-02')),
    ];
    // 399 of the 1st and 2 of the 2nd fit; the 3rd's 400 would pass the limit and wait, whole.
    const read = congressBillsToRead(listed);
    expect(read.bills).toHaveLength(half + 1);
    expect(read.bills.some((item) => (item.updateDate ?? '').startsWith('2025-03-03'))).toBe(false);
    expect(read.resumeFrom).toBe('2025-03-03T00:00:00.000Z');

    const oneDay = Array.from({ length: CONGRESS_API_MAX_BILLS + 1 }, (_, index) =>
      bill(index, '2025-03-01'),
    );
    expect(() => congressBillsToRead(oneDay)).toThrow(
      `congress.gov lists more than ${CONGRESS_API_MAX_BILLS} bills changed on one day`,
    );
  });
});
