import { describe, expect, it } from 'vitest';
import {
  billFullName,
  billPlace,
  compareBillsByNumber,
  ordinal,
  sessionLabel,
} from './bill-naming.ts';
import { jurisdictionName } from './us-jurisdictions.ts';

const POSTAL_CODES =
  'al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc pr gu vi as mp'.split(
    ' ',
  );

describe('jurisdiction names', () => {
  it('names Congress and every state, DC and territory by its name, whatever the code case', () => {
    expect(jurisdictionName('us')).toBe('U.S. Congress');
    expect(jurisdictionName('US-AK')).toBe('Alaska');
    expect(jurisdictionName('us-nc')).toBe('North Carolina');
    expect(jurisdictionName('us-dc')).toBe('District of Columbia');
    expect(jurisdictionName('us-pr')).toBe('Puerto Rico');
    const names = POSTAL_CODES.map((code) => jurisdictionName(`us-${code}`));
    expect(names.filter((name) => /^US-/.test(name))).toEqual([]);
    expect(new Set(names).size).toBe(POSTAL_CODES.length);
  });

  it('shows a code it does not know as the code, not as a guess', () => {
    expect(jurisdictionName('ca-on')).toBe('CA-ON');
  });
});

describe('session labels', () => {
  it('says which Congress a congress number is', () => {
    expect(sessionLabel('us', '114')).toBe('114th Congress');
    expect(sessionLabel('us', '101')).toBe('101st Congress');
    expect(sessionLabel('us', '112')).toBe('112th Congress');
    expect(sessionLabel('us', '113')).toBe('113th Congress');
    expect(sessionLabel('us', '119')).toBe('119th Congress');
  });

  it("says a state's numbered legislature, a year and a span of years in words", () => {
    expect(sessionLabel('us-ak', '34')).toBe('34th Legislature');
    expect(sessionLabel('us-wy', '2026')).toBe('2026 session');
    expect(sessionLabel('us-ga', '2023-2024')).toBe('2023–2024 session');
    expect(sessionLabel('us-ga', '2023-24')).toBe('2023–2024 session');
  });

  it('keeps a name the source wrote out', () => {
    expect(sessionLabel('us-ga', '2023-2024 Regular Session')).toBe('2023-2024 Regular Session');
    expect(sessionLabel('us-ar', '2025 Fiscal Session')).toBe('2025 Fiscal Session');
  });

  it('writes ordinals as people do', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111, 121].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '111th',
      '121st',
    ]);
  });
});

describe('a bill named where it is from', () => {
  it('names a state bill with its state and session, a bill of Congress with its Congress', () => {
    expect(billFullName({ jurisdiction: 'us-ak', session: '34', type: 'hb', number: '1' })).toBe(
      'Alaska HB 1 · 34th Legislature',
    );
    expect(
      billFullName({ jurisdiction: 'us', session: '114', type: 'hconres', number: '70' }),
    ).toBe('H.Con.Res. 70 · 114th Congress');
    expect(billPlace({ jurisdiction: 'us-ar', session: '2025' })).toBe('Arkansas · 2025 session');
  });
});

describe('bills in the order people expect', () => {
  const bill = (type: string, number: string, jurisdiction = 'us', session = '114') => ({
    jurisdiction,
    session,
    type,
    number,
  });
  const names = (bills: ReturnType<typeof bill>[]) =>
    [...bills].sort(compareBillsByNumber).map((each) => billFullName(each));

  it('sorts numbers as numbers, not as text', () => {
    expect(
      names([
        bill('hconres', '10'),
        bill('hconres', '100'),
        bill('hconres', '2'),
        bill('hconres', '1'),
      ]),
    ).toEqual([
      'H.Con.Res. 1 · 114th Congress',
      'H.Con.Res. 2 · 114th Congress',
      'H.Con.Res. 10 · 114th Congress',
      'H.Con.Res. 100 · 114th Congress',
    ]);
  });

  it("puts Congress's measures in the order Congress lists them, and a suffixed number after its own", () => {
    expect(
      names([
        bill('sres', '1'),
        bill('hres', '1'),
        bill('s', '1'),
        bill('hjres', '1'),
        bill('hr', '1'),
      ]),
    ).toEqual([
      'H.R. 1 · 114th Congress',
      'S. 1 · 114th Congress',
      'H.J.Res. 1 · 114th Congress',
      'H.Res. 1 · 114th Congress',
      'S.Res. 1 · 114th Congress',
    ]);
    expect(
      names([
        bill('sb', '2A', 'us-ca', '2025'),
        bill('sb', '10', 'us-ca', '2025'),
        bill('sb', '2', 'us-ca', '2025'),
      ]),
    ).toEqual([
      'California SB 2 · 2025 session',
      'California SB 2A · 2025 session',
      'California SB 10 · 2025 session',
    ]);
  });

  it('groups by jurisdiction name, then session', () => {
    expect(
      names([
        bill('hb', '1', 'us-wy', '2026'),
        bill('hb', '1', 'us-ak', '34'),
        bill('hb', '1', 'us-ak', '33'),
      ]),
    ).toEqual([
      'Alaska HB 1 · 33rd Legislature',
      'Alaska HB 1 · 34th Legislature',
      'Wyoming HB 1 · 2026 session',
    ]);
  });
});
